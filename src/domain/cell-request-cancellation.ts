import { z } from 'zod';
import { fedexHolidayOn, weekdayOf } from './carrier-calendar';
import { addDays, isoDateOf, isoToUsDate, zonedInstant } from './dates';
import { type Cents, formatUsd } from './money';
import { type PrePaidVials, prePaidVialKindsText } from './vial-request-price';

/**
 * Where a vial request stands. Beside its cancellation rules, which read it, so the back office's
 * queues have it without loading the request form's schemas (issue 24).
 */
export const CELL_REQUEST_STATUSES = [
  'pending',
  'requested',
  'approved',
  'shipped',
  'delivered',
  'cancelled',
] as const;

/**
 * Cancelling a vial request (spec 3 section 5's policy, DESIGN.md 8a): notice by 2:00 PM Eastern
 * two business days before the delivery date (the request's ShipmentDate, the arrival the client
 * chose) cancels it with everything refunded and the pre-paid vials given back. Later, and before
 * the vials ship, each vial paid by card or ACH keeps the replacement fee (the rest refunded, its
 * card fee in proportion) and each pre-paid vial is forfeited. Once shipped, nothing is cancelled.
 * A pre-paid vial is a requested vial the client's pre-paid vials covered (vial-request-price.ts):
 * one Bio-Insurance vial, or 10 Longevity vials; those the request took are what comes back.
 */

const BANK_TIME_ZONE = 'America/New_York';
const CUTOFF_HOUR = 14;
const NOTICE_BUSINESS_DAYS = 2;

export const cancellationMessages = {
  shipped: 'No cancellation is possible once the vials have shipped.',
  isCancelled: 'This request is cancelled.',
  reasonRequired: 'Please give a reason for the cancellation',
  paymentUnderWay: 'A payment for this request is under way. Please try again in a minute.',
  cancelled: 'Your request is cancelled.',
  emailSubject: 'Your stem cell request is cancelled',
} as const;

/** A business day: Monday to Friday, not one of the carrier calendar's holidays. */
export function isBusinessDay(date: string): boolean {
  const weekday = weekdayOf(date);
  return weekday >= 1 && weekday <= 5 && fedexHolidayOn(date) === null;
}

/** The day two business days before the delivery date. */
export function cancellationCutoffDay(deliveryDate: string): string {
  let day = deliveryDate;
  let counted = 0;
  while (counted < NOTICE_BUSINESS_DAYS) {
    day = addDays(day, -1);
    if (isBusinessDay(day)) counted += 1;
  }
  return day;
}

/** The last moment a full cancellation is accepted: 2:00 PM Eastern two business days before delivery. */
export function cancellationCutoff(deliveryDate: string): Date {
  return zonedInstant(cancellationCutoffDay(deliveryDate), CUTOFF_HOUR, BANK_TIME_ZONE);
}

/** One charge of the request: its total and the card processing fee within it. */
export interface RequestCharge {
  paymentId: string;
  totalCents: Cents;
  feeCents: Cents;
}

export interface CancellationFacts {
  now: Date;
  deliveryDate: string;
  shipped: boolean;
  vials: number;
  prePaidVials: number;
  /** The order's charge (vials, CPP, FedEx shipping), then an ACT VIP price charged later, if any. */
  charges: readonly RequestCharge[];
  /** The replacement fee per paid vial, from the price book in force when the request was placed. */
  replacementFeeCents: Cents;
  /** The client's objection to a physician's request, within its window: at no cost, whatever the cutoff. */
  objection?: boolean;
}

export type CancellationTerms =
  | { allowed: false; reason: 'shipped'; cutoff: string }
  | {
      allowed: true;
      /** Before the cutoff: everything back. After it: the replacement fee kept, pre-paid vials forfeited. */
      phase: 'full' | 'late';
      cutoff: string;
      refunds: { paymentId: string; cents: Cents }[];
      refundCents: Cents;
      keptCents: Cents;
      paidVials: number;
      returnedVials: number;
      forfeitedVials: number;
    };

/** What cancelling now refunds, keeps and forfeits, to the cent. */
export function cancellationTerms(facts: CancellationFacts): CancellationTerms {
  const cutoff = cancellationCutoff(facts.deliveryDate).toISOString();
  if (facts.shipped) return { allowed: false, reason: 'shipped', cutoff };
  const paidVials = facts.vials - facts.prePaidVials;
  const charged = facts.charges.reduce((sum, c) => sum + c.totalCents, 0);
  if (facts.objection || facts.now.getTime() <= new Date(cutoff).getTime()) {
    return {
      allowed: true,
      phase: 'full',
      cutoff,
      refunds: facts.charges
        .filter((c) => c.totalCents > 0)
        .map((c) => ({ paymentId: c.paymentId, cents: c.totalCents })),
      refundCents: charged,
      keptCents: 0,
      paidVials,
      returnedVials: facts.prePaidVials,
      forfeitedVials: 0,
    };
  }
  // The replacement fee comes out of the charges in order (the order's charge holds the vials);
  // each charge's card fee is refunded in the proportion of its amount refunded.
  let toKeep = facts.replacementFeeCents * paidVials;
  const refunds: { paymentId: string; cents: Cents }[] = [];
  for (const charge of facts.charges) {
    const base = charge.totalCents - charge.feeCents;
    const keptBase = Math.min(base, toKeep);
    toKeep -= keptBase;
    const refundBase = base - keptBase;
    const refundFee = base > 0 ? Math.round((charge.feeCents * refundBase) / base) : 0;
    if (refundBase + refundFee > 0)
      refunds.push({ paymentId: charge.paymentId, cents: refundBase + refundFee });
  }
  const refundCents = refunds.reduce((sum, r) => sum + r.cents, 0);
  return {
    allowed: true,
    phase: 'late',
    cutoff,
    refunds,
    refundCents,
    keptCents: charged - refundCents,
    paidVials,
    returnedVials: 0,
    forfeitedVials: facts.prePaidVials,
  };
}

/** "1 vial", "3 vials". */
export const vialsText = (n: number) => `${n} ${n === 1 ? 'vial' : 'vials'}`;
/**
 * "1 pre-paid vial", "3 pre-paid vials"; with the vials the request took, by kind where Longevity
 * vials are among them (10 a vial): "1 pre-paid vial (10 Longevity vials of 1 million cells)".
 */
export function prePaidVialsText(n: number, taken?: { bioInsurance: number; longevity: number }): string {
  const kinds = taken ? prePaidVialKindsText(taken) : null;
  return `${n} pre-paid ${n === 1 ? 'vial' : 'vials'}${kinds ? ` (${kinds})` : ''}`;
}
const vials = vialsText;
const prePaid = (n: number, taken?: PrePaidVials) =>
  `Your ${prePaidVialsText(n, taken)} ${n === 1 ? 'is' : 'are'}`;

/** The cutoff as people read it: "2:00 PM Eastern on 12/08/2026". */
export function cutoffText(cutoff: string): string {
  return `2:00 PM Eastern on ${isoToUsDate(isoDateOf(new Date(cutoff), BANK_TIME_ZONE))}`;
}

/** What the client reads before confirming, and in the e-mail after: refunded, kept, forfeited. */
export function cancellationLines(
  terms: Extract<CancellationTerms, { allowed: true }>,
  replacementFeeCents: Cents,
  /** The pre-paid vials the request took, by kind: what is given back or forfeited. */
  taken?: PrePaidVials,
): string[] {
  const lines = [
    terms.refundCents > 0
      ? `${formatUsd(terms.refundCents)} is refunded to the account you paid with.`
      : 'Nothing was charged for this request, so nothing is refunded.',
  ];
  if (terms.keptCents > 0) {
    lines.push(
      `${formatUsd(terms.keptCents)} is kept as the replacement fee: ${formatUsd(replacementFeeCents)} for each of the ${vials(terms.paidVials)} you paid for, with its card fee.`,
    );
  }
  if (terms.returnedVials > 0) lines.push(`${prePaid(terms.returnedVials, taken)} given back to your plan.`);
  if (terms.forfeitedVials > 0) lines.push(`${prePaid(terms.forfeitedVials, taken)} forfeited.`);
  return lines;
}

/** The cancellation as the request shows it: the terms now, or what was done. */
export const cancellationViewSchema = z.union([
  z.object({
    state: z.literal('open'),
    phase: z.enum(['full', 'late']),
    cutoff: z.string(),
    refundCents: z.number().int(),
    keptCents: z.number().int(),
    returnedVials: z.number().int(),
    forfeitedVials: z.number().int(),
    lines: z.array(z.string()),
  }),
  z.object({ state: z.literal('closed'), cutoff: z.string(), message: z.string() }),
  z.object({
    state: z.literal('cancelled'),
    cancelledAt: z.string(),
    by: z
      .enum(['client', 'staff', 'objection'])
      .describe("'objection': the client objected to a physician's request"),
    refundCents: z.number().int(),
    refundedCents: z.number().int().describe('Refunded so far; the rest is sent once the payment settles'),
    keptCents: z.number().int(),
    returnedVials: z.number().int(),
    forfeitedVials: z.number().int(),
  }),
]);
export type CancellationView = z.infer<typeof cancellationViewSchema>;

export const staffCancelRequestSchema = z.object({
  reason: z.string().max(500),
});
