import type { Cents } from './money';

/**
 * The constants of spec section 9 that the server prices from. Staff will be able to change
 * prices later; until then this is the seeded book the server computes from.
 */
export const priceBook = {
  annualMaintenanceFee: 33_981 satisfies Cents,
  /** The later yearly amount quoted for card or check payers (ACH pays the maintenance fee itself). */
  annualFeeCardOrCheck: 35_000 satisfies Cents,
  retrievalFeePerVial: 50_000 satisfies Cents,
  cardProcessingFeeBasisPoints: 300,
  upFrontBankingFee: { adipose: 250_000 satisfies Cents, boneMarrow: 300_000 satisfies Cents },
  whiteGloveLabFee: 39_900 satisfies Cents,
  /** A vial of 10 million cells released to a clinic (the Stem Cell Request Form). */
  vialPrice: 50_000 satisfies Cents,
  /** The cell protection plan, per vial shipped: replaces cells lost or delayed past 72 hours. */
  cppPerVial: 2_500 satisfies Cents,
  vialsPerRequest: { min: 1, max: 10 },
  /** FedEx shipping: the carrier's net charge plus 20%, never below $50. */
  fedexShippingMarkupBasisPoints: 12_000,
  fedexShippingMinimum: 5_000 satisfies Cents,
  /** ACT VIP courier: not charged with the order; staff confirm the price with the client later. */
  actVipShipping: 0 satisfies Cents,
} as const;

/**
 * What the bank ships to a clinic and from where (spec 3 section 3, Shipping quote request): one
 * package of PRIORITY_OVERNIGHT from the laboratory in Florida.
 */
export const vialShipment = {
  service: 'PRIORITY_OVERNIGHT',
  weightLb: 1.06,
  shipper: {
    company: 'ACT Stem Cell Bank Laboratory',
    streetLines: ['1501 Sawgrass Corporate Pkwy', 'Ste 100'],
    city: 'Sunrise',
    state: 'FL',
    zip: '33323',
    country: 'US',
  },
} as const;
