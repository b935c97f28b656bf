import type { TrackingStatus } from '../../../domain/shipment';

/**
 * The carrier port (DESIGN.md section 6): address validation, which may suggest FedEx's
 * standardised form of an address for the Accept/Bypass modal, and a rate quote for the bank's one
 * package (PRIORITY_OVERNIGHT, 1.06 lb, from the laboratory in Florida). Outcomes are values, not
 * exceptions: a carrier that cannot be reached answers `unavailable`. Amounts are integer cents.
 */

/** A US address as the carrier reads it; `country` is the ISO code. */
export interface CarrierAddress {
  streetLines: string[];
  city: string;
  state: string;
  /** ZIP or ZIP+4 (`33134` or `33134-1203`). */
  zip: string;
  country: string;
}

/**
 * `verified`: the address is the carrier's own, as `address` gives it; `suggested`: the carrier
 * knows the address in another form (`suggestion`), which the client accepts or bypasses;
 * `invalid`: the carrier cannot deliver to it; `unavailable`: the carrier could not be asked.
 */
export type AddressCheck =
  | { outcome: 'verified'; address: CarrierAddress }
  | { outcome: 'suggested'; suggestion: CarrierAddress }
  | { outcome: 'invalid' }
  | { outcome: 'unavailable' };

export interface QuoteRequest {
  recipient: CarrierAddress;
  /** The day the package leaves (`YYYY-MM-DD`); absent: today's rate. */
  shipDate?: string;
}

export type RateQuote = { outcome: 'quoted'; netChargeCents: number } | { outcome: 'unavailable' };

/** One package from the bank's fixed sender (PRIORITY_OVERNIGHT): vials to a clinic, or a store order. */
export interface ShipmentRequest {
  /** Our reference (the request's), printed on the label and sent as the customer reference. */
  reference: string;
  recipient: CarrierAddress & { contactName: string; company: string; phone: string };
  /** The day it leaves, `YYYY-MM-DD`. */
  shipDate: string;
  /** The package's declared contents and, for vials, the dry shipper's id, both entered by staff. */
  contents: string;
  dryShipperId?: string;
}

export type ShipmentResult =
  | { outcome: 'created'; trackingNumber: string; labelPdf: Buffer }
  | { outcome: 'refused'; message: string }
  | { outcome: 'unavailable' };

/** A carrier scan: when, where and what, in the carrier's words mapped to our four statuses. */
export interface CarrierEvent {
  at: Date;
  status: TrackingStatus;
  place: string;
  description: string;
}

export type TrackResult =
  | { outcome: 'tracked'; events: CarrierEvent[] }
  | { outcome: 'unknown' }
  | { outcome: 'unavailable' };

export interface CarrierAdapter {
  readonly name: 'offline' | 'fedex';
  validateAddress(address: CarrierAddress): Promise<AddressCheck>;
  quote(request: QuoteRequest): Promise<RateQuote>;
  /** Creates the shipment: its tracking number and the label to print. */
  createShipment(request: ShipmentRequest): Promise<ShipmentResult>;
  /** The events of a shipment so far (`shippedAt`: when the label was made, for the offline carrier's clock). */
  track(request: {
    trackingNumber: string;
    shippedAt: Date;
    now: Date;
    /** Where it goes, for the offline carrier's scans' place names. */
    destination?: { city: string; state: string };
  }): Promise<TrackResult>;
}

/**
 * Whether the carrier's form of an address says what the client typed, whatever the case, spacing
 * and punctuation. A 5-digit ZIP matches the carrier's ZIP+4 with the same first five digits.
 */
export function matchesInput(input: CarrierAddress, standardized: CarrierAddress): boolean {
  const text = (value: string) => value.toUpperCase().replace(/[.,]/g, '').replace(/\s+/g, ' ').trim();
  const zipMatches =
    input.zip === standardized.zip ||
    (/^\d{5}$/.test(input.zip) && standardized.zip.slice(0, 5) === input.zip);
  return (
    zipMatches &&
    text(input.streetLines.join(' ')) === text(standardized.streetLines.join(' ')) &&
    text(input.city) === text(standardized.city) &&
    text(input.state) === text(standardized.state) &&
    text(input.country) === text(standardized.country)
  );
}
