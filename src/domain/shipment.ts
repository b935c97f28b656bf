import { z } from 'zod';
import { vialsText } from './cell-request-cancellation';
import { singleLine } from './text';
import { isUnitedStates } from './us-contact';

/**
 * Shipping a vial request (issue 22): a FedEx label made by the carrier, its tracking events as
 * they come, and the clinic's confirmation that the cells arrived frozen. An ACT VIP request has no
 * carrier label: staff record the courier and its reference when it leaves.
 */

export const TRACKING_STATUSES = ['picked_up', 'in_transit', 'out_for_delivery', 'delivered'] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export const trackingStatusLabels: Record<TrackingStatus, string> = {
  picked_up: 'Picked up',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
};

export const shipmentMessages = {
  dryShipperRequired: "Please enter the dry shipper's id",
  dryShipperInvalid: "The dry shipper's id has letters, digits and dashes only (up to 30)",
  contentsRequired: 'Please enter the declared contents',
  courierRequired: 'Please enter the courier',
  referenceRequired: "Please enter the courier's reference",
  notApproved: 'The practitioner has not approved this request yet: it cannot ship.',
  vipPriceNotConfirmed: 'The ACT VIP price is not confirmed yet: the request cannot ship.',
  notFedEx: 'Only a FedEx request gets a carrier label; record the ACT VIP courier instead.',
  notVip: 'A FedEx request ships with a label: create its label instead.',
  carrierUnavailable: 'FedEx could not be reached. Nothing was shipped; please try again in a few minutes.',
  alreadyShipped: 'This request is already shipped.',
  labelUnderWay: 'Another label is being made for this request.',
  labelBeingMade:
    'A shipping label is being made for this order right now, so it may be leaving: please try again in a minute.',
  labelCreated: 'The label was created and the request marked shipped.',
  courierRecorded: 'The courier was recorded and the request marked shipped.',
  confirmSubject: 'Please confirm the stem cells arrived frozen',
  confirmThanks: 'Thank you: your answer was recorded.',
  confirmInvalid: 'This confirmation link is not valid or has expired.',
  confirmNoteRequired: 'Please say what was wrong with the delivery',
} as const;

/** How a shipment left, after its date: by a courier and its reference, or the carrier's tracking number. */
export function shippedBy(shipment: {
  courier: string | null | undefined;
  trackingNumber: string | null;
}): string {
  if (shipment.courier) return `, ${shipment.courier}, reference ${shipment.trackingNumber}`;
  return shipment.trackingNumber ? `, tracking number ${shipment.trackingNumber}` : '';
}

/** What the package declares, by default: staff may change it. */
export function defaultDeclaredContents(vials: number): string {
  return `Cryopreserved human cells, ${vialsText(vials)}, in a liquid nitrogen dry shipper`;
}

const dryShipperId = singleLine(z.string().trim())
  .pipe(z.string().min(1, shipmentMessages.dryShipperRequired))
  .pipe(z.string().regex(/^[A-Za-z0-9-]{1,30}$/, shipmentMessages.dryShipperInvalid));

export const createLabelSchema = z.object({
  dryShipperId,
  contents: singleLine(z.string().trim().max(120)).pipe(z.string().min(1, shipmentMessages.contentsRequired)),
});
export type CreateLabel = z.infer<typeof createLabelSchema>;

/** A store order's label: its declared contents (no dry shipper: serum travels at room temperature). */
export const createStoreLabelSchema = createLabelSchema.pick({ contents: true });
export type CreateStoreLabel = z.infer<typeof createStoreLabelSchema>;

/** What a store order's package declares, by default. */
export function defaultStoreContents(quantity: number, item: string): string {
  return `${item}, ${quantity} ${quantity === 1 ? 'bottle' : 'bottles'}`;
}

/**
 * A country as the carrier reads it (ISO 3166 alpha-2), from what was typed on the store's
 * free-text Country field: the ways people write the United States, or a two-letter code.
 * Anything else is null: staff ship it by hand.
 */
export function carrierCountryCode(country: string): string | null {
  if (isUnitedStates(country)) return 'US';
  const plain = country.trim().replace(/\./g, '').toUpperCase();
  return /^[A-Z]{2}$/.test(plain) ? plain : null;
}

export const recordCourierSchema = z.object({
  courier: singleLine(z.string().trim().max(60)).pipe(z.string().min(1, shipmentMessages.courierRequired)),
  reference: singleLine(z.string().trim().max(60)).pipe(
    z.string().min(1, shipmentMessages.referenceRequired),
  ),
});
export type RecordCourier = z.infer<typeof recordCourierSchema>;

export const trackingEventSchema = z.object({
  at: z.string(),
  status: z.enum(TRACKING_STATUSES),
  place: z.string(),
  description: z.string(),
});
export type TrackingEvent = z.infer<typeof trackingEventSchema>;

/** The clinic's answer on the link e-mailed at delivery. */
export const deliveryConfirmationSchema = z.object({
  token: z.string().min(1).max(400),
  arrivedFrozen: z.boolean(),
  note: singleLine(z.string().trim().max(500)).default(''),
});
export type DeliveryConfirmation = z.infer<typeof deliveryConfirmationSchema>;

/** A request's shipping as its timeline shows it: the carrier's scans and the clinic's answer. */
export const shippingViewSchema = z.object({
  carrier: z.enum(['offline', 'fedex']).nullable(),
  courier: z.string().nullable(),
  scans: z.array(trackingEventSchema.extend({ label: z.string() })),
  deliveryConfirmation: z.object({ at: z.string(), arrivedFrozen: z.boolean(), note: z.string() }).nullable(),
});
export type ShippingView = z.infer<typeof shippingViewSchema>;

export const deliveryLinkViewSchema = z.object({
  reference: z.string(),
  clinicName: z.string(),
  vials: z.number().int(),
  deliveredOn: z.string(),
  answer: z.object({ arrivedFrozen: z.boolean(), note: z.string() }).nullable(),
});
export type DeliveryLinkView = z.infer<typeof deliveryLinkViewSchema>;
