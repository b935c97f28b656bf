import { z } from 'zod';
import { type ShipmentDateProblem, shipmentDateProblem } from './carrier-calendar';
import { EMAIL_PATTERN } from './client';
import { acceptingSpecCardFieldNames, formPaymentFields, shownTotalFields } from './form-payment';
import type { Cents } from './money';
import { cardProcessingFee, type PaymentMethodType } from './payments';
import { type PriceBook, SERUM_BULK_FROM } from './price-book';
import { singleLine } from './text';
import { requiredLine, shipmentDateField, usPhoneField } from './us-contact-fields';

/**
 * The Store (spec 3 sections 2-9): Stem Cell Face Serum, $225 a bottle, $200 a bottle from 11
 * bottles whichever way the count changed (DESIGN.md deviation 5), shipped by FedEx at no charge;
 * a card pays 3%, ACH none. Integer cents throughout.
 */

export const SERUM_NAME = 'Stem Cell Face Serum';
/** A count the quantity box accepts: more is a call to the bank, not an order. */
export const SERUM_MAX_BOTTLES = 99;

export const storeMessages = {
  country: 'Please enter Country',
  state: 'Please enter State',
  zipCode: 'Please enter Zip Code',
  phone: 'Please enter Phone',
  phoneNumeric: 'Please insert number only',
  city: 'Please enter City',
  street: 'Please enter Street',
  shippingEmail: 'Please enter Shipping Email',
  invalidEmail: 'Invalid email.',
  firstName: 'Please enter first name',
  lastName: 'Please enter last name',
  shipmentDate: 'Please enter Shipment Date',
  paymentMethod: 'Please Select Payment Method.',
  quantity: 'Please choose at least one bottle',
  tooManyBottles:
    'Please choose at most 99 bottles. For a larger order, please contact ACT directly by phone or email.',
  cardNumber: 'Please enter credit card number',
  cvv: 'Please enter CVV',
  cardEmpty: 'Cannot be empty',
  billingEmail: 'Please enter billing email',
  /** A date too soon or staff-blacked-out (DESIGN.md 8.31: not the request form's "stem cell request date"). */
  shipmentDateContact: 'Please contact ACT directly by phone or email for this store order date.',
  submitted: 'Please check your email for order confirmation',
  noAchStored:
    'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
} as const;

const m = storeMessages;

/** The price of one bottle at a count: $200 from 11 bottles, $225 below. */
export function serumPricePerBottle(book: PriceBook, quantity: number): Cents {
  return quantity >= SERUM_BULK_FROM ? book.serumBulkPrice : book.serumPrice;
}

/**
 * A quantity as typed: anything not a whole number of bottles becomes 0 (spec 3 section 4). A count
 * above the most the store takes is kept as typed, so the page can say why it is refused.
 */
export function serumQuantityOf(typed: string): number {
  const trimmed = typed.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return 0;
  return Number(trimmed);
}

/** The quantity's problem, or null: at least one bottle, at most 99. */
export function serumQuantityProblem(quantity: number): string | null {
  if (quantity < 1) return m.quantity;
  if (quantity > SERUM_MAX_BOTTLES) return m.tooManyBottles;
  return null;
}

export interface StoreShipmentDateRules {
  /** The first arrival date allowed: `storeEarliestShipmentDate(today)` (3 days ahead). */
  earliest: string;
  /** Staff blackout dates (`YYYY-MM-DD`). */
  blackoutDates: readonly string[];
}

/**
 * Why the store may not ship for arrival on a date, or null when it may: the carrier calendar of
 * FedEx with the staff blackout dates, from 3 days ahead. The page (offered days, a typed date) and
 * the server (the order) ask this one rule; a date too soon or blacked out has the store's sentence.
 */
export function storeShipmentDateProblem(
  date: string,
  rules: StoreShipmentDateRules,
): ShipmentDateProblem | null {
  const problem = shipmentDateProblem(date, {
    method: 'FedEx',
    earliest: rules.earliest,
    blackoutDates: rules.blackoutDates,
  });
  if (problem && (problem.reason === 'tooEarly' || problem.reason === 'blackout')) {
    return { reason: problem.reason, message: m.shipmentDateContact };
  }
  return problem;
}

export interface StorePrice {
  quantity: number;
  perBottleCents: Cents;
  itemsCents: Cents;
  shippingCents: Cents;
  processingFeeCents: Cents;
  totalCents: Cents;
}

export function priceStoreOrder(
  book: PriceBook,
  quantity: number,
  paymentMethod: PaymentMethodType,
): StorePrice {
  const perBottleCents = serumPricePerBottle(book, quantity);
  const itemsCents = quantity * perBottleCents;
  const shippingCents = 0;
  const processingFeeCents = cardProcessingFee(book, itemsCents + shippingCents, paymentMethod);
  return {
    quantity,
    perBottleCents,
    itemsCents,
    shippingCents,
    processingFeeCents,
    totalCents: itemsCents + shippingCents + processingFeeCents,
  };
}

const shipmentDate = shipmentDateField(m.shipmentDate);

/** send_CP_StoreRequest: what was chosen, never an amount to charge (a shown total is checked). */
export const sendStoreRequestSchema = acceptingSpecCardFieldNames(
  z.object({
    Client_id: singleLine(z.string().trim().max(64)).optional(),
    Source: singleLine(z.string().trim().max(40)).optional(),
    delivery_speed: z.literal('Immediate').default('Immediate'),
    shipping_method: z.literal('FedEx', { error: 'FedEx is the only courier of the store' }).default('FedEx'),
    stemskinserum: z.object({
      name: z.literal(SERUM_NAME).default(SERUM_NAME),
      quantity: z
        .number({ error: m.quantity })
        .int(m.quantity)
        .min(1, m.quantity)
        .max(SERUM_MAX_BOTTLES, m.tooManyBottles),
      price: z.number().optional().describe('Legacy: ignored, the server prices the bottle'),
    }),
    ShipmentDate: shipmentDate,
    FirstName: requiredLine(m.firstName, 80),
    LastName: requiredLine(m.lastName, 80),
    ShippingEmail: requiredLine(m.shippingEmail, 200).regex(EMAIL_PATTERN, m.invalidEmail),
    Phone: usPhoneField({ required: m.phone, numeric: m.phoneNumeric }),
    Street: requiredLine(m.street, 200),
    City: requiredLine(m.city, 80),
    State: requiredLine(m.state, 40),
    Country: requiredLine(m.country, 80),
    // Not the US ZIP rule: a shipping address may be outside the US (the carrier decides).
    ZipCode: requiredLine(m.zipCode, 10),
    saveAddressForFuture: z.boolean().default(false),
    ...formPaymentFields,
    PaymentMethod: z.enum(['Credit Card', 'ACH Payment'], { error: m.paymentMethod }),
    ...shownTotalFields,
    StoreFee: z.number().optional(),
    CreditCardProcessingFee: z.number().optional(),
  }),
);
export type SendStoreRequest = z.infer<typeof sendStoreRequestSchema>;
export type SendStoreRequestInput = z.input<typeof sendStoreRequestSchema>;

export const sendStoreRequestResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  id: z.string(),
  TransactionId: z.string().nullable(),
  quantity: z.number().int(),
  itemsCents: z.number().int(),
  processingFeeCents: z.number().int(),
  amountChargedCents: z.number().int(),
  ShipmentDate: z.string(),
});
export type SendStoreRequestResponse = z.infer<typeof sendStoreRequestResponseSchema>;

/** Cancelling a store order (issue 22): before it ships, everything refunded; after, refused. */
export const storeCancellationMessages = {
  shipped: 'No cancellation is possible once the order has shipped.',
  reasonRequired: 'Please give a reason for the cancellation',
  cancelled: 'Your order is cancelled.',
  emailSubject: 'Your store order is cancelled',
} as const;

/** One of the client's store orders, as the store page lists it. */
export const storeOrderSummarySchema = z.object({
  id: z.uuid(),
  status: z.enum(['ordered', 'shipped', 'delivered', 'cancelled']),
  orderedAt: z.string().describe('ISO instant'),
  item: z.string(),
  quantity: z.number().int(),
  totalCents: z.number().int(),
  ShipmentDate: z.string().describe('YYYY-MM-DD: the arrival date chosen'),
  cancelledAt: z.string().nullable(),
  /** The refund owed by the cancellation, and what of it has gone out. */
  refundCents: z.number().int().nullable(),
  refundedCents: z.number().int(),
});
export type StoreOrderSummary = z.infer<typeof storeOrderSummarySchema>;
export const storeOrderListSchema = z.object({ orders: z.array(storeOrderSummarySchema) });
export const storeOrderIdSchema = z.object({ id: z.uuid() });
