import { z } from 'zod';
import { vialShipment } from '../../../domain/price-book';
import type { CarrierEvent, ShipmentRequest, ShipmentResult, TrackResult } from './carrier-adapter';

/**
 * FedEx Ship API (`/ship/v1/shipments`) and Track API (`/track/v1/trackingnumbers`): the request
 * bodies the bank sends and the readings of FedEx's answers, kept apart from the transport (the
 * adapter's authenticated `call`).
 */

type Address = { streetLines: readonly string[]; city: string; state: string; zip: string; country: string };

const fedexAddress = (a: Address) => ({
  streetLines: a.streetLines,
  city: a.city,
  stateOrProvinceCode: a.state,
  postalCode: a.zip,
  countryCode: a.country,
});

/** The bank's one package type: PRIORITY_OVERNIGHT, from the laboratory, paid by the sender, a 4x6 PDF label. */
export function shipmentBody(accountNumber: string, request: ShipmentRequest, senderPhone: string) {
  const { shipper } = vialShipment;
  const to = request.recipient;
  return {
    labelResponseOptions: 'LABEL',
    accountNumber: { value: accountNumber },
    requestedShipment: {
      shipper: {
        contact: { companyName: shipper.company, phoneNumber: senderPhone },
        address: fedexAddress(shipper),
      },
      recipients: [
        {
          contact: {
            personName: to.contactName,
            companyName: to.company || undefined,
            phoneNumber: to.phone,
          },
          address: fedexAddress(to),
        },
      ],
      shipDatestamp: request.shipDate,
      serviceType: vialShipment.service,
      packagingType: 'YOUR_PACKAGING',
      pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
      shippingChargesPayment: { paymentType: 'SENDER' },
      labelSpecification: { imageType: 'PDF', labelStockType: 'PAPER_4X6' },
      requestedPackageLineItems: [
        {
          weight: { units: 'LB', value: vialShipment.weightLb },
          itemDescription: request.contents,
          customerReferences: [
            { customerReferenceType: 'CUSTOMER_REFERENCE', value: request.reference },
            ...(request.dryShipperId
              ? [{ customerReferenceType: 'P_O_NUMBER', value: request.dryShipperId }]
              : []),
          ],
        },
      ],
    },
  };
}

const shipAnswerSchema = z.object({
  output: z.object({
    transactionShipments: z
      .array(
        z.object({
          masterTrackingNumber: z.string().optional(),
          pieceResponses: z
            .array(
              z.object({
                trackingNumber: z.string().optional(),
                packageDocuments: z
                  .array(z.object({ encodedLabel: z.string().optional(), docType: z.string().optional() }))
                  .default([]),
              }),
            )
            .default([]),
        }),
      )
      .min(1),
  }),
});

const errorsSchema = z.object({
  errors: z.array(z.object({ code: z.string(), message: z.string().optional() })).min(1),
});

/** FedEx's answer to a shipment: the tracking number and the label, or why it refused. */
export function readShipAnswer(
  answer: { status: number; body: unknown } | { status: 'failed' },
): ShipmentResult {
  if (answer.status === 'failed' || answer.status >= 500 || answer.status === 429)
    return { outcome: 'unavailable' };
  if (answer.status >= 400) {
    const errors = errorsSchema.safeParse(answer.body);
    return errors.success
      ? {
          outcome: 'refused',
          message: errors.data.errors[0]?.message ?? errors.data.errors[0]?.code ?? 'Refused',
        }
      : { outcome: 'unavailable' };
  }
  const parsed = shipAnswerSchema.safeParse(answer.body);
  const shipment = parsed.success ? parsed.data.output.transactionShipments[0] : undefined;
  const piece = shipment?.pieceResponses[0];
  const trackingNumber = piece?.trackingNumber ?? shipment?.masterTrackingNumber;
  const label = piece?.packageDocuments.find((d) => d.encodedLabel)?.encodedLabel;
  if (!trackingNumber || !label) return { outcome: 'unavailable' };
  return { outcome: 'created', trackingNumber, labelPdf: Buffer.from(label, 'base64') };
}

export const trackBody = (trackingNumber: string) => ({
  includeDetailedScans: true,
  trackingInfo: [{ trackingNumberInfo: { trackingNumber } }],
});

const scanSchema = z.object({
  date: z.string(),
  eventType: z.string(),
  eventDescription: z.string().default(''),
  scanLocation: z
    .object({ city: z.string().optional(), stateOrProvinceCode: z.string().optional() })
    .loose()
    .default({}),
});

const trackAnswerSchema = z.object({
  output: z.object({
    completeTrackResults: z
      .array(
        z.object({
          trackResults: z
            .array(
              z.object({
                scanEvents: z.array(scanSchema).default([]),
                error: z.object({ code: z.string() }).optional(),
              }),
            )
            .min(1),
        }),
      )
      .min(1),
  }),
});

/** FedEx scan event types read as our statuses; "shipment information sent" (OC) is not a scan of the package. */
function statusOf(eventType: string): CarrierEvent['status'] | null {
  if (eventType === 'PU') return 'picked_up';
  if (eventType === 'OD') return 'out_for_delivery';
  if (eventType === 'DL') return 'delivered';
  if (eventType === 'OC') return null;
  return 'in_transit';
}

export function readTrackAnswer(
  answer: { status: number; body: unknown } | { status: 'failed' },
): TrackResult {
  if (answer.status === 'failed' || answer.status !== 200) return { outcome: 'unavailable' };
  const parsed = trackAnswerSchema.safeParse(answer.body);
  const result = parsed.success ? parsed.data.output.completeTrackResults[0]?.trackResults[0] : undefined;
  if (!result) return { outcome: 'unavailable' };
  if (result.error) return { outcome: 'unknown' };
  const events: CarrierEvent[] = [];
  for (const scan of result.scanEvents) {
    const status = statusOf(scan.eventType);
    const at = new Date(scan.date);
    if (!status || Number.isNaN(at.getTime())) continue;
    const { city, stateOrProvinceCode } = scan.scanLocation;
    events.push({
      at,
      status,
      place: [city, stateOrProvinceCode].filter(Boolean).join(', '),
      description: scan.eventDescription,
    });
  }
  return { outcome: 'tracked', events: events.sort((a, b) => a.at.getTime() - b.at.getTime()) };
}
