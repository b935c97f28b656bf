import { z } from 'zod';
import { addDays, addYears, calendarDateToIso, isoToUsDate } from './dates';
import { type Cents, formatUsd } from './money';
import { installmentRunCountsSchema } from './newborn-agreement';
import { installmentBillingSchema } from './newborn-installments';
import { cardProcessingFee, type StorageCharge, type StorageCharges } from './payments';
import type { PriceBook } from './price-book';
import { storageAnniversary } from './storage-year';

/**
 * Storage renewals (issue 21, DESIGN 8a): each storage year after the first falls due on an
 * anniversary of the banked date; a notice goes 30 days ahead and fixes the amount; the method
 * secured for annual banking is charged on the due date; a soft decline is retried on days 3, 7
 * and 14, a hard one is not; after the last try the year is overdue.
 */

/** Every reason a gateway gives for not taking money, as the gateway port reports it. */
export const DECLINE_REASONS = [
  'generic_decline',
  'insufficient_funds',
  'lost_card',
  'stolen_card',
  'expired_card',
  'incorrect_cvc',
  'incorrect_zip',
  'billing_address_required',
  'invalid_number',
  'processing_error',
  'duplicate',
  'ach_account_closed',
  'ach_no_account',
  'ach_insufficient_funds',
  'invalid_token',
  'gateway_unavailable',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/**
 * Soft: the same method may pay on another day (funds, a processing error, a generic decline).
 * Hard: it never will (the account is closed or unknown, the card lost, stolen or expired, the
 * card's checks refused) and retrying would only be refused again.
 */
export const DECLINE_KINDS: Record<DeclineReason | 'unknown', 'soft' | 'hard'> = {
  generic_decline: 'soft',
  insufficient_funds: 'soft',
  ach_insufficient_funds: 'soft',
  processing_error: 'soft',
  gateway_unavailable: 'soft',
  duplicate: 'soft',
  unknown: 'soft',
  lost_card: 'hard',
  stolen_card: 'hard',
  expired_card: 'hard',
  incorrect_cvc: 'hard',
  incorrect_zip: 'hard',
  billing_address_required: 'hard',
  invalid_number: 'hard',
  invalid_token: 'hard',
  ach_account_closed: 'hard',
  ach_no_account: 'hard',
};

/** A decline reason as the Billing page names it. */
export const DECLINE_REASON_LABELS: Record<DeclineReason, string> = {
  generic_decline: 'Generic decline',
  insufficient_funds: 'Insufficient funds',
  lost_card: 'Card reported lost',
  stolen_card: 'Card reported stolen',
  expired_card: 'Card expired',
  incorrect_cvc: 'Incorrect security code',
  incorrect_zip: 'Incorrect ZIP code',
  billing_address_required: 'Billing address required',
  invalid_number: 'Invalid card number',
  processing_error: 'Processing error',
  duplicate: 'Duplicate transaction',
  ach_account_closed: 'Bank account closed',
  ach_no_account: 'No such bank account',
  ach_insufficient_funds: 'Insufficient funds in the bank account',
  invalid_token: 'Payment method no longer valid',
  gateway_unavailable: 'Payment gateway unavailable',
};

export function declineReasonLabel(reason: string | null): string {
  if (!reason) return '—';
  return DECLINE_REASON_LABELS[reason as DeclineReason] ?? reason;
}

export function declineKind(reason: string | null | undefined): 'soft' | 'hard' {
  return DECLINE_KINDS[(reason ?? 'unknown') as DeclineReason] ?? 'soft';
}

/** Days before the due date the notice goes; never fewer than 15 nor more than 45 (automatic-renewal laws). */
export const NOTICE_DAYS_AHEAD = 30;
export const NOTICE_MIN_DAYS = 15;
export const NOTICE_MAX_DAYS = 45;
/** Days after the charge date a soft decline is tried again; after the last the year is overdue. */
export const RETRY_DAYS = [3, 7, 14] as const;
/** Days after the due date a year paid by check (or with no method) becomes overdue. */
export const CHECK_GRACE_DAYS = 14;

/** One storage year to bill: its number, the day it falls due and the day it pays storage until. */
export interface RenewalYear {
  yearNumber: number;
  dueDate: string;
  coversUntil: string;
}

/**
 * The next year to bill for a client banked on `bankedDate` whose storage is covered until
 * `coveredUntil` (paid-until, or the end of the last year already billed): the year that falls
 * due on that date. On a real anniversary it pays until the next one (a 29 February banked date
 * falls due on 28 February in common years and on 29 February in leap years); a paid-until that
 * is not an anniversary (an older record) pays a calendar year.
 */
export function nextRenewalYear(bankedDate: string, coveredUntil: string): RenewalYear {
  let n = 1;
  while (storageAnniversary(bankedDate, n + 1) <= coveredUntil) n += 1;
  const onAnniversary = storageAnniversary(bankedDate, n) === coveredUntil;
  return {
    yearNumber: n,
    dueDate: coveredUntil,
    coversUntil: onAnniversary ? storageAnniversary(bankedDate, n + 1) : addYears(coveredUntil, 1),
  };
}

/** The day a year's notice is due to go. */
export function noticeDay(dueDate: string): string {
  return addDays(dueDate, -NOTICE_DAYS_AHEAD);
}

/**
 * The day the method is charged when the notice goes on `noticeOn`: the due date, unless the
 * notice could not go 15 days ahead; then 15 days after the notice.
 */
export function chargeDay(dueDate: string, noticeOn: string): string {
  return noticeOn > addDays(dueDate, -NOTICE_MIN_DAYS) ? addDays(noticeOn, NOTICE_MIN_DAYS) : dueDate;
}

/**
 * After `failedTries` failed tries (1 to 4) of a charge first tried on `chargeOn`: the day of the
 * next try, or null when there is none (a hard decline, or the last try has failed).
 */
export function nextTryDay(chargeOn: string, failedTries: number, kind: 'soft' | 'hard'): string | null {
  if (kind === 'hard') return null;
  const after = RETRY_DAYS[failedTries - 1];
  return after === undefined ? null : addDays(chargeOn, after);
}

/** How the client pays annual storage: ACH pays the maintenance fee; card and check the card-or-check amount. */
export type RenewalMethod = 'card' | 'ach' | 'check' | 'none';

/** The amount of a storage year, fixed when its notice goes (no card fee on top: it is in the amount). */
export function renewalAmountCents(book: PriceBook, method: RenewalMethod): Cents {
  return method === 'ach' ? book.annualMaintenanceFee : book.annualFeeCardOrCheck;
}

/** A noticed year's amount for a method: its ACH amount by ACH (when it has one), else its card-or-check amount. */
export function yearAmountCents(
  year: { amountCents: Cents; achAmountCents: Cents | null },
  method: RenewalMethod,
): Cents {
  return method === 'ach' ? (year.achAmountCents ?? year.amountCents) : year.amountCents;
}

/** A storage year's amounts: by card or check, and by ACH (null on an older row, billed before notices fixed both). */
export interface StorageYearAmounts {
  amountCents: Cents;
  achAmountCents: Cents | null;
}

/**
 * What unpaid storage years charge when paid after their notice (Payment Information, a payment
 * link, a vial request), by one method. One rule: a year whose notice fixed its amounts is charged
 * the amount fixed for the method (by card the card-or-check amount, by ACH the ACH amount), with
 * no fee on top, whatever price book version is in force by then; an older row without an ACH
 * amount is owed its amount, and a card adds the fee of `book` (the version in force) on those.
 */
export function storageYearsCharge(
  book: PriceBook,
  years: readonly StorageYearAmounts[],
  method: 'card' | 'ach',
): StorageCharge {
  let fixed = 0;
  let older = 0;
  for (const year of years) {
    if (year.achAmountCents === null) older += year.amountCents;
    else fixed += yearAmountCents(year, method);
  }
  const feeCents = cardProcessingFee(book, older, method);
  return { amountCents: fixed + older, feeCents, totalCents: fixed + older + feeCents };
}

/** What the unpaid years charge by card and by bank account, with the book in force. */
export function storageYearsCharges(book: PriceBook, years: readonly StorageYearAmounts[]): StorageCharges {
  return { card: storageYearsCharge(book, years, 'card'), ach: storageYearsCharge(book, years, 'ach') };
}

/** Where a storage year stands. */
export const RENEWAL_STATUSES = ['noticed', 'retrying', 'overdue', 'paid', 'waived', 'covered'] as const;
export type RenewalStatus = (typeof RENEWAL_STATUSES)[number];

/** A year's status as a client's billing schedule names it. */
export const RENEWAL_STATUS_LABELS: Record<RenewalStatus, string> = {
  noticed: 'Notice sent',
  retrying: 'Waiting for a retry',
  overdue: 'Overdue',
  paid: 'Paid',
  waived: 'Waived',
  covered: 'Prepaid by a plan',
};

/** True when a card expires before the month of `dueDate` (it is good through the end of its expiry month). */
export function cardExpiresBefore(
  method: { kind: 'card' | 'ach'; expiryMonth: number | null; expiryYear: number | null },
  dueDate: string,
): boolean {
  if (method.kind !== 'card' || !method.expiryMonth || !method.expiryYear) return false;
  return `${method.expiryYear}-${String(method.expiryMonth).padStart(2, '0')}-31` < dueDate;
}

export function describeMethodOnFile(method: { kind: 'card' | 'ach'; brand: string | null; last4: string }) {
  return method.kind === 'card'
    ? `${method.brand ?? 'Card'} ending ${method.last4}`
    : `bank account ending ${method.last4}`;
}

export const renewalMessages = {
  nextCharge: (amountCents: Cents, dueDate: string, method: string) =>
    `${formatUsd(amountCents)} on ${isoToUsDate(dueDate)} to ${method}`,
  nextInvoice: (amountCents: Cents, dueDate: string) =>
    `${formatUsd(amountCents)} due on ${isoToUsDate(dueDate)}, no payment method on file`,
  retrying: (nextTry: string) => `Payment due, retrying on ${isoToUsDate(nextTry)}`,
  expiresBeforeDue: (method: string, dueDate: string) =>
    `Your ${method} expires before your next annual storage payment on ${isoToUsDate(dueDate)}. Please update your payment method.`,
  noticeSubject: 'Your annual storage renews soon',
  receiptSubject: 'Receipt: annual storage renewed',
  declinedSubject: 'Your annual storage payment did not go through',
  overdueSubject: 'Your annual storage payment is overdue',
  runNotDemo: 'Not found',
  asOfInvalid: 'Please enter a date as YYYY-MM-DD',
  asOfPast: 'The date must be after the last billing run',
  asOfTooFar: 'The date can be at most two years ahead',
  asOfRequired: 'Please enter the date to run billing to',
  asOfEntryInvalid: 'Please enter the date as MM/DD/YYYY',
  waiveReasonRequired: 'Please give a reason',
  deferDateInvalid: 'Please enter a date after today and at most two years ahead',
  waived: 'The year was waived.',
  deferred: (until: string) => `The year was deferred to ${isoToUsDate(until)}.`,
  notOpen: 'This year is not open any more.',
} as const;

export const billingRunRequestSchema = z.object({
  asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, renewalMessages.asOfInvalid),
  /** Tests only: the run is limited to these clients (Client IDs). */
  clients: z.array(z.string().max(40)).max(5000).optional(),
});
export type BillingRunRequest = z.infer<typeof billingRunRequestSchema>;

export const billingRunCountsSchema = z.object({
  days: z.number().int(),
  notices: z.number().int(),
  charges: z.number().int(),
  declines: z.number().int(),
  retries: z.number().int(),
  overdue: z.number().int(),
});
export type BillingRunCounts = z.infer<typeof billingRunCountsSchema>;

export const billingRunResponseSchema = billingRunCountsSchema.extend({
  from: z.string().describe('YYYY-MM-DD: the first day run'),
  asOf: z.string().describe('YYYY-MM-DD: the last day run'),
  installments: installmentRunCountsSchema
    .optional()
    .describe('Newborn finance installments: reminders sent, charges, declines, late charges added'),
});
export type BillingRunResponse = z.infer<typeof billingRunResponseSchema>;

/**
 * What the date typed in "Run billing as of" (MM/DD/YYYY, or YYYY-MM-DD) runs to, or the problem
 * with it; the two-year limit is the server's.
 */
export function billingRunDate(
  typed: string,
  lastRunDay: string | null,
): { asOf: string; problem: null } | { asOf: null; problem: string } {
  const trimmed = typed.trim();
  if (!trimmed) return { asOf: null, problem: renewalMessages.asOfRequired };
  const asOf = calendarDateToIso(trimmed);
  if (!asOf) return { asOf: null, problem: renewalMessages.asOfEntryInvalid };
  if (lastRunDay && asOf <= lastRunDay) return { asOf: null, problem: renewalMessages.asOfPast };
  return { asOf, problem: null };
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Ran 20 days (11/27/2026 to 12/16/2026): 1 notice, 1 charge, 0 declines, 0 retries, 0 overdue." */
export function billingRunSummary(run: BillingRunResponse): string {
  if (run.days === 0) return `Nothing to run: billing has already run up to ${isoToUsDate(run.asOf)}.`;
  const span =
    run.days === 1 ? isoToUsDate(run.asOf) : `${isoToUsDate(run.from)} to ${isoToUsDate(run.asOf)}`;
  return `Ran ${counted(run.days, 'day', 'days')} (${span}): ${counted(run.notices, 'notice', 'notices')}, ${counted(run.charges, 'charge', 'charges')}, ${counted(run.declines, 'decline', 'declines')}, ${counted(run.retries, 'retry', 'retries')}, ${run.overdue} overdue.`;
}

export const billingYearSchema = z.object({
  id: z.uuid(),
  clientActId: z.string(),
  clientName: z.string(),
  yearNumber: z.number().int().nullable(),
  dueDate: z.string(),
  chargeOn: z.string().nullable(),
  amountCents: z.number().int(),
  status: z.enum(RENEWAL_STATUSES),
  method: z.string().describe('How it is paid: "Visa ending 4242", "check", "none on file"'),
  tries: z.number().int(),
  nextTryOn: z.string().nullable(),
  lastDecline: z.string().nullable(),
  paidOn: z.string().nullable(),
  note: z.string().nullable(),
});
export type BillingYear = z.infer<typeof billingYearSchema>;

export const billingOverviewSchema = z.object({
  today: z.string(),
  lastRunDay: z.string().nullable(),
  demo: z.boolean(),
  dueSoon: z.array(billingYearSchema),
  chargedToday: z.array(billingYearSchema),
  retrying: z.array(billingYearSchema),
  overdue: z.array(billingYearSchema),
  recovered: z.array(billingYearSchema),
  /** The newborn installments of the same billing day. */
  installments: installmentBillingSchema,
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

export const changeBillingYearRequestSchema = z.object({
  action: z.enum(['waive', 'defer']),
  reason: z.string().max(500),
  /** Defer only: the new charge day, YYYY-MM-DD. */
  until: z.string().max(10).optional(),
});
export type ChangeBillingYearRequest = z.infer<typeof changeBillingYearRequestSchema>;

/**
 * The "Waive or defer" form as typed (the date as MM/DD/YYYY, or YYYY-MM-DD) and the request it
 * sends. Only the date is judged here, because it must be read before it can be sent; the reason
 * and the date's range are the server's to judge, and its messages are shown under the fields.
 */
export const changeBillingYearEntrySchema = z
  .object({
    action: z.enum(['waive', 'defer']),
    until: z.string(),
    reason: z.string().max(500),
  })
  .superRefine((entry, ctx) => {
    if (entry.action === 'defer' && !calendarDateToIso(entry.until)) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: renewalMessages.deferDateInvalid });
    }
  })
  .transform(
    ({ action, until, reason }): ChangeBillingYearRequest =>
      action === 'waive' ? { action, reason } : { action, reason, until: calendarDateToIso(until) ?? '' },
  );
export type ChangeBillingYearEntry = z.input<typeof changeBillingYearEntrySchema>;

/** The memo a check carries, so the bank can tell whose year it pays. */
export function checkMemo(clientActId: string, yearNumber: number | null): string {
  return yearNumber === null ? `${clientActId} annual storage` : `${clientActId} storage year ${yearNumber}`;
}

export const storageRenewalSchema = z.object({
  nextCharge: z
    .string()
    .nullable()
    .describe('"$350.00 on 06/14/2027 to Visa ending 4242", or an invoice line'),
  retryingOn: z
    .string()
    .nullable()
    .describe('"Payment due, retrying on 06/17/2027" while a retry is planned'),
  expiring: z.string().nullable().describe('The card on file expires before the next charge'),
});
export type StorageRenewal = z.infer<typeof storageRenewalSchema>;

export const changeBillingYearResponseSchema = z.object({ message: z.string() });

export const clientBillingYearsSchema = z.object({ years: z.array(billingYearSchema) });
