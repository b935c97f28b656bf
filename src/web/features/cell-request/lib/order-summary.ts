import type { Cents } from '../../../../domain/money';
import { cardProcessingFee } from '../../../../domain/payments';
import { ACT_VIP_SHIPPING_CENTS, type PriceBook } from '../../../../domain/price-book';

export interface OrderSummary {
  vials: number;
  prePaidVials: number;
  vialsCents: Cents;
  cppCents: Cents;
  /** null: no quote yet (FedEx before the address is quoted). */
  shippingCents: Cents | null;
  shippingToBeConfirmed: boolean;
  processingFeeCents: Cents;
  totalCents: Cents | null;
}

/**
 * The order summary from the server's answers: the payable vials of get_ClientVialsService and
 * the shipping of get_FedexShipQuote, with the CPP of the price book in force and the 3% card fee on top.
 */
export function orderSummary(
  book: PriceBook,
  input: {
    vials: number;
    prePaidVials: number;
    payableVialsCents: Cents;
    cpp: boolean;
    shippingCents: Cents | null;
    actVip: boolean;
    card: boolean;
  },
): OrderSummary {
  const cppCents = input.cpp ? input.vials * book.cppPerVial : 0;
  const shippingCents = input.actVip ? ACT_VIP_SHIPPING_CENTS : input.shippingCents;
  const subtotal = shippingCents === null ? null : input.payableVialsCents + cppCents + shippingCents;
  const processingFeeCents =
    subtotal === null ? 0 : cardProcessingFee(book, subtotal, input.card ? 'card' : 'ach');
  return {
    vials: input.vials,
    prePaidVials: input.prePaidVials,
    vialsCents: input.payableVialsCents,
    cppCents,
    shippingCents,
    shippingToBeConfirmed: input.actVip,
    processingFeeCents,
    totalCents: subtotal === null ? null : subtotal + processingFeeCents,
  };
}
