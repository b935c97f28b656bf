import type { Cents } from '../../../../domain/money';
import { cardProcessingFee, type StorageCharges } from '../../../../domain/payments';
import { ACT_VIP_SHIPPING_CENTS, type PriceBook } from '../../../../domain/price-book';

export interface OrderSummary {
  vials: number;
  /** Requested vials covered by pre-paid vials (get_ClientVialsService's PrePaidVials). */
  prePaidVials: number;
  /** The pre-paid vials taken, by kind: Bio-Insurance one a vial, Longevity 10 a vial. */
  prePaidTaken: { bioInsurance: number; longevity: number };
  vialsCents: Cents;
  cppCents: Cents;
  /** null: no quote yet (FedEx before the address is quoted). */
  shippingCents: Cents | null;
  shippingToBeConfirmed: boolean;
  /** Annual storage overdue, paid with the order (DESIGN.md 8 item 30): its years and amount. */
  overdueStorageYears: number;
  overdueStorageCents: Cents;
  /** The card fee of the whole charge, the overdue storage's included. */
  processingFeeCents: Cents;
  totalCents: Cents | null;
}

/**
 * The order summary from the server's answers: the payable vials of get_ClientVialsService, the
 * shipping of get_FedexShipQuote and the overdue storage of get_ReleaseReadiness, with the CPP of
 * the price book in force and the 3% card fee on top; the overdue storage as the server priced it
 * for the method (each year at the amount its notice fixed, as on Payment Information).
 */
export function orderSummary(
  book: PriceBook,
  input: {
    vials: number;
    prePaidVials: number;
    prePaidTaken: { bioInsurance: number; longevity: number };
    payableVialsCents: Cents;
    cpp: boolean;
    shippingCents: Cents | null;
    actVip: boolean;
    card: boolean;
    overdueStorage?: { years: number; charges: StorageCharges };
  },
): OrderSummary {
  const cppCents = input.cpp ? input.vials * book.cppPerVial : 0;
  const shippingCents = input.actVip ? ACT_VIP_SHIPPING_CENTS : input.shippingCents;
  const subtotal = shippingCents === null ? null : input.payableVialsCents + cppCents + shippingCents;
  const method = input.card ? 'card' : 'ach';
  const overdue = input.overdueStorage?.charges[method];
  const overdueStorageCents = overdue?.amountCents ?? 0;
  const processingFeeCents =
    subtotal === null ? 0 : cardProcessingFee(book, subtotal, method) + (overdue?.feeCents ?? 0);
  return {
    vials: input.vials,
    prePaidVials: input.prePaidVials,
    prePaidTaken: input.prePaidTaken,
    vialsCents: input.payableVialsCents,
    cppCents,
    shippingCents,
    shippingToBeConfirmed: input.actVip,
    overdueStorageYears: input.overdueStorage?.years ?? 0,
    overdueStorageCents,
    processingFeeCents,
    totalCents: subtotal === null ? null : subtotal + overdueStorageCents + processingFeeCents,
  };
}
