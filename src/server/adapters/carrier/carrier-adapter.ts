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

export interface CarrierAdapter {
  readonly name: 'offline' | 'fedex';
  validateAddress(address: CarrierAddress): Promise<AddressCheck>;
  quote(request: QuoteRequest): Promise<RateQuote>;
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
