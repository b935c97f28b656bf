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
  awaitsApproval: (amountCents: Cents, limitCents: Cents) =>
    `The refund of ${formatUsd(amountCents)} is above ${formatUsd(limitCents)}: it is sent once another admin approves it.`,
  ownApproval: 'You asked for this refund: an admin other than the one who asked must approve it.',
  alreadyApproved: 'Another admin already approved this refund.',
  alreadyDeclined: 'This refund was declined: nothing was sent.',
  declined: (amountCents: Cents) => `The refund of ${formatUsd(amountCents)} was declined: nothing was sent.`,
  /** Under the reason field: who reads it. */
  reasonKeptForStaff: "Kept with the refund for staff. The client's receipt and e-mail do not show it.",
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

/**
 * A refund asked for above the price book's approval limit: recorded with who asked, the amount
 * and the reason, nothing sent; its amount is held against the charge until an admin other than
 * the one who asked approves it (then it is sent) or declines it.
 */
export const refundAwaitingApprovalSchema = z.object({
  success: z.literal(true),
  awaitingApproval: z.literal(true),
  message: z.string(),
  refundId: z.uuid(),
  paymentId: z.uuid(),
  amountCents: z.number().int(),
  refundedCents: z.number().int().describe('All refunded of the payment so far (this one not yet)'),
  leftCents: z
    .number()
    .int()
    .describe('What may still be refunded of the payment: refunds awaiting approval are held'),
});
export type RefundAwaitingApproval = z.infer<typeof refundAwaitingApprovalSchema>;

/** The answer to a refund asked for: sent (refunded or voided), or awaiting a second admin. */
export const refundAnswerSchema = z.union([refundResponseSchema, refundAwaitingApprovalSchema]);
export type RefundAnswer = z.infer<typeof refundAnswerSchema>;

export const refundDeclinedSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  refundId: z.uuid(),
});
export type RefundDeclined = z.infer<typeof refundDeclinedSchema>;

export const refundStatuses = [
  'awaiting_approval',
  'in_progress',
  'refunded',
  'voided',
  'failed',
  'declined',
] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** One refund of a payment as the staff record lists it. */
export const staffRefundSchema = z.object({
  id: z.uuid(),
  amountCents: z.number().int(),
  status: z.enum(refundStatuses),
  reason: z.string(),
  /** The staff member who asked (their name), or null when the client's cancellation owed it. */
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
  /** The admin who approved or declined it (their name), when it awaited approval. */
  decidedBy: z.string().nullable(),
  completedAt: z.string().nullable(),
  reference: z.string(),
  /** Why it was not sent (a refund the gateway refused), when it was not. */
  message: z.string().nullable(),
  /** Awaiting approval and asked by the staff member viewing: another admin must approve it. */
  askedByYou: z.boolean(),
  /** Awaiting approval and the viewer is an admin who did not ask: they may approve or decline it. */
  canApprove: z.boolean(),
});
export type StaffRefund = z.infer<typeof staffRefundSchema>;

/** One approved payment of a client, with what was refunded of it and what is held for approval. */
export const staffPaymentSchema = z.object({
  id: z.uuid(),
  paidOn: z.string().describe('YYYY-MM-DD'),
  description: z.string(),
  method: z.string().describe('"Visa ending in 4242": the brand and last 4 only'),
  transactionId: z.string(),
  totalCents: z.number().int(),
  refundedCents: z.number().int().describe('Refunded or voided, and refunds under way'),
  awaitingApprovalCents: z.number().int(),
  leftCents: z.number().int().describe('What may still be refunded'),
  refunds: z.array(staffRefundSchema),
});
export type StaffPayment = z.infer<typeof staffPaymentSchema>;

export const staffClientPaymentsSchema = z.object({
  payments: z.array(staffPaymentSchema),
  /** Above this a refund awaits a second admin's approval (the price book in force). */
  approvalLimitCents: z.number().int(),
  /** Admins refund; staff-level members read. */
  canRefund: z.boolean(),
});
export type StaffClientPayments = z.infer<typeof staffClientPaymentsSchema>;

/** What the staff record says of a refund's status. */
export function refundStatusLabel(refund: Pick<StaffRefund, 'status' | 'decidedBy'>): string {
  switch (refund.status) {
    case 'awaiting_approval':
      return 'Awaiting approval';
    case 'in_progress':
      return 'Being sent';
    case 'refunded':
      return 'Refunded';
    case 'voided':
      return 'Voided';
    case 'failed':
      return 'Not sent';
    case 'declined':
      return refund.decidedBy ? `Declined by ${refund.decidedBy}` : 'Declined';
  }
}
