import { z } from 'zod';
import { type Cents, formatUsd } from './money';
import { amountToCents } from './staff-queues';

/**
 * Refunds (issue 22): a refund gives back part or all of one charge, never more than what is
 * left of it after its earlier refunds. The words staff and clients read.
 */

export const refundMessages = {
  amountRequired: 'Please enter the amount to refund',
  amountInvalid: 'Please enter an amount in dollars and cents, such as 125.00',
  amountZero: 'The amount to refund must be more than $0.00',
  amountTooHigh: (leftCents: Cents) =>
    `The refund is more than what is left of this payment: at most ${formatUsd(leftCents)} can be refunded.`,
  reasonRequired: 'Please give a reason for the refund',
  notRefundable: 'This payment cannot be refunded: it was not charged.',
  alreadyOnItsWay: 'This refund is already on its way.',
  emailSubject: 'Your refund',
  refunded: (amountCents: Cents) => `${formatUsd(amountCents)} was refunded.`,
  voided: (amountCents: Cents) =>
    `The payment of ${formatUsd(amountCents)} was voided before it settled: nothing was taken.`,
} as const;

/** What may still be refunded of a charge, and the problems of a refund asked for. */
export function refundProblems(
  entry: { amount: string; reason: string },
  charge: { totalCents: Cents; refundedCents: Cents },
): Partial<Record<'amount' | 'reason', string>> {
  const m = refundMessages;
  const problems: Partial<Record<'amount' | 'reason', string>> = {};
  const left = charge.totalCents - charge.refundedCents;
  const cents = amountToCents(entry.amount);
  if (!entry.amount.trim()) problems.amount = m.amountRequired;
  else if (cents === null) problems.amount = m.amountInvalid;
  else if (cents <= 0) problems.amount = m.amountZero;
  else if (cents > left) problems.amount = m.amountTooHigh(left);
  if (!entry.reason.trim()) problems.reason = m.reasonRequired;
  return problems;
}

export const refundRequestSchema = z.object({
  paymentId: z.uuid(),
  amount: z.string().max(20).describe('Dollars, as typed: "125.00"'),
  reason: z.string().max(500),
});
export type RefundRequest = z.infer<typeof refundRequestSchema>;

export const refundResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  refundId: z.uuid(),
  paymentId: z.uuid(),
  kind: z.enum(['refund', 'void']),
  amountCents: z.number().int(),
  transactionId: z.string(),
  refundedCents: z.number().int().describe('All refunded of the payment so far, this one included'),
  leftCents: z.number().int().describe('What may still be refunded of the payment'),
});
export type RefundResponse = z.infer<typeof refundResponseSchema>;

/** Above the price book's limit a refund needs a second admin's approval (issue 22), not taken yet: refused. */
export const refundNeedsApproval = (limitCents: Cents) =>
  `A refund above ${formatUsd(limitCents)} needs the approval of a second admin.`;
