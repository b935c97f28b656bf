import { formatUsd } from './money';
import type { BankDetails } from './site-config';
import { formatUsPhone } from './us-contact';

// The schemas live in ./site-config: this file is on the sign-in page, which loads no zod.
export type { BankDetails, SiteConfig } from './site-config';

/**
 * An order's or a record's short number, for people (e-mails, checks' memos): its kind and its
 * id's first 8, never the whole id. SP a Banking and Storage Plans order, SO a store order, VR a
 * vial request, FS a submitted form (a consent, a screening), NA a newborn finance agreement.
 */
export function orderNumber(prefix: 'SP' | 'SO' | 'VR' | 'FS' | 'NA', id: string): string {
  return `${prefix}-${id.slice(0, 8).toUpperCase()}`;
}

/** What a plan order's check carries on its memo line: whose, and which order. */
export const planCheckMemo = (clientActId: string, orderId: string) =>
  `${clientActId} order ${orderNumber('SP', orderId)}`;

/** How to pay by check: the amount, the payee, the memo that says what it pays, where to mail it. */
export function checkInstructions(bank: BankDetails, amountCents: number, memo: string): string {
  return `Please make your check for ${formatUsd(amountCents)} payable to ${bank.payee}, write "${memo}" on it, and mail it to ${[bank.payee, ...bank.remitTo].join(', ')}.`;
}

/** The bank's phone as people read it. */
export const bankPhoneText = (bank: BankDetails) => formatUsPhone(bank.phone);
