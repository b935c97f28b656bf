import { z } from 'zod';
import { CELL_REQUEST_STATUSES, cancellationViewSchema } from './cell-request-cancellation';
import { addDays, calendarDateToIso } from './dates';
import { formatUsd } from './money';
import { shippingViewSchema } from './shipment';
import { freeText, singleLine } from './text';

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
  cancelled: 'This request is cancelled.',
  requestCancelled: 'The request was cancelled.',
  priceConfirmed: 'The ACT VIP price was confirmed and charged.',
  priceAwaitsApproval:
    'The ACT VIP price of {amount} is above {limit}: it is charged once another admin approves it.',
  approvalNotAdmin: 'Only an admin can approve an ACT VIP price above the approval limit.',
  approvalOwnPrice:
    'You entered this ACT VIP price: an admin other than the one who entered it must approve it.',
  nothingToApprove: 'There is no ACT VIP price awaiting approval on this request.',
  approvalAmountChanged:
    'The ACT VIP price awaiting approval is no longer the one you saw. Please review it again.',
  shipped: 'The request was marked shipped.',
  tracked: 'Tracking was checked with the carrier.',
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

/** The approver names the amount they saw: an amount entered again since is not charged unseen. */
export const approveVipPriceRequestSchema = confirmVipPriceRequestSchema;

/** An ACT VIP price above the price book's approval limit, entered and not yet approved. */
export const vipPriceApprovalSchema = z.object({
  amountCents: z.number().int(),
  enteredBy: z.string(),
  enteredAt: z.string(),
  /** Whether the staff member viewing may approve it: an admin who did not enter it. */
  canApprove: z.boolean(),
});
export type VipPriceApproval = z.infer<typeof vipPriceApprovalSchema>;

export const trackingNumberSchema = singleLine(
  z
    .string({ error: queueMessages.trackingRequired })
    .trim()
    .min(1, queueMessages.trackingRequired)
    .max(40, queueMessages.trackingInvalid)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, queueMessages.trackingInvalid),
);
export const shipRequestSchema = z.object({
  trackingNumber: trackingNumberSchema,
  /** ACT VIP: the courier that took it (its reference is `trackingNumber`). */
  courier: singleLine(z.string().trim().max(60)).optional(),
});
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
  /** Requested vials covered by pre-paid vials: Bio-Insurance one for one, 10 Longevity vials a vial. */
  prePaidVials: z.number().int(),
  /** The pre-paid vials the request took, by kind: what a cancellation gives back. */
  bioInsuranceVialsUsed: z.number().int(),
  longevityVialsUsed: z.number().int(),
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
  vipPriceAwaitingApproval: vipPriceApprovalSchema.nullable(),
  cardFeeBasisPoints: z
    .number()
    .int()
    .describe('The card processing fee of the price book in force when the request was placed; 0 by ACH'),
  shippedAt: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** What cancelling now would refund, keep and forfeit, or why it cannot (shipped). */
  cancellation: cancellationViewSchema,
  shipping: shippingViewSchema,
  /** A label was made through the carrier: staff print it (GET .../label). */
  hasLabel: z.boolean(),
  /** The declared contents a new label suggests. */
  suggestedContents: z.string(),
  /** A physician's request: the end of the client's objection window (it ships only after), else null. */
  objectionDeadline: z.string().nullable(),
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

/**
 * Two work queues of the back office (issue 11): new samples paid by check (record the check, so
 * the client's initial processing is paid and their consent opens) and uploaded lab reports
 * (accept, or reject with a reason, which opens the client's screening form again).
 */
export const staffQueueMessages = {
  checkNumberRequired: 'Please enter check number',
  checkNumberInvalid: 'The check number is 1 to 15 digits.',
  checkAmountRequired: 'Please enter check amount',
  checkAmountInvalid: 'Please enter an amount in dollars and cents, such as 3000.00',
  checkAmountMismatch: (dueCents: number) => `The check must be for the amount due, ${formatUsd(dueCents)}.`,
  checkDateRequired: 'Please enter check date',
  checkDateInvalid: 'Please enter the date as MM/DD/YYYY',
  checkDateFuture: 'The check date cannot be in the future.',
  checkRecorded:
    'Check recorded. Initial processing is paid and the client can now sign the consent agreement.',
  checkAlreadyRecorded: (by: string, on: string) => `This check was already recorded by ${by} on ${on}.`,
  sampleGone: 'This sample is not waiting for a check any more.',
  reasonRequired: 'Please enter the reason',
  reasonTooLong: 'Please keep the reason under 1,000 characters',
  labReportAccepted: 'Lab report accepted.',
  labReportRejected: "Lab report rejected. The client's screening form is open again.",
  labReportAlreadyReviewed: (outcome: 'accepted' | 'rejected', by: string, on: string) =>
    `This lab report was already ${outcome} by ${by} on ${on}.`,
  noSamples: 'No new samples are waiting for a check.',
  noLabReports: 'No lab reports are waiting for review.',
} as const;

const m = staffQueueMessages;

/** Dollars and cents as typed ("3000", "3,000.00", "$3000.5") in cents; null when it is not one. */
export function amountToCents(value: string): number | null {
  const trimmed = value.trim().replace(/^\$/, '');
  if (!/^(\d{1,3}(,\d{3})+|\d{1,9})(\.\d{1,2})?$/.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.replace(/,/g, '').split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export interface CheckEntry {
  checkNumber: string;
  checkAmount: string;
  checkDate: string;
}

/**
 * What is wrong with a check as typed, by field (empty when nothing): a number of 1 to 15 digits,
 * the amount due exactly, a real date not after today (the bank's). Shared by the form and the server.
 */
export function checkEntryProblems(
  entry: CheckEntry,
  context: { dueCents: number; today: string },
): Partial<Record<keyof CheckEntry, string>> {
  const problems: Partial<Record<keyof CheckEntry, string>> = {};
  const number = entry.checkNumber.trim();
  if (!number) problems.checkNumber = m.checkNumberRequired;
  else if (!/^\d{1,15}$/.test(number)) problems.checkNumber = m.checkNumberInvalid;
  const amount = entry.checkAmount.trim();
  const cents = amountToCents(amount);
  if (!amount) problems.checkAmount = m.checkAmountRequired;
  else if (cents === null) problems.checkAmount = m.checkAmountInvalid;
  else if (cents !== context.dueCents) problems.checkAmount = m.checkAmountMismatch(context.dueCents);
  const date = entry.checkDate.trim();
  const iso = calendarDateToIso(date);
  if (!date) problems.checkDate = m.checkDateRequired;
  else if (!iso || Number(iso.slice(0, 4)) < 2000) problems.checkDate = m.checkDateInvalid;
  // A day of slack: the bank's calendar is New York's, and a staff member may be ahead of it.
  else if (iso > addDays(context.today, 1)) problems.checkDate = m.checkDateFuture;
  return problems;
}

export const sampleAwaitingCheckSchema = z.object({
  sampleId: z.uuid(),
  clientId: z.uuid().describe("The client's record id (for the client page)"),
  clientActId: z.string(),
  clientName: z.string(),
  physicianName: z.string(),
  tissue: z.string(),
  shipDate: z.string().describe('MM/DD/YYYY'),
  submittedAt: z.string().describe('ISO instant the physician sent the form'),
  amountDueCents: z.number().int(),
  billingName: z.string().nullable(),
  billingEmail: z.string().nullable(),
});
export type SampleAwaitingCheck = z.infer<typeof sampleAwaitingCheckSchema>;

export const sampleChecksResponseSchema = z.object({ samples: z.array(sampleAwaitingCheckSchema) });

const entryText = (max: number) => singleLine(z.string().max(max));

/** A check as typed on any check queue's form (checkEntryProblems judges it). */
export const checkEntryFields = {
  checkNumber: entryText(40),
  checkAmount: entryText(40),
  checkDate: entryText(40),
};

/** A check as recorded, in every check queue's answer. */
export const recordedCheckFields = {
  checkNumber: z.string(),
  checkAmountCents: z.number().int(),
  checkDate: z.string().describe('YYYY-MM-DD'),
  recordedAt: z.string(),
};

export const recordCheckRequestSchema = z.object({ sampleId: z.uuid(), ...checkEntryFields });
export type RecordCheckRequest = z.infer<typeof recordCheckRequestSchema>;

export const recordCheckResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  sampleId: z.uuid(),
  clientActId: z.string(),
  ...recordedCheckFields,
});
export type RecordCheckResponse = z.infer<typeof recordCheckResponseSchema>;

export const labReportAwaitingSchema = z.object({
  submissionId: z.uuid(),
  clientId: z.uuid(),
  clientActId: z.string(),
  clientName: z.string(),
  submittedAt: z.string().describe('ISO instant of the upload'),
  submittedBy: z.string().describe('"Client" or the physician who submitted it'),
  documentId: z.uuid().describe('The lab report PDF (GET /api/staff/documents/{id})'),
  fileName: z.string(),
  sizeBytes: z.number().int(),
});
export type LabReportAwaiting = z.infer<typeof labReportAwaitingSchema>;

export const labReportsResponseSchema = z.object({ reports: z.array(labReportAwaitingSchema) });

export const acceptLabReportRequestSchema = z.object({ submissionId: z.uuid() });

export const rejectLabReportRequestSchema = z.object({
  submissionId: z.uuid(),
  reason: freeText(
    z.string({ error: m.reasonRequired }).trim().min(1, m.reasonRequired).max(1000, m.reasonTooLong),
  ),
});
export type RejectLabReportRequest = z.infer<typeof rejectLabReportRequestSchema>;

export const reviewLabReportResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  submissionId: z.uuid(),
  outcome: z.enum(['accepted', 'rejected']),
  reviewedAt: z.string(),
});
export type ReviewLabReportResponse = z.infer<typeof reviewLabReportResponseSchema>;

/**
 * Two more work queues (issue 11): Banking and Storage Plans orders paid by check (record the
 * check: the plan is applied as a paid order would be) and store orders (mark shipped with the
 * carrier's tracking number, then delivered; the client is e-mailed each time).
 */
export const planStoreQueueMessages = {
  planCheckRecorded: 'Check recorded. The plan is applied and the client was e-mailed.',
  planOrderGone: 'This order is not waiting for a check any more.',
  noPlanOrders: 'No Banking and Storage Plans orders are waiting for a check.',
  noStoreOrders: 'No store orders are waiting to ship or to be delivered.',
  storeShipped: 'The order was marked shipped and the client was e-mailed.',
  storeDelivered: 'The order was marked delivered and the client was e-mailed.',
  storeLabelCreated: 'The label was created, the order marked shipped and the client e-mailed.',
  storeLabelUnderWay: 'Another label is being made for this order.',
  storeLabelShipped: 'This order is already shipped.',
  storeLabelCancelled: 'This order is cancelled: it does not ship.',
  storeNotTracked: 'This order has no carrier label to track.',
  storeCountryUnknown:
    "FedEx needs the country as its two-letter code (US, CA, GB…): ship this order by hand with the carrier's tracking number.",
  storeAlreadyShipped: (by: string, on: string) => `This order was already marked shipped by ${by} on ${on}.`,
  storeAlreadyDelivered: (by: string, on: string) =>
    `This order was already marked delivered by ${by} on ${on}.`,
  storeNotShipped: 'The order has not been marked shipped yet.',
  storeCancelled: 'The order was cancelled, its refund sent and the client e-mailed.',
} as const;

export const planOrderAwaitingCheckSchema = z.object({
  orderId: z.uuid(),
  clientId: z.uuid(),
  clientActId: z.string(),
  clientName: z.string(),
  plans: z.string().describe('"5 Year Storage Plan + Bio-Insurance 25 Vials"'),
  orderedAt: z.string().describe('ISO instant the client placed the order'),
  amountDueCents: z.number().int(),
  paidUntil: z.string().nullable().describe("The client's storage paid-until date now (YYYY-MM-DD)"),
});
export type PlanOrderAwaitingCheck = z.infer<typeof planOrderAwaitingCheckSchema>;
export const planChecksResponseSchema = z.object({ orders: z.array(planOrderAwaitingCheckSchema) });

export const recordPlanCheckRequestSchema = z.object({ orderId: z.uuid(), ...checkEntryFields });
export type RecordPlanCheckRequest = z.infer<typeof recordPlanCheckRequestSchema>;

export const recordPlanCheckResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  orderId: z.uuid(),
  clientActId: z.string(),
  ...recordedCheckFields,
  paidUntil: z.string().nullable().describe('The storage paid-until date after the plan (YYYY-MM-DD)'),
});
export type RecordPlanCheckResponse = z.infer<typeof recordPlanCheckResponseSchema>;

export const storeQueueItemSchema = z.object({
  id: z.uuid(),
  clientId: z.uuid(),
  clientActId: z.string(),
  clientName: z.string(),
  status: z.enum(['ordered', 'shipped', 'delivered', 'cancelled']),
  orderedAt: z.string(),
  item: z.string(),
  quantity: z.number().int(),
  shippingMethod: z.string(),
  shipmentDate: z.string().describe('YYYY-MM-DD'),
  shipTo: z.string(),
  totalCents: z.number().int(),
  shippedAt: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  /** A label made by the carrier: printable, and tracked until delivered. */
  hasLabel: z.boolean(),
  /** What the package declares unless staff change it. */
  suggestedContents: z.string(),
  deliveredAt: z.string().nullable(),
});
export type StoreQueueItem = z.infer<typeof storeQueueItemSchema>;
export const storeQueueResponseSchema = z.object({ orders: z.array(storeQueueItemSchema) });
export const storeOrderIdParamsSchema = z.object({ id: z.uuid() });
export const storeQueueActionResponseSchema = z.object({ message: z.string(), order: storeQueueItemSchema });
export type StoreQueueActionResponse = z.infer<typeof storeQueueActionResponseSchema>;
