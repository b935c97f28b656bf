import { z } from 'zod';
import { CELL_REQUEST_STATUSES } from './cell-request';
import { singleLine } from './text';

/**
 * The back office's work queues: each is a card on the staff home page with its count (oldest
 * item first on its own page). A queue is one entry in the server's list of queues and one in
 * the web's list of queue pages, under the same key.
 */
export const queueSummarySchema = z.object({
  key: z.string(),
  title: z.string(),
  count: z.number().int(),
});
export type QueueSummary = z.infer<typeof queueSummarySchema>;
export const queuesResponseSchema = z.object({ queues: z.array(queueSummarySchema) });

export const queueMessages = {
  amountRequired: 'Please enter the ACT VIP price',
  amountInvalid: 'Enter the price in dollars, e.g. 150.00',
  trackingRequired: 'Please enter the tracking number',
  trackingInvalid: 'The tracking number has letters and digits only (up to 40)',
  approvalRecorded: "The practitioner's approval was recorded.",
  priceConfirmed: 'The ACT VIP price was confirmed and charged.',
  shipped: 'The request was marked shipped.',
  delivered: 'The request was marked delivered.',
  alreadyApproved: "Another staff member already recorded the practitioner's approval of this request.",
  alreadyConfirmed: 'Another staff member already confirmed the ACT VIP price of this request.',
  confirming: 'Another staff member is confirming the ACT VIP price of this request right now.',
  notVip: 'This request ships by FedEx: its shipping was charged with the order.',
  paidByCheck:
    'This request was paid by check: there is no card or bank account to charge. Send the client a payment link instead.',
  noMethodOnFile: 'The client has no {method} on file to charge. Send the client a payment link instead.',
  alreadyShipped: 'Another staff member already marked this request shipped.',
  notShipped: 'The request has not been marked shipped yet.',
  alreadyDelivered: 'Another staff member already marked this request delivered.',
  settledPaid: 'The gateway approved this charge: it is settled as paid.',
  settledFailed: 'The gateway has no approved charge: it is settled as failed, nothing was charged.',
  stillInDoubt: 'The gateway cannot tell yet (held for review or unreachable). Please look again later.',
  beingProcessed: 'This payment is still being processed. Please look again in a minute.',
  alreadySettled: 'Another staff member already settled this payment.',
} as const;

/** Dollars as staff type them ("150", "150.5", "1,250.00"), to cents; null when not a price. */
export function dollarsToCents(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole = '0', fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** The most a VIP price may be: a typo guard, far above any courier's charge. */
export const MAX_VIP_PRICE_CENTS = 1_000_000;

export const confirmVipPriceRequestSchema = z.object({
  amountCents: z
    .number({ error: queueMessages.amountRequired })
    .int(queueMessages.amountInvalid)
    .min(1, queueMessages.amountInvalid)
    .max(MAX_VIP_PRICE_CENTS, queueMessages.amountInvalid),
});
export type ConfirmVipPriceRequest = z.infer<typeof confirmVipPriceRequestSchema>;

export const trackingNumberSchema = singleLine(
  z
    .string({ error: queueMessages.trackingRequired })
    .trim()
    .min(1, queueMessages.trackingRequired)
    .max(40, queueMessages.trackingInvalid)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, queueMessages.trackingInvalid),
);
export const shipRequestSchema = z.object({ trackingNumber: trackingNumberSchema });
export type ShipRequest = z.infer<typeof shipRequestSchema>;

export const vialRequestIdParamsSchema = z.object({ id: z.uuid() });

/** One vial request in the staff queue: who, what, and where it stands. */
export const vialQueueItemSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  clientActId: z.string(),
  clientName: z.string(),
  status: z.enum(CELL_REQUEST_STATUSES),
  requestedAt: z.string(),
  vials: z.number().int(),
  shippingMethod: z.string(),
  shipmentDate: z.string(),
  shipTo: z.string(),
  paymentMethod: z.string(),
  paymentDescription: z.string(),
  totalCents: z.number().int(),
  shippingPriceToBeConfirmed: z.boolean(),
  approvedByPractitionerAt: z.string().nullable(),
  vipPriceConfirmedAt: z.string().nullable(),
  vipPriceCents: z.number().int().nullable(),
  vipTransactionId: z.string().nullable(),
  shippedAt: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type VialQueueItem = z.infer<typeof vialQueueItemSchema>;
export const vialQueueResponseSchema = z.object({ requests: z.array(vialQueueItemSchema) });
export const vialQueueActionResponseSchema = z.object({
  message: z.string(),
  request: vialQueueItemSchema,
});
export type VialQueueActionResponse = z.infer<typeof vialQueueActionResponseSchema>;

/** A ledger row whose outcome is unknown: in progress (nobody finished it) or errored. */
export const paymentInDoubtSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  clientActId: z.string(),
  clientName: z.string(),
  createdAt: z.string(),
  status: z.enum(['in_progress', 'error']),
  purpose: z.string(),
  source: z.string(),
  totalCents: z.number().int(),
  method: z.string(),
  reference: z.string().nullable(),
  message: z.string().nullable(),
});
export type PaymentInDoubt = z.infer<typeof paymentInDoubtSchema>;
export const paymentsInDoubtResponseSchema = z.object({ payments: z.array(paymentInDoubtSchema) });
export const paymentIdParamsSchema = z.object({ id: z.uuid() });
export const settlePaymentResponseSchema = z.object({
  outcome: z.enum(['paid', 'failed', 'in_doubt']),
  message: z.string(),
});
export type SettlePaymentResponse = z.infer<typeof settlePaymentResponseSchema>;
