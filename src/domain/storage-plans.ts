import { z } from 'zod';
import { TISSUE_TYPES } from './cell-request';
import { addYears } from './dates';
import {
  acceptingSpecCardFieldNames,
  everyFieldAtOnce,
  formPaymentFields,
  shownTotalFields,
} from './form-payment';
import type { Cents } from './money';
import { cardProcessingFee, chargedOrderFields, type PaymentMethodType } from './payments';
import { discountPercent, type PriceBook, SHIPPED_PRICE_BOOK } from './price-book';
import { singleLine } from './text';

/**
 * Banking and Storage Plans (spec 3 sections 2, 4, 5 and 9): an annual storage plan paid years
 * ahead at a prepaid discount, and a Bio-Insurance or Longevity banking plan, priced from the
 * book below in integer cents. A card pays 3% on the whole order; ACH and check pay none.
 */

/** The plans' structure (ids, years, names); their amounts come from the price book in force. */
export type AnnualStoragePlanId = PriceBook['annualStoragePlans'][number]['id'];
export const ANNUAL_STORAGE_PLAN_IDS = SHIPPED_PRICE_BOOK.annualStoragePlans.map((p) => p.id) as [
  AnnualStoragePlanId,
  ...AnnualStoragePlanId[],
];

export const BANKING_PLAN_KINDS = ['Bio-Insurance Plan', 'Longevity Plan', 'No additional Plan'] as const;
export type BankingPlanKind = (typeof BANKING_PLAN_KINDS)[number];

/** Bio-Insurance: any count from 10 to 75 vials (DESIGN.md deviation 9), in three price tiers. */
export const BIO_INSURANCE_VIALS = { min: 10, max: 75 } as const;

/** The named Bio-Insurance plans: the tier prices of 10, 25 and 50 vials. */
export const BIO_INSURANCE_NAMED_PLANS = [
  { name: 'Bio-Insurance 100', vials: 10, cells: '100,000,000' },
  { name: 'Bio-Insurance 250', vials: 25, cells: '250,000,000' },
  { name: 'Bio-Insurance 500', vials: 50, cells: '500,000,000' },
] as const;

/**
 * The Longevity plans. The spec gives each a price and a cell count; the vials added to the
 * client's longevity vials are the counts of the Bio-Insurance plan of the same name.
 */
export type LongevityPlanName = PriceBook['longevityPlans'][number]['name'];
export const LONGEVITY_PLAN_NAMES = SHIPPED_PRICE_BOOK.longevityPlans.map((p) => p.name) as [
  LongevityPlanName,
  ...LongevityPlanName[],
];

export const storagePlanMessages = {
  selectAny: 'Please Select Any Annual Storage Plan',
  sampleType: 'Please select sample type',
  vials: 'Please select the number of vials (10 to 75)',
  longevityPlan: 'Please select a Longevity plan',
  paymentMethod: 'Please Select Payment Method.',
  cardNumber: 'Please enter credit card number',
  holderFirst: 'Please enter first name',
  holderLast: 'Please enter last name',
  cardEmpty: 'Cannot be empty',
  accountNumber: 'Please enter account number',
  fieldEmpty: "Field can't be empty",
  submitted: 'Please check your email for order confirmation',
  checkNote:
    'Please mail your check for the total below to ACT. The plan starts when the check is received; nothing is charged now.',
} as const;

const m = storagePlanMessages;

export function annualStoragePlan(book: PriceBook, id: AnnualStoragePlanId) {
  const plan = book.annualStoragePlans.find((p) => p.id === id);
  if (!plan) throw new Error(`unknown storage plan: ${id}`);
  return plan;
}

/** The price of one bio-insurance vial at a count: the tier the count falls in. */
export function bioInsurancePerVial(book: PriceBook, vials: number): Cents {
  const tier = book.bioInsuranceTiers.find((t) => vials >= t.from && vials <= t.to);
  if (!tier || !Number.isInteger(vials)) throw new Error(`bio-insurance is 10 to 75 vials, not ${vials}`);
  return tier.perVialCents;
}

/** A count at its own tier's price: what the legacy charged, before the cap below. */
export function bioInsuranceTierPrice(book: PriceBook, vials: number): Cents {
  return vials * bioInsurancePerVial(book, vials);
}

/**
 * What a count of bio-insurance vials costs: the count at its tier's price, but never more than a
 * larger count costs (DESIGN.md 8.23): 24 vials at $425 would be $10,200, above 25 at $400
 * ($10,000), so 24 cost $10,000 too. The page offers the larger count instead.
 */
export function bioInsurancePrice(book: PriceBook, vials: number): Cents {
  const atTier = bioInsuranceTierPrice(book, vials);
  const larger = book.bioInsuranceTiers.filter((t) => t.from > vials).map((t) => t.from * t.perVialCents);
  return Math.min(atTier, ...larger);
}

/** The discount shown for a count, against the list price (DESIGN.md deviation 9). */
export function bioInsuranceDiscountPercent(book: PriceBook, vials: number): number {
  return discountPercent(book.bioInsuranceListPrice, bioInsurancePerVial(book, vials));
}

/** "Bio-Insurance 250 (250,000,000 cells)" for a named plan's count, else "Bio-Insurance 30 Vials". */
export function bioInsurancePlanName(vials: number): string {
  const named = BIO_INSURANCE_NAMED_PLANS.find((p) => p.vials === vials);
  return named ? `${named.name} (${named.cells} cells, ${vials} Vials)` : `Bio-Insurance ${vials} Vials`;
}

/** A Longevity vial holds 1 million cells (DESIGN.md 8.22); the plans page says so wherever it counts them. */
export function longevityVialsText(vials: number): string {
  return `${vials} ${vials === 1 ? 'vial' : 'vials'} of 1 million cells`;
}

/** "Longevity 100 (10,000,000 cells, 10 vials of 1 million cells)". */
export function longevityPlanLabel(plan: { name: string; cells: string; vials: number }): string {
  return `${plan.name} (${plan.cells} cells, ${longevityVialsText(plan.vials)})`;
}

export function longevityPlan(book: PriceBook, name: LongevityPlanName) {
  const plan = book.longevityPlans.find((p) => p.name === name);
  if (!plan) throw new Error(`unknown longevity plan: ${name}`);
  return plan;
}

export interface StoragePlanChoice {
  annualStoragePlan: AnnualStoragePlanId;
  plan: BankingPlanKind;
  /** Bio-Insurance Plan: the vial count. */
  vials?: number;
  /** Longevity Plan: which one. */
  longevityPlan?: LongevityPlanName;
  paymentMethod: PaymentMethodType;
}

export interface StoragePlanPrice {
  storageYears: number;
  storageCents: Cents;
  storageLabel: string | null;
  bankingCents: Cents;
  bankingLabel: string | null;
  bioInsuranceVials: number;
  longevityVials: number;
  /** What the plans cost before the card fee. */
  amountCents: Cents;
  processingFeeCents: Cents;
  totalCents: Cents;
}

/** The whole order, priced. Throws on a choice the schema refuses (no plan at all, a bad count). */
export function priceStoragePlan(book: PriceBook, choice: StoragePlanChoice): StoragePlanPrice {
  const storage = annualStoragePlan(book, choice.annualStoragePlan);
  let bankingCents = 0;
  let bankingLabel: string | null = null;
  let bioInsuranceVials = 0;
  let longevityVials = 0;
  if (choice.plan === 'Bio-Insurance Plan') {
    const vials = choice.vials ?? 0;
    bankingCents = bioInsurancePrice(book, vials);
    bankingLabel = bioInsurancePlanName(vials);
    bioInsuranceVials = vials;
  } else if (choice.plan === 'Longevity Plan') {
    if (!choice.longevityPlan) throw new Error('a longevity plan must be named');
    const plan = longevityPlan(book, choice.longevityPlan);
    bankingCents = plan.cents;
    bankingLabel = longevityPlanLabel(plan);
    longevityVials = plan.vials;
  }
  if (storage.years === 0 && choice.plan === 'No additional Plan') throw new Error(m.selectAny);
  const amountCents = storage.cents + bankingCents;
  const processingFeeCents = cardProcessingFee(book, amountCents, choice.paymentMethod);
  return {
    storageYears: storage.years,
    storageCents: storage.cents,
    storageLabel: storage.years > 0 ? storage.label : null,
    bankingCents,
    bankingLabel,
    bioInsuranceVials,
    longevityVials,
    amountCents,
    processingFeeCents,
    totalCents: amountCents + processingFeeCents,
  };
}

/** The new paid-until date: the plan's years on from the later of today and the current date. */
export function extendPaidUntil(current: string | null, today: string, years: number): string {
  const from = current && current > today ? current : today;
  return addYears(from, years);
}

/** What the plan choice (page 0) must meet: not both "none". */
export function planChoiceProblem(annual: AnnualStoragePlanId, plan: BankingPlanKind): string | null {
  return annual === 'No Annual Storage' && plan === 'No additional Plan' ? m.selectAny : null;
}

export const STORAGE_PLAN_PAYMENT_METHODS = ['Credit Card', 'ACH Payment', 'Check'] as const;

/** send_StoragePlan: what the client chose, never an amount to charge (a shown total is checked). */
export const sendStoragePlanSchema = acceptingSpecCardFieldNames(
  z
    .object({
      Source: singleLine(z.string().trim().max(40)).optional(),
      Client_Id: singleLine(z.string().trim().max(64)).optional(),
      Annual_Storage_Plan: z.enum(ANNUAL_STORAGE_PLAN_IDS, { error: m.selectAny }),
      Plan: z.enum(BANKING_PLAN_KINDS, { error: m.selectAny }),
      Vials: z.number({ error: m.vials }).int(m.vials).min(10, m.vials).max(75, m.vials).optional(),
      Longevity_Banking_Plans: z.enum(LONGEVITY_PLAN_NAMES, { error: m.longevityPlan }).optional(),
      Tissue_Info: z.enum(TISSUE_TYPES, { error: m.sampleType }),
      ...formPaymentFields,
      PaymentMethod: z.enum(STORAGE_PLAN_PAYMENT_METHODS, { error: m.paymentMethod }),
      ...shownTotalFields,
      // Legacy amount fields the page may send: ignored, the server computes every amount.
      Annual_Storage_Plan_Amount: z.number().optional(),
      Banking_Plan_Amount: z.number().optional(),
      CreditCardProcessingFee: z.number().optional(),
      AnnualBankingCCProcessingFee: z.number().optional(),
      BioInsuranceCCProcessingFee: z.number().optional(),
    })
    .refine((b) => planChoiceProblem(b.Annual_Storage_Plan, b.Plan) === null, {
      message: m.selectAny,
      path: ['Annual_Storage_Plan'],
      ...everyFieldAtOnce,
    })
    .refine((b) => b.Plan !== 'Bio-Insurance Plan' || b.Vials !== undefined, {
      message: m.vials,
      path: ['Vials'],
      ...everyFieldAtOnce,
    })
    .refine((b) => b.Plan !== 'Longevity Plan' || b.Longevity_Banking_Plans !== undefined, {
      message: m.longevityPlan,
      path: ['Longevity_Banking_Plans'],
      ...everyFieldAtOnce,
    }),
);
export type SendStoragePlan = z.infer<typeof sendStoragePlanSchema>;
export type SendStoragePlanInput = z.input<typeof sendStoragePlanSchema>;

/** The payment method of the legacy payload, as the price book knows it. */
export function paymentMethodType(method: (typeof STORAGE_PLAN_PAYMENT_METHODS)[number]): PaymentMethodType {
  return method === 'Credit Card' ? 'card' : method === 'ACH Payment' ? 'ach' : 'check';
}

export function choiceOf(body: SendStoragePlan): StoragePlanChoice {
  return {
    annualStoragePlan: body.Annual_Storage_Plan,
    plan: body.Plan,
    ...(body.Vials === undefined ? {} : { vials: body.Vials }),
    ...(body.Longevity_Banking_Plans === undefined ? {} : { longevityPlan: body.Longevity_Banking_Plans }),
    paymentMethod: paymentMethodType(body.PaymentMethod),
  };
}

export const STORAGE_PLAN_ORDER_STATUSES = ['pending', 'paid', 'awaiting_check', 'check_received'] as const;

/** The order as the client sees it afterwards. */
export const storagePlanOrderSchema = z.object({
  id: z.string(),
  status: z.enum(STORAGE_PLAN_ORDER_STATUSES),
  Annual_Storage_Plan: z.string(),
  storageYears: z.number().int(),
  storageCents: z.number().int(),
  Plan: z.string(),
  bankingPlanName: z.string().nullable(),
  bioInsuranceVials: z.number().int(),
  longevityVials: z.number().int(),
  bankingCents: z.number().int(),
  ...chargedOrderFields,
  paidUntilBefore: z.string().nullable(),
  paidUntilAfter: z.string().nullable(),
});
export type StoragePlanOrder = z.infer<typeof storagePlanOrderSchema>;

export const sendStoragePlanResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  id: z.string(),
  TransactionId: z.string().nullable(),
  amountChargedCents: z.number().int(),
  order: storagePlanOrderSchema,
});
export type SendStoragePlanResponse = z.infer<typeof sendStoragePlanResponseSchema>;

/** get_StoragePlanQuote: the server's price for a choice, before anything is sent. */
export const storagePlanQuoteRequestSchema = z.object({
  Annual_Storage_Plan: z.enum(ANNUAL_STORAGE_PLAN_IDS, { error: m.selectAny }),
  Plan: z.enum(BANKING_PLAN_KINDS, { error: m.selectAny }),
  Vials: z.number({ error: m.vials }).int(m.vials).min(10, m.vials).max(75, m.vials).optional(),
  Longevity_Banking_Plans: z.enum(LONGEVITY_PLAN_NAMES, { error: m.longevityPlan }).optional(),
  PaymentMethod: z.enum(STORAGE_PLAN_PAYMENT_METHODS, { error: m.paymentMethod }),
});
export const storagePlanQuoteSchema = z.object({
  storageCents: z.number().int(),
  bankingCents: z.number().int(),
  amountCents: z.number().int(),
  processingFeeCents: z.number().int(),
  totalCents: z.number().int(),
});

/** The card fields' empty messages on this page (spec 3 section 5, Storage plan order submit). */
export const storagePlanCardEmptyMessages = {
  Credit_Card_Holder_First_Name: m.holderFirst,
  Credit_Card_Holder_Last_Name: m.holderLast,
  Month_of_Expiry: m.cardEmpty,
  Year_of_Expiry: m.cardEmpty,
  CVV: m.cardEmpty,
} as const;
