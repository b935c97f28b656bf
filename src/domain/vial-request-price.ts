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

export interface PrePaidVials {
  bioInsurance: number;
  longevity: number;
}

export interface PrePaidVialUse {
  bioInsurance: number;
  longevity: number;
  /** Vials paid at the vial price. */
  payable: number;
  /** Every vial is covered by bio-insurance vials (the release may ship 2 days ahead). */
  coveredByBioInsurance: boolean;
}

/** Which of the client's pre-paid vials a release of `vials` uses. */
export function prePaidVialUse(vials: number, available: PrePaidVials): PrePaidVialUse {
  const bioInsurance = Math.min(vials, Math.max(0, available.bioInsurance));
  const longevity = Math.min(vials - bioInsurance, Math.max(0, available.longevity));
  return {
    bioInsurance,
    longevity,
    payable: vials - bioInsurance - longevity,
    coveredByBioInsurance: vials > 0 && bioInsurance === vials,
  };
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
