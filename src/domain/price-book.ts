import { z } from 'zod';
import { isIsoDate } from './dates';
import type { Cents } from './money';
import { singleLine } from './text';

/**
 * The price book: the amounts of spec 3 section 9 and the fees of specs 1 and 2, in integer cents.
 * Staff (admins) keep it in versions, each with the date it takes effect; an order is priced by the
 * version in force when it is placed (the server looks that up; nothing prices from a constant).
 * The amounts below are the book as shipped: version 0, in force until an admin adds one.
 *
 * Two entries are rates, not amounts (`unit: 'percent'`, kept in basis points: 300 is 3.00%): the
 * card processing fee and FedEx's mark-up on its net charge. What stays fixed in code, being rules
 * rather than prices: ACT VIP shipping not charged with the order, 1 to 10 vials a request, the
 * serum's bulk price from 11 bottles.
 */
export const PRICE_ENTRIES = [
  { key: 'cardProcessingFee', group: 'Payments', label: 'Card processing fee', unit: 'percent' },
  { key: 'upFrontAdipose', group: 'Banking', label: 'Up-front banking fee, adipose tissue' },
  { key: 'upFrontBoneMarrow', group: 'Banking', label: 'Up-front banking fee, bone marrow' },
  { key: 'annualMaintenanceFee', group: 'Banking', label: 'Annual Maintenance Fee (ACH)' },
  { key: 'annualFeeCardOrCheck', group: 'Banking', label: 'Annual fee quoted for card or check' },
  { key: 'whiteGloveLabFee', group: 'Screening', label: 'White Glove Labs fee' },
  { key: 'vialPrice', group: 'Vial requests', label: 'Vial of 10 million cells' },
  { key: 'cppPerVial', group: 'Vial requests', label: 'Cell Protection Plan, per vial' },
  {
    key: 'fedexShippingMarkup',
    group: 'Vial requests',
    label: 'FedEx mark-up on its net charge',
    unit: 'percent',
  },
  { key: 'fedexShippingMinimum', group: 'Vial requests', label: 'FedEx shipping, least charged' },
  {
    key: 'vipPriceApproval',
    group: 'Vial requests',
    label: 'ACT VIP price a second admin approves above',
  },
  {
    key: 'vialReplacementFee',
    group: 'Vial requests',
    label: 'Replacement fee per paid vial, a late cancellation',
  },
  { key: 'refundApproval', group: 'Payments', label: 'Refund a second admin approves above' },
  { key: 'storageYearListPrice', group: 'Storage plans', label: 'A year of storage (list price)' },
  { key: 'storagePlan5Year', group: 'Storage plans', label: '5 Year Storage Plan' },
  { key: 'storagePlan10Year', group: 'Storage plans', label: '10 Year Storage Plan' },
  { key: 'storagePlan18Year', group: 'Storage plans', label: '18 Year Storage Plan' },
  { key: 'storagePlan25Year', group: 'Storage plans', label: '25 Year Storage Plan' },
  { key: 'bioInsuranceListPrice', group: 'Banking plans', label: 'Bio-Insurance vial (list price)' },
  { key: 'bioInsurance10to24', group: 'Banking plans', label: 'Bio-Insurance vial, 10 to 24 vials' },
  { key: 'bioInsurance25to49', group: 'Banking plans', label: 'Bio-Insurance vial, 25 to 49 vials' },
  { key: 'bioInsurance50to75', group: 'Banking plans', label: 'Bio-Insurance vial, 50 to 75 vials' },
  { key: 'longevity100', group: 'Banking plans', label: 'Longevity 100' },
  { key: 'longevity250', group: 'Banking plans', label: 'Longevity 250' },
  { key: 'longevity500', group: 'Banking plans', label: 'Longevity 500' },
  { key: 'serumPrice', group: 'Store', label: 'Stem Cell Face Serum, a bottle' },
  { key: 'serumBulkPrice', group: 'Store', label: 'Stem Cell Face Serum, a bottle from 11' },
  {
    key: 'newbornLateCharge',
    group: 'Newborn finance agreements',
    label: 'Late charge, a payment 30 days late',
  },
] as const;

export type PriceKey = (typeof PRICE_ENTRIES)[number]['key'];
export type PriceEntry = { key: PriceKey; group: string; label: string; unit?: 'percent' };
/** An entry's unit: integer cents, or basis points for a rate. */
export const isRate = (key: PriceKey) =>
  (PRICE_ENTRIES as readonly PriceEntry[]).some((entry) => entry.key === key && entry.unit === 'percent');
export type PriceAmounts = Record<PriceKey, Cents>;

export const PRICE_KEYS = PRICE_ENTRIES.map((entry) => entry.key) as [PriceKey, ...PriceKey[]];

/** The book as shipped (version 0). */
export const SHIPPED_PRICE_AMOUNTS: PriceAmounts = {
  cardProcessingFee: 300,
  upFrontAdipose: 250_000,
  upFrontBoneMarrow: 300_000,
  annualMaintenanceFee: 33_981,
  annualFeeCardOrCheck: 35_000,
  whiteGloveLabFee: 39_900,
  vialPrice: 50_000,
  cppPerVial: 2_500,
  fedexShippingMarkup: 2_000,
  fedexShippingMinimum: 5_000,
  vipPriceApproval: 100_000,
  vialReplacementFee: 25_000,
  refundApproval: 50_000,
  storageYearListPrice: 35_000,
  storagePlan5Year: 157_500,
  storagePlan10Year: 297_500,
  storagePlan18Year: 504_000,
  storagePlan25Year: 656_300,
  bioInsuranceListPrice: 50_000,
  bioInsurance10to24: 42_500,
  bioInsurance25to49: 40_000,
  bioInsurance50to75: 37_500,
  longevity100: 212_500,
  longevity250: 500_000,
  longevity500: 937_500,
  serumPrice: 22_500,
  serumBulkPrice: 20_000,
  newbornLateCharge: 5_000,
};

/**
 * Entries added to the book after versions were stored: a stored version without one reads the
 * amount as shipped.
 */
export const ENTRIES_ADDED_LATER: Partial<PriceAmounts> = {
  vipPriceApproval: SHIPPED_PRICE_AMOUNTS.vipPriceApproval,
  vialReplacementFee: SHIPPED_PRICE_AMOUNTS.vialReplacementFee,
  refundApproval: SHIPPED_PRICE_AMOUNTS.refundApproval,
  newbornLateCharge: SHIPPED_PRICE_AMOUNTS.newbornLateCharge,
};

/** The most an amount may be: $100,000 (a typing slip of a few zeros is refused, not charged). */
export const MAX_PRICE_CENTS = 10_000_000;
/** The most a rate may be: 100.00%. */
export const MAX_RATE_BASIS_POINTS = 10_000;

/** The fixed rules (see above). */
export const ACT_VIP_SHIPPING_CENTS: Cents = 0;
export const VIALS_PER_REQUEST = { min: 1, max: 10 } as const;
export const SERUM_BULK_FROM = 11;

/** A price's discount against a list price, in whole percent (never below 0; none without a list price). */
export function discountPercent(listCents: Cents, priceCents: Cents): number {
  if (listCents <= 0) return 0;
  return Math.max(0, Math.round(((listCents - priceCents) * 100) / listCents));
}

/** The book the pricing rules read, built from one version's amounts. */
export function priceBookOf(amounts: PriceAmounts) {
  const plan = <Id extends string>(id: Id, label: string, years: number, cents: Cents) => ({
    id,
    label,
    years,
    cents,
    // The prepaid discount: against paying the years at the list price of a year.
    discountPercent: discountPercent(years * amounts.storageYearListPrice, cents),
  });
  return {
    /** The card processing fee, in basis points of the amount (card payments only). */
    cardProcessingFeeBasisPoints: amounts.cardProcessingFee,
    /** FedEx shipping: the carrier's net charge plus this mark-up (basis points), never below the minimum. */
    fedexShippingMarkupBasisPoints: amounts.fedexShippingMarkup,
    annualMaintenanceFee: amounts.annualMaintenanceFee,
    /** The later yearly amount quoted for card or check payers (ACH pays the maintenance fee itself). */
    annualFeeCardOrCheck: amounts.annualFeeCardOrCheck,
    upFrontBankingFee: { adipose: amounts.upFrontAdipose, boneMarrow: amounts.upFrontBoneMarrow },
    whiteGloveLabFee: amounts.whiteGloveLabFee,
    /**
     * A vial of 10 million cells released to a clinic (the Stem Cell Request Form): the consent's
     * "retrieval fee per vial transfer" (spec 2 section 9) is this one price, not a second entry.
     */
    vialPrice: amounts.vialPrice,
    /** The cell protection plan, per vial shipped: replaces cells lost or delayed past 72 hours. */
    cppPerVial: amounts.cppPerVial,
    /** FedEx shipping: the carrier's net charge plus 20%, never below this. */
    fedexShippingMinimum: amounts.fedexShippingMinimum,
    /**
     * An ACT VIP price above this is charged only once a second admin, not the member who entered
     * it, approves it; at or below it, the member who confirms it charges it.
     */
    vipPriceApprovalCents: amounts.vipPriceApproval,
    /** Kept for each paid vial when a request is cancelled after the cutoff (spec 3's policy). */
    vialReplacementFeeCents: amounts.vialReplacementFee,
    /** A refund above this is sent only once a second admin approves it. */
    refundApprovalCents: amounts.refundApproval,
    /** The store's Stem Cell Face Serum: a bottle, and a bottle from 11 (DESIGN.md deviation 5). */
    serumPrice: amounts.serumPrice,
    serumBulkPrice: amounts.serumBulkPrice,
    /**
     * A newborn finance agreement's late charge (spec 3 section 9), once per installment 30 days
     * late: a term of the agreement, fixed on it when it is signed.
     */
    newbornLateChargeCents: amounts.newbornLateCharge,
    /** Banking and Storage Plans (spec 3 section 9): prepaid years of storage and their discounts. */
    annualStoragePlans: [
      plan('No Annual Storage', 'No Annual Storage', 0, 0),
      plan('5 Year', '5 Year Storage Plan', 5, amounts.storagePlan5Year),
      plan('10 Year', '10 Year Storage Plan', 10, amounts.storagePlan10Year),
      plan('18 Year', '18 Year Storage Plan', 18, amounts.storagePlan18Year),
      plan('25 Year', '25 Year Storage Plan', 25, amounts.storagePlan25Year),
    ],
    /** A year of storage renewed after the included first year: what the prepaid discounts apply to. */
    storageYearListPrice: amounts.storageYearListPrice,
    /** Bio-Insurance: any count from 10 to 75 vials (DESIGN.md deviation 9), in three tiers. */
    bioInsuranceTiers: [
      { from: 10, to: 24, perVialCents: amounts.bioInsurance10to24 },
      { from: 25, to: 49, perVialCents: amounts.bioInsurance25to49 },
      { from: 50, to: 75, perVialCents: amounts.bioInsurance50to75 },
    ],
    /** The list price a bio-insurance discount is shown against. */
    bioInsuranceListPrice: amounts.bioInsuranceListPrice,
    /** The Longevity plans: price, the cells the spec gives, and the longevity vials they add. */
    longevityPlans: [
      { name: 'Longevity 100' as const, vials: 10, cents: amounts.longevity100, cells: '10,000,000' },
      { name: 'Longevity 250' as const, vials: 25, cents: amounts.longevity250, cells: '25,000,000' },
      { name: 'Longevity 500' as const, vials: 50, cents: amounts.longevity500, cells: '50,000,000' },
    ],
  };
}

export type PriceBook = ReturnType<typeof priceBookOf>;

/** The book as shipped: the demo seed's fees, and the tests' expectations. Never what an order is priced by. */
export const SHIPPED_PRICE_BOOK: PriceBook = priceBookOf(SHIPPED_PRICE_AMOUNTS);

const priceCents = z
  .number({ message: 'Enter an amount' })
  .int('Enter whole cents')
  .min(0, 'An amount cannot be negative')
  .max(MAX_PRICE_CENTS, 'At most $100,000.00');
const rateBasisPoints = z
  .number({ message: 'Enter a rate' })
  .int('Enter a rate to the hundredth of a percent')
  .min(0, 'A rate cannot be negative')
  .max(MAX_RATE_BASIS_POINTS, 'At most 100%');

export const priceAmountsSchema = z.object(
  Object.fromEntries(PRICE_KEYS.map((key) => [key, isRate(key) ? rateBasisPoints : priceCents])) as Record<
    PriceKey,
    typeof priceCents
  >,
);

/** The version in force, as the portal's pages read it (GET /api/price_book). */
export const priceBookResponseSchema = z.object({
  /** 0: the book as shipped. */
  version: z.number().int().min(0),
  effectiveOn: z.string().nullable(),
  amounts: priceAmountsSchema,
});
export type PriceBookResponse = z.infer<typeof priceBookResponseSchema>;

export const PRICE_NOTE_MAX = 200;

export const priceVersionMessages = {
  effectiveOn: 'Enter the date the prices take effect',
  effectiveOnTyped: 'Enter the date as MM/DD/YYYY',
  notPast: 'The prices cannot take effect before today: an order already placed keeps its price',
  note: 'Say in a few words why the prices change',
  unchanged: 'These are the prices in force on that date already',
  notScheduled: 'Only a version that has not taken effect can be withdrawn',
  ownVersion:
    'A second admin approves a version that raises the ACT VIP approval limit, not the admin who added it',
  notAwaiting: 'Only a version awaiting approval can be approved',
  amountTyped: 'Enter an amount in dollars and cents, such as 500.00',
  rateTyped: 'Enter a percent to the hundredth, such as 3.00',
} as const;

/**
 * What is wrong with one entry as an admin typed it (dollars and cents, or a percent), or null with
 * its value in cents or basis points: the form's check, with the limits the server applies.
 */
export function priceEntryProblem(
  key: PriceKey,
  cents: number | null,
): { problem: string } | { value: number } {
  if (cents === null) {
    return { problem: isRate(key) ? priceVersionMessages.rateTyped : priceVersionMessages.amountTyped };
  }
  const checked = priceAmountsSchema.shape[key].safeParse(cents);
  return checked.success ? { value: checked.data } : { problem: checked.error.issues[0]?.message ?? '' };
}

export function createPriceVersionRequestSchema() {
  return z.object({
    effectiveOn: z.string().refine(isIsoDate, priceVersionMessages.effectiveOn),
    note: singleLine(z.string().trim().min(1, priceVersionMessages.note).max(PRICE_NOTE_MAX)),
    amounts: priceAmountsSchema,
  });
}

export const withdrawPriceVersionRequestSchema = z.object({ version: z.number().int().min(1) });
export const approvePriceVersionRequestSchema = withdrawPriceVersionRequestSchema;

export const priceVersionSchema = z.object({
  version: z.number().int().min(0),
  effectiveOn: z.string().nullable(),
  note: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string().nullable(),
  withdrawnAt: z.string().nullable(),
  /** The admin who approved a version raising the ACT VIP approval limit (null: none needed, or not yet). */
  approvedBy: z.string().nullable(),
  /**
   * In force now; scheduled (takes effect later); past (replaced); withdrawn before it took effect;
   * awaiting approval (it raises the ACT VIP approval limit: it counts once a second admin approves it).
   */
  state: z.enum(['in force', 'scheduled', 'past', 'withdrawn', 'awaiting approval']),
  amounts: priceAmountsSchema,
});
export type PriceVersion = z.infer<typeof priceVersionSchema>;

export const priceVersionsResponseSchema = z.object({
  today: z.string(),
  versions: z.array(priceVersionSchema),
});

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
