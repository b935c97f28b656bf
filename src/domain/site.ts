import { z } from 'zod';
import { formatUsd } from './money';
import { formatUsPhone } from './us-contact';

/**
 * The bank's own details, one group of settings (COMPANY_NAME, COMPANY_PHONE, REMIT_TO_PAYEE,
 * REMIT_TO_ADDRESS, PRIVACY_URL; placeholders in demo mode): the footer of every page, the phone
 * used when a client has none on file, and where a check goes.
 */
export const bankDetailsSchema = z.object({
  name: z.string().describe('The bank\'s name, as clients know it ("ACT")'),
  phone: z.string().describe("The bank's phone number, 10 digits"),
  payee: z.string().describe('Whom a check is made out to'),
  remitTo: z.array(z.string()).describe('Where a check is mailed, line by line'),
  privacyUrl: z.string().describe('The privacy notice'),
});
export type BankDetails = z.infer<typeof bankDetailsSchema>;

/** The public settings the pages read before anyone signs in. */
export const siteConfigSchema = z.object({
  contactUrl: z.string().describe('Where "Contact us" leads: the bank\'s contact page (CONTACT_URL)'),
  bank: bankDetailsSchema,
});

export type SiteConfig = z.infer<typeof siteConfigSchema>;

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
