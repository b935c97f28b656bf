import type { ShippingMethod } from './carrier-calendar';
import type { Cents } from './money';
import { cardProcessingFee, type PaymentMethodType, type StorageCharge } from './payments';
import { ACT_VIP_SHIPPING_CENTS, type PriceBook } from './price-book';

/**
 * The price of a vial release (the Stem Cell Request Form). The client's pre-paid vials are used
 * first, bio-insurance before longevity (a release fully covered by bio-insurance ships sooner);
 * the rest cost the vial price. The cell protection plan is per vial shipped, pre-paid or not. A
 * card pays 3% on vials + shipping + CPP, and 3% on any overdue annual storage the order pays;
 * ACH and check pay none. Integer cents throughout.
 */

/** FedEx shipping charged to the client: max($50, the carrier's net charge x 1.20), half up to the cent. */
export function fedexShippingCharge(book: PriceBook, carrierNetChargeCents: Cents): Cents {
  const marked = Math.floor(
    (carrierNetChargeCents * (10_000 + book.fedexShippingMarkupBasisPoints) + 5_000) / 10_000,
  );
  return Math.max(book.fedexShippingMinimum, marked);
}

export type VialShipping =
  | { method: Extract<ShippingMethod, 'FedEx'>; carrierNetChargeCents: Cents }
  | { method: Extract<ShippingMethod, 'ACT VIP'> };

/** The shipping the order charges: FedEx from the carrier's quote; ACT VIP nothing now. */
export function shippingCharge(book: PriceBook, shipping: VialShipping): Cents {
  return shipping.method === 'FedEx'
    ? fedexShippingCharge(book, shipping.carrierNetChargeCents)
    : ACT_VIP_SHIPPING_CENTS;
}

/** The client's pre-paid vials by kind: Bio-Insurance vials of 10 million cells, Longevity vials of 1 million. */
export interface PrePaidVials {
  bioInsurance: number;
  longevity: number;
}

/**
 * A requested vial is 10 million cells (spec 3 section 9: "Vial price 500.00 each (10 million cells
 * per vial)"); a Bio-Insurance vial holds 10 million cells, a Longevity vial 1 million (DESIGN.md
 * 8.22: Longevity 100 is 10,000,000 cells, 10 Longevity vials). So 10 Longevity vials cover one
 * requested vial.
 */
export const LONGEVITY_VIALS_PER_VIAL = 10;

export interface PrePaidVialUse {
  /** Bio-Insurance vials taken: one per requested vial they cover. */
  bioInsurance: number;
  /** Longevity vials taken: LONGEVITY_VIALS_PER_VIAL (10) per requested vial they cover. */
  longevity: number;
  /** Requested vials the Longevity vials taken cover (longevity / 10). */
  longevityCoveredVials: number;
  /** Requested vials covered by pre-paid vials (PrePaidVials): bioInsurance + longevityCoveredVials. */
  coveredVials: number;
  /** Vials paid at the vial price. */
  payable: number;
  /** Every vial is covered by bio-insurance vials (the release may ship 2 days ahead). */
  coveredByBioInsurance: boolean;
}

/**
 * Which of the client's pre-paid vials a release of `vials` (10 million cells each) uses, by cells:
 * Bio-Insurance vials (10 million cells) first, one per requested vial; then Longevity vials (1
 * million cells), 10 per requested vial, whole requested vials only. Fewer than 10 Longevity vials
 * left cover no vial: that vial is charged at the vial price and the Longevity vials stay on the
 * client's record for a later release (nothing lost, nothing charged pro rata). Before this rule a
 * Longevity vial covered a whole vial, so a $2,125 Longevity 100 released 100 million cells.
 */
export function prePaidVialUse(vials: number, available: PrePaidVials): PrePaidVialUse {
  const bioInsurance = Math.min(vials, Math.max(0, available.bioInsurance));
  const longevityCoveredVials = Math.min(
    vials - bioInsurance,
    Math.floor(Math.max(0, available.longevity) / LONGEVITY_VIALS_PER_VIAL),
  );
  const coveredVials = bioInsurance + longevityCoveredVials;
  return {
    bioInsurance,
    longevity: longevityCoveredVials * LONGEVITY_VIALS_PER_VIAL,
    longevityCoveredVials,
    coveredVials,
    payable: vials - coveredVials,
    coveredByBioInsurance: vials > 0 && bioInsurance === vials,
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The pre-paid vials a release took, by kind, when Longevity vials are among them: "1 Bio-Insurance
 * vial, 10 Longevity vials of 1 million cells". Null when there are none: each pre-paid vial is
 * then a Bio-Insurance vial, one for one.
 */
export function prePaidVialKindsText(taken: { bioInsurance: number; longevity: number }): string | null {
  if (taken.longevity <= 0) return null;
  return [
    ...(taken.bioInsurance > 0
      ? [plural(taken.bioInsurance, 'Bio-Insurance vial', 'Bio-Insurance vials')]
      : []),
    `${plural(taken.longevity, 'Longevity vial', 'Longevity vials')} of 1 million cells`,
  ].join(', ');
}

/**
 * A release's vials as people read them, with the requested vials pre-paid vials cover: "2 (1
 * pre-paid)", "3 (2 pre-paid: 1 Bio-Insurance vial, 10 Longevity vials of 1 million cells)".
 */
export function vialsWithPrePaidText(
  vials: number,
  used: { bioInsurance: number; longevity: number; coveredVials: number },
): string {
  const kinds = prePaidVialKindsText(used);
  return `${vials} (${used.coveredVials} pre-paid${kinds ? `: ${kinds}` : ''})`;
}

export interface VialRequestOrder {
  vials: number;
  prePaid: PrePaidVials;
  cpp: boolean;
  shipping: VialShipping;
  paymentMethod: PaymentMethodType;
  /**
   * Annual storage overdue, added to the order's one charge (DESIGN.md 8 item 30): what its years
   * charge by the order's method (storage-billing.ts storageYearsCharge), and the card fee on them.
   */
  overdueStorage?: Pick<StorageCharge, 'amountCents' | 'feeCents'>;
}

export interface VialRequestPrice {
  vials: number;
  prePaidVials: PrePaidVialUse;
  /** The dose: payable vials at the vial price (AmountForDoseCharged). */
  vialsCents: Cents;
  cppCents: Cents;
  shippingCents: Cents;
  /** Whether the shipping price is still to be confirmed by staff (ACT VIP). */
  shippingConfirmedLater: boolean;
  /** The overdue annual storage the order pays, and its own card fee (as the payment page charges it). */
  overdueStorageCents: Cents;
  overdueStorageFeeCents: Cents;
  /** The card fee of the whole charge: the vials' and the overdue storage's. */
  processingFeeCents: Cents;
  totalCents: Cents;
}

export function priceVialRequest(book: PriceBook, order: VialRequestOrder): VialRequestPrice {
  const prePaidVials = prePaidVialUse(order.vials, order.prePaid);
  const vialsCents = prePaidVials.payable * book.vialPrice;
  const cppCents = order.cpp ? order.vials * book.cppPerVial : 0;
  const shippingCents = shippingCharge(book, order.shipping);
  const subtotal = vialsCents + cppCents + shippingCents;
  // The overdue years at the amounts their notices fixed, an older year with the card fee on it alone.
  const overdueStorageCents = order.overdueStorage?.amountCents ?? 0;
  const overdueStorageFeeCents = order.overdueStorage?.feeCents ?? 0;
  const processingFeeCents = cardProcessingFee(book, subtotal, order.paymentMethod) + overdueStorageFeeCents;
  return {
    vials: order.vials,
    prePaidVials,
    vialsCents,
    cppCents,
    shippingCents,
    shippingConfirmedLater: order.shipping.method === 'ACT VIP',
    overdueStorageCents,
    overdueStorageFeeCents,
    processingFeeCents,
    totalCents: subtotal + overdueStorageCents + processingFeeCents,
  };
}
