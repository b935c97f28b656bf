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
  /** The store's Stem Cell Face Serum: $225 a bottle, $200 a bottle from 11 (DESIGN.md deviation 5). */
  serumPrice: 22_500 satisfies Cents,
  serumBulkPrice: 20_000 satisfies Cents,
  serumBulkFrom: 11,
  /** Banking and Storage Plans (spec 3 section 9): prepaid years of storage and their discounts. */
  annualStoragePlans: [
    { id: 'No Annual Storage', label: 'No Annual Storage', years: 0, cents: 0, discountPercent: 0 },
    { id: '5 Year', label: '5 Year Storage Plan', years: 5, cents: 157_500, discountPercent: 10 },
    { id: '10 Year', label: '10 Year Storage Plan', years: 10, cents: 297_500, discountPercent: 15 },
    { id: '18 Year', label: '18 Year Storage Plan', years: 18, cents: 504_000, discountPercent: 20 },
    { id: '25 Year', label: '25 Year Storage Plan', years: 25, cents: 656_300, discountPercent: 25 },
  ],
  /** A year of storage renewed after the included first year: what the prepaid discounts apply to. */
  storageYearListPrice: 35_000 satisfies Cents,
  /** Bio-Insurance: any count from 10 to 75 vials (DESIGN.md deviation 9), in three tiers. */
  bioInsuranceTiers: [
    { from: 10, to: 24, perVialCents: 42_500 },
    { from: 25, to: 49, perVialCents: 40_000 },
    { from: 50, to: 75, perVialCents: 37_500 },
  ],
  /** The list price a bio-insurance discount is shown against. */
  bioInsuranceListPrice: 50_000 satisfies Cents,
  /** The Longevity plans: price, the cells the spec gives, and the longevity vials they add. */
  longevityPlans: [
    { name: 'Longevity 100', vials: 10, cents: 212_500, cells: '10,000,000' },
    { name: 'Longevity 250', vials: 25, cents: 500_000, cells: '25,000,000' },
    { name: 'Longevity 500', vials: 50, cents: 937_500, cells: '50,000,000' },
  ],
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
