import { z } from 'zod';
import { SHIPPING_METHODS, type ShippingMethod, shipmentDateMessages } from './carrier-calendar';
import { addDays, isIsoDate } from './dates';
import { VIALS_PER_REQUEST } from './price-book';
import { singleLine } from './text';
import { isUnitedStates } from './us-contact';
import { optionalUsPhoneField, requiredLine, shipmentDateField, stateCodeField } from './us-contact-fields';

/**
 * The contracts of the Stem Cell Request Form's shipping calls (spec 3 sections 3, 7 and 8):
 * address verification, the FedEx quote and shipping amount, the client's pre-paid vials and the
 * shipment dates the server accepts. Field names are the spec's.
 */

export const shippingMessages = {
  country: 'Please enter Country',
  state: 'Please enter State',
  stateFormat: 'Please enter the two-letter state abbreviation',
  zipCode: 'Please enter Zip Code',
  city: 'Please enter City',
  street: 'Please enter Street',
  phoneNumeric: 'Please insert only number',
  shippingMethod: 'Please select shipping method',
  dose: 'Please Select Dose',
  addressVerified: 'Address Successfully Verified',
  addressSuggested: 'FedEx suggests a standardized address. Please accept or bypass the suggestion.',
  // The spec's "processing the label" speaks of the shipping label a client never sees (issue 24).
  addressFailed:
    'FedEx could not verify this address. Please check the street, city, state and ZIP code, and try again.',
  addressUnavailable:
    'FedEx address verification is not available right now. Please try again in a few minutes, or bypass the verification.',
  quoteFailed:
    'FedEx could not give a shipping price for this address. Please choose a different address or ACT VIP service to proceed with the order.',
  shippingAmountFailed: 'Please enter valid shipping info',
  // The shipping quote's two answers (spec 3): details missing, or a method it cannot quote.
  quoteDetailsMissing: 'Please enter shipping details',
  quoteInvalid: 'Please select valid shipping info',
  fedexDomesticOnly:
    'FedEx delivers in the United States only. Please choose ACT VIP service for an address outside the United States.',
  actVipArea: 'ACT VIP service delivers in the USA and Canada only.',
  dateRange: 'Please choose a range of at most 366 days, the start on or before the end.',
} as const;

const m = shippingMessages;

/** Canada by the names people type; the bank ships there by ACT VIP only (FedEx: the US only). */
const CANADA = new Set(['ca', 'can', 'canada']);

export type ShippingCountry = 'US' | 'CA';

/** The ISO code of a country as typed, for the countries the bank ships to; null otherwise. */
export function shippingCountryCode(country: string): ShippingCountry | null {
  if (isUnitedStates(country)) return 'US';
  return CANADA.has(country.trim().replace(/\s+/g, ' ').toLowerCase()) ? 'CA' : null;
}

/** Why a shipping method cannot deliver to this country, or null when it can. */
export function shippingAreaProblem(method: ShippingMethod, country: string): string | null {
  const code = shippingCountryCode(country);
  if (method === 'FedEx') return code === 'US' ? null : m.fedexDomesticOnly;
  return code === null ? m.actVipArea : null;
}

function optionalText(max: number) {
  return singleLine(z.string().trim().max(max, `Must be at most ${max} characters`)).optional();
}

/** A recipient address as the form sends it (spec 3 section 7: Country, Street, City, State, ZipCode, Phone). */
export const shippingAddressFields = {
  Country: requiredLine(m.country, 80),
  Street: requiredLine(m.street, 200),
  City: requiredLine(m.city, 80),
  State: stateCodeField({ required: m.state, format: m.stateFormat }),
  // Not the US ZIP rule: ACT VIP ships to Canada too, whose postal codes have letters.
  ZipCode: requiredLine(m.zipCode, 10),
  Phone: optionalUsPhoneField({ required: m.phoneNumeric, numeric: m.phoneNumeric }).optional(),
  firstName: optionalText(80),
  lastName: optionalText(80),
};

export const verifyAddressRequestSchema = z.object(shippingAddressFields);
export type VerifyAddressRequest = z.infer<typeof verifyAddressRequestSchema>;

export const shippingQuoteRequestSchema = z.object({
  shipping_method: z.enum(SHIPPING_METHODS, { error: m.shippingMethod }).default('FedEx'),
  ...shippingAddressFields,
  ShipmentDate: shipmentDateField().optional(),
});
export type ShippingQuoteRequest = z.infer<typeof shippingQuoteRequestSchema>;

/** The shipping amount of a quote, in the spec's names; FedEx's own net charge beside it. */
export const shippingAmountResponseSchema = z.object({
  shipping_method: z.enum(SHIPPING_METHODS),
  /** What the order charges for shipping, in dollars (ACT VIP: 0, confirmed later by staff). */
  ShippingFeeCharged: z.number(),
  ShippingFeeChargedCents: z.number().int(),
  /** The legacy get_shipping_amount text, '{number} {unit}'. */
  totalCharge: z.string(),
  /** FedEx's net charge in dollars, before the bank's markup; null for ACT VIP. */
  totalNetCharge: z.number().nullable(),
  /** ACT VIP: the price is confirmed later by staff and not charged with the order. */
  priceConfirmedLater: z.boolean(),
});
export type ShippingAmountResponse = z.infer<typeof shippingAmountResponseSchema>;

/** One address as FedEx resolves it (spec 3 section 7: output.resolvedAddresses). */
export const resolvedAddressSchema = z.object({
  streetLinesToken: z.array(z.string()),
  city: z.string(),
  stateOrProvinceCode: z.string(),
  countryCode: z.string(),
  postalCode: z.string(),
});
export type ResolvedAddress = z.infer<typeof resolvedAddressSchema>;

export const verifyAddressResponseSchema = z.object({
  /** 'Address Successfully Verified', or the suggestion to accept or bypass. */
  message: z.string(),
  /** True: the address is FedEx's own; false: FedEx suggests the address in `output`. */
  AddressFedExVerified: z.boolean(),
  output: z.object({ resolvedAddresses: z.array(resolvedAddressSchema) }),
});
export type VerifyAddressResponse = z.infer<typeof verifyAddressResponseSchema>;

const { min: MIN_VIALS, max: MAX_VIALS } = VIALS_PER_REQUEST;

export const clientVialsRequestSchema = z.object({
  NumberOfVials: z.number({ error: m.dose }).int(m.dose).min(MIN_VIALS, m.dose).max(MAX_VIALS, m.dose),
  Client_id: singleLine(z.string().trim().max(64)).optional(),
});
export type ClientVialsRequest = z.infer<typeof clientVialsRequestSchema>;

export const clientVialsResponseSchema = z.object({
  /** What the vials not covered by pre-paid vials cost, in dollars (AmountForDoseCharged). */
  PayableAmount: z.number(),
  PayableAmountCents: z.number().int(),
  /**
   * Requested vials (10 million cells each) the client's pre-paid vials cover: Bio-Insurance vials
   * one for one first, then 10 Longevity vials a vial (vial-request-price.ts prePaidVialUse).
   */
  PrePaidVials: z.number().int(),
  /** Bio-Insurance vials this release takes (10 million cells each). */
  BioInsuranceVialsUsed: z.number().int(),
  /** Longevity vials this release takes (1 million cells each): 10 per vial they cover. */
  LongevityVialsUsed: z.number().int(),
  /** Requested vials charged at the vial price: NumberOfVials - PrePaidVials. */
  PayableVials: z.number().int(),
  /** The first date this release may arrive (YYYY-MM-DD), before the carrier's calendar. */
  EarliestShipmentDate: z.string(),
});
export type ClientVialsResponse = z.infer<typeof clientVialsResponseSchema>;

/** The most days one shipment-dates answer covers. */
export const MAX_SHIPMENT_DATE_RANGE_DAYS = 366;

export const SHIPMENT_DATE_PURPOSES = ['vialRequest', 'store'] as const;

const isoDateParam = z.string().max(10).refine(isIsoDate, shipmentDateMessages.invalid);

export const shipmentDatesQuerySchema = z
  .object({
    from: isoDateParam,
    to: isoDateParam,
    method: z.enum(SHIPPING_METHODS, { error: m.shippingMethod }).default('FedEx'),
    purpose: z.enum(SHIPMENT_DATE_PURPOSES).default('vialRequest'),
    /** A vial request's number of vials: with pre-paid bio-insurance vials covering them, it ships sooner. */
    NumberOfVials: z.coerce.number().int().min(MIN_VIALS, m.dose).max(MAX_VIALS, m.dose).optional(),
    Client_id: singleLine(z.string().trim().max(64)).optional(),
  })
  // Runs even when a date failed above: a date that is not one is left to its own message.
  .refine(
    (q) =>
      !isIsoDate(q.from) ||
      !isIsoDate(q.to) ||
      (q.from <= q.to && q.to <= addDays(q.from, MAX_SHIPMENT_DATE_RANGE_DAYS - 1)),
    {
      message: m.dateRange,
      path: ['to'],
    },
  );
export type ShipmentDatesQuery = z.infer<typeof shipmentDatesQuerySchema>;

export const shipmentDatesResponseSchema = z.object({
  method: z.enum(SHIPPING_METHODS),
  /** The first date allowed before the carrier's calendar (YYYY-MM-DD). */
  earliest: z.string(),
  /** Every date of the range the server would accept (YYYY-MM-DD). */
  dates: z.array(z.string()),
  /**
   * The staff blackout dates of the range (FedEx; none for ACT VIP), so a page checks a typed date
   * by the same rule as the server (`storeShipmentDateProblem`, `shipmentDateProblem`).
   */
  blackoutDates: z.array(z.string()),
});
export type ShipmentDatesResponse = z.infer<typeof shipmentDatesResponseSchema>;

/**
 * The date FedEx is asked to rate: the day before the arrival date (PRIORITY_OVERNIGHT), when that
 * is between today and the 10 days ahead FedEx rates; otherwise none (today's rate).
 */
export function rateShipDate(arrival: string | undefined, today: string): string | undefined {
  if (arrival === undefined) return undefined;
  const shipDate = addDays(arrival, -1);
  return shipDate >= today && shipDate <= addDays(today, 10) ? shipDate : undefined;
}
