import type { TissueType } from '../../../../domain/cell-request';
import type { Cents } from '../../../../domain/money';
import type { PriceBook } from '../../../../domain/price-book';
import {
  type AnnualStoragePlanId,
  type BankingPlanKind,
  BIO_INSURANCE_NAMED_PLANS,
  bioInsuranceDiscountPercent,
  bioInsurancePrice,
  bioInsuranceTierPrice,
  type LongevityPlanName,
  storagePlanMessages as m,
  paymentMethodType,
  planChoiceProblem,
  priceStoragePlan,
  type SendStoragePlanInput,
  type StoragePlanPrice,
} from '../../../../domain/storage-plans';
import { initialPaymentChoice, type PaymentChoice } from '../../../lib/payment/payment-choice';

/** The order as the client builds it, by the request's names; '' is not chosen yet. */
export interface PlanValues {
  Annual_Storage_Plan: AnnualStoragePlanId | '';
  Plan: BankingPlanKind | '';
  Vials: number;
  Longevity_Banking_Plans: LongevityPlanName | '';
  Tissue_Info: TissueType | '';
  payment: PaymentChoice;
}

/** Nothing chosen (DESIGN.md 8.29); a card by default once paying. */
export const initialPlanValues: PlanValues = {
  Annual_Storage_Plan: '',
  Plan: '',
  Vials: 10,
  Longevity_Banking_Plans: '',
  Tissue_Info: '',
  payment: { ...initialPaymentChoice(false), method: 'Credit Card' },
};

/** The spec's default, offered as a suggestion: no storage, Bio-Insurance 100 (10 vials). */
export const SUGGESTED_PLAN = {
  Annual_Storage_Plan: 'No Annual Storage',
  Plan: 'Bio-Insurance Plan',
  Vials: 10,
} as const satisfies Partial<PlanValues>;

/** A choice not made is none: no annual storage, no banking plan. */
const annualOf = (values: PlanValues): AnnualStoragePlanId =>
  values.Annual_Storage_Plan || 'No Annual Storage';
const planOf = (values: PlanValues): BankingPlanKind => values.Plan || 'No additional Plan';

/** Why the plans chosen cannot be ordered yet (field → message), before the payment step. */
export function planChoiceProblems(values: PlanValues, book: PriceBook): Record<string, string> {
  const nothing = planChoiceProblem(annualOf(values), planOf(values));
  if (nothing) return { plan: nothing };
  if (values.Plan === 'Bio-Insurance Plan' && !offeredCount(book, values.Vials)) return { Vials: m.vials };
  if (values.Plan === 'Longevity Plan' && !values.Longevity_Banking_Plans) {
    return { Longevity_Banking_Plans: m.longevityPlan };
  }
  return {};
}

export function priceOf(values: PlanValues, book: PriceBook): StoragePlanPrice | null {
  if (Object.keys(planChoiceProblems(values, book)).length > 0) return null;
  const method = values.payment.method;
  return priceStoragePlan(book, {
    annualStoragePlan: annualOf(values),
    plan: planOf(values),
    vials: values.Vials,
    longevityPlan: values.Longevity_Banking_Plans || undefined,
    paymentMethod: method ? paymentMethodType(method) : 'card',
  });
}

/** The order as the schema judges it, the payment's token and display fields aside. */
export function planRequestOf(values: PlanValues): SendStoragePlanInput {
  const plan = planOf(values);
  return {
    Source: 'Client Portal',
    Annual_Storage_Plan: annualOf(values),
    Plan: plan,
    ...(plan === 'Bio-Insurance Plan' ? { Vials: values.Vials } : {}),
    ...(plan === 'Longevity Plan' && values.Longevity_Banking_Plans
      ? { Longevity_Banking_Plans: values.Longevity_Banking_Plans }
      : {}),
    Tissue_Info: values.Tissue_Info || undefined,
    PaymentMethod: values.payment.method || undefined,
  } as SendStoragePlanInput;
}

/** A Bio-Insurance tier as the page offers it. */
export interface BioInsuranceOffer {
  /** The named plan of its first count ("Bio-Insurance 250"). */
  name: string;
  /** The counts offered: the tier's, less those dearer than the next tier's first count. */
  from: number;
  to: number;
  perVialCents: Cents;
  discountPercent: number;
  /** The tier's counts left out because they cost more than the next tier's first (DESIGN.md 8.23). */
  dearer: { from: number; to: number; fromCents: Cents; next: number; nextCents: Cents } | null;
}

/** The three tiers of the price book in force, each without the counts that cost more than the next. */
export function bioInsuranceOffers(book: PriceBook): BioInsuranceOffer[] {
  return book.bioInsuranceTiers.map((tier, index) => {
    const next = book.bioInsuranceTiers[index + 1];
    let to = tier.to;
    while (next && to >= tier.from && bioInsuranceTierPrice(book, to) > bioInsurancePrice(book, next.from))
      to -= 1;
    const named = BIO_INSURANCE_NAMED_PLANS.find((plan) => plan.vials === tier.from);
    return {
      name: named?.name ?? `Bio-Insurance ${tier.from} to ${tier.to} vials`,
      from: tier.from,
      to,
      perVialCents: tier.perVialCents,
      discountPercent: bioInsuranceDiscountPercent(book, tier.from),
      dearer:
        next && to < tier.to
          ? {
              from: to + 1,
              to: tier.to,
              fromCents: bioInsuranceTierPrice(book, to + 1),
              next: next.from,
              nextCents: bioInsurancePrice(book, next.from),
            }
          : null,
    };
  });
}

/** The offer a count belongs to, or null for a count not offered. */
export function offeredCount(book: PriceBook, vials: number): BioInsuranceOffer | null {
  return bioInsuranceOffers(book).find((offer) => vials >= offer.from && vials <= offer.to) ?? null;
}
