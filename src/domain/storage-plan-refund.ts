import { z } from 'zod';
import { addYears, isoToUsDate } from './dates';
import { type Cents, formatUsd } from './money';

/**
 * Taking back the unused part of a Banking and Storage Plans order (issue 22): an admin, with a
 * reason, takes back the storage years of the plan not yet begun and its vials not yet used, and
 * refunds those only. What was decided, to the cent:
 *
 * - Years. A year of storage is begun when its start date is on or before today. The order's
 *   years are the last `storageYears` years ending at the paid-until date it left
 *   (`paidUntilAfter`); the client's paid-until date may have moved since (an annual fee, another
 *   plan, a take-back). Conservatively, the years taken back are the fewest of: the order's years,
 *   the years of its own span not begun, and the years not begun counted back from the client's
 *   current paid-until date. They come off the end of the current paid-until date. No paid-until
 *   date, nothing.
 * - Vials. At most the order's vials of each kind, and at most what the client still holds unused
 *   of that kind (a vial reserved by a request is no longer held). An order has one banking kind.
 * - Refund. Storage: pro rata per year of `storageCents`; banking: pro rata per vial of
 *   `bankingCents` (a Bio-Insurance order is priced per vial at its tier, a Longevity plan as one
 *   price for its vials: both divided evenly over the order's vials). Each part is rounded down to
 *   the cent (all of it taken back gives back exactly its price). The card processing fee in the
 *   proportion of the two parts to the plans' amount, rounded to the nearest cent. Never more
 *   than was paid less what was already refunded (or held awaiting approval) of that payment.
 */

export const planRefundMessages = {
  reasonRequired: 'Please give a reason for the refund',
  alreadyTakenBack: (on: string) => `This plan's unused part was already taken back on ${isoToUsDate(on)}.`,
  nothingToTakeBack:
    'Nothing is left to take back: every storage year of this plan has begun and its vials are used.',
  notPaid: 'This order is not paid: there is nothing to take back.',
  takenBack: (cents: Cents) =>
    `The unused part of the plan was taken back and ${formatUsd(cents)} refunded to the account it was paid with.`,
  takenBackByCheck: (cents: Cents) =>
    `The unused part of the plan was taken back. It was paid by check: mail the client a check for ${formatUsd(cents)}.`,
  emailSubject: 'Your Banking and Storage Plans refund',
} as const;

export interface PlanOrderForRefund {
  storageYears: number;
  storageCents: Cents;
  bioInsuranceVials: number;
  longevityVials: number;
  bankingCents: Cents;
  processingFeeCents: Cents;
  /** The client's paid-until date as the order left it. */
  paidUntilAfter: string | null;
}

export interface PlanRefundFacts {
  order: PlanOrderForRefund;
  /** What was paid for the order: the charge's total, or the check's amount. */
  paidCents: Cents;
  /** Of that payment, what is already refunded or held awaiting approval. */
  refundedCents: Cents;
  /** The client's storage paid-until date now. */
  paidUntil: string | null;
  /** The vials the client holds unused now, of each kind. */
  heldVials: { bioInsurance: number; longevity: number };
  today: string;
}

export interface PlanRefundTerms {
  years: number;
  bioInsuranceVials: number;
  longevityVials: number;
  storageRefundCents: Cents;
  bankingRefundCents: Cents;
  feeRefundCents: Cents;
  refundCents: Cents;
  /** The client's paid-until date once the years are taken back. */
  paidUntilAfterTakeBack: string | null;
}

/** Of `years` years ending at `end`, how many start after today (the last ones first). */
function yearsNotBegun(end: string | null, years: number, today: string): number {
  if (!end) return 0;
  let count = 0;
  while (count < years && addYears(end, -(count + 1)) > today) count += 1;
  return count;
}

/** What taking back the unused part of a paid plan order returns, today. */
export function planRefundTerms(facts: PlanRefundFacts): PlanRefundTerms {
  const { order, today } = facts;
  const years = Math.min(
    yearsNotBegun(order.paidUntilAfter, order.storageYears, today),
    yearsNotBegun(facts.paidUntil, order.storageYears, today),
  );
  const bioInsuranceVials = Math.max(0, Math.min(order.bioInsuranceVials, facts.heldVials.bioInsurance));
  const longevityVials = Math.max(0, Math.min(order.longevityVials, facts.heldVials.longevity));
  const orderVials = order.bioInsuranceVials + order.longevityVials;
  const storageRefundCents =
    order.storageYears > 0 ? Math.floor((order.storageCents * years) / order.storageYears) : 0;
  const bankingRefundCents =
    orderVials > 0 ? Math.floor((order.bankingCents * (bioInsuranceVials + longevityVials)) / orderVials) : 0;
  const amountCents = order.storageCents + order.bankingCents;
  const feeRefundCents =
    amountCents > 0
      ? Math.round((order.processingFeeCents * (storageRefundCents + bankingRefundCents)) / amountCents)
      : 0;
  const left = Math.max(0, facts.paidCents - facts.refundedCents);
  return {
    years,
    bioInsuranceVials,
    longevityVials,
    storageRefundCents,
    bankingRefundCents,
    feeRefundCents,
    refundCents: Math.min(left, storageRefundCents + bankingRefundCents + feeRefundCents),
    paidUntilAfterTakeBack:
      facts.paidUntil && years > 0 ? addYears(facts.paidUntil, -years) : facts.paidUntil,
  };
}

/** Whether the terms take anything back at all. */
export function takesSomethingBack(terms: PlanRefundTerms): boolean {
  return terms.years > 0 || terms.bioInsuranceVials > 0 || terms.longevityVials > 0;
}

/** What a take-back takes, in words: "4 storage years and 10 Bio-Insurance vials". */
export function takenBackText(taken: {
  years: number;
  bioInsuranceVials: number;
  longevityVials: number;
}): string {
  const parts = [
    taken.years > 0 ? `${taken.years} storage ${taken.years === 1 ? 'year' : 'years'}` : null,
    taken.bioInsuranceVials > 0
      ? `${taken.bioInsuranceVials} Bio-Insurance ${taken.bioInsuranceVials === 1 ? 'vial' : 'vials'}`
      : null,
    taken.longevityVials > 0
      ? `${taken.longevityVials} Longevity ${taken.longevityVials === 1 ? 'vial' : 'vials'}`
      : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? 'nothing' : parts.join(' and ');
}

export const planRefundRequestSchema = z.object({
  reason: z.string().max(500),
});
export type PlanRefundRequest = z.infer<typeof planRefundRequestSchema>;

/** The reason field's problem, for the form and the server alike. */
export function planRefundProblems(entry: PlanRefundRequest): Partial<Record<'reason', string>> {
  return entry.reason.trim() ? {} : { reason: planRefundMessages.reasonRequired };
}

const termsSchema = z.object({
  years: z.number().int(),
  bioInsuranceVials: z.number().int(),
  longevityVials: z.number().int(),
  storageRefundCents: z.number().int(),
  bankingRefundCents: z.number().int(),
  feeRefundCents: z.number().int(),
  refundCents: z.number().int(),
  paidUntilAfterTakeBack: z.string().nullable(),
});

/** A take-back done: what was taken back and refunded, when, by whom and why. */
const takenBackSchema = z.object({
  at: z.string(),
  by: z.string().nullable().describe("The admin's name"),
  reason: z.string(),
  years: z.number().int(),
  bioInsuranceVials: z.number().int(),
  longevityVials: z.number().int(),
  refundCents: z.number().int(),
  byCheck: z.boolean(),
  refundedCents: z.number().int().describe('What of the refund has reached the gateway so far'),
});

/** One paid plan order on the staff record: the order, and either what a take-back would do now or what one did. */
export const staffPlanOrderSchema = z.object({
  id: z.uuid(),
  orderedOn: z.string().describe('YYYY-MM-DD'),
  planNames: z.string(),
  storageYears: z.number().int(),
  bioInsuranceVials: z.number().int(),
  longevityVials: z.number().int(),
  totalCents: z.number().int(),
  paidCents: z.number().int(),
  paymentDescription: z.string(),
  paidByCheck: z.boolean().describe('A check order: its refund is a check staff mail'),
  paidUntilAfter: z.string().nullable(),
  /** What a take-back today would do (null once taken back). */
  preview: termsSchema.nullable(),
  takenBack: takenBackSchema.nullable(),
});
export type StaffPlanOrder = z.infer<typeof staffPlanOrderSchema>;

export const staffPlanOrdersSchema = z.object({
  orders: z.array(staffPlanOrderSchema),
  canRefund: z.boolean(),
});
export type StaffPlanOrders = z.infer<typeof staffPlanOrdersSchema>;

export const planRefundResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  order: staffPlanOrderSchema,
});
export type PlanRefundResponse = z.infer<typeof planRefundResponseSchema>;
