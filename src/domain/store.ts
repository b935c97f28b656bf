import { z } from 'zod';
import { shipmentDateMessages } from './carrier-calendar';
import { EMAIL_PATTERN } from './client';
import { calendarDateToIso } from './dates';
import { formPaymentFields } from './form-payment';
import type { Cents } from './money';
import { cardProcessingFee, type PaymentMethodType } from './payments';
import { type PriceBook, SERUM_BULK_FROM } from './price-book';
import { singleLine } from './text';
import { usPhoneField } from './us-contact-fields';

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
  cardNumber: 'Please enter credit card number',
  cvv: 'Please enter CVV',
  cardEmpty: 'Cannot be empty',
  billingEmail: 'Please enter billing email',
  submitted: 'Please check your email for order confirmation',
  noAchStored:
    'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
} as const;

const m = storeMessages;

/** The price of one bottle at a count: $200 from 11 bottles, $225 below. */
export function serumPricePerBottle(book: PriceBook, quantity: number): Cents {
  return quantity >= SERUM_BULK_FROM ? book.serumBulkPrice : book.serumPrice;
}

/** A quantity as typed: anything not a whole number of bottles becomes 0 (spec 3 section 4). */
export function serumQuantityOf(typed: string): number {
  const trimmed = typed.trim();
  if (!/^\d{1,3}$/.test(trimmed)) return 0;
  return Math.min(Number(trimmed), SERUM_MAX_BOTTLES);
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

function required(message: string, max: number) {
  return singleLine(
    z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`),
  );
}

const shipmentDate = singleLine(z.string({ error: m.shipmentDate }).trim().max(10))
  .min(1, m.shipmentDate)
  .transform((value, ctx) => {
    const iso = calendarDateToIso(value);
    if (iso === null) {
      ctx.addIssue({ code: 'custom', message: shipmentDateMessages.invalid });
      return z.NEVER;
    }
    return iso;
  });

/** send_CP_StoreRequest: what was chosen, never an amount to charge (a shown total is checked). */
export const sendStoreRequestSchema = z.object({
  Client_id: singleLine(z.string().trim().max(64)).optional(),
  Source: singleLine(z.string().trim().max(40)).optional(),
  delivery_speed: z.literal('Immediate').default('Immediate'),
  shipping_method: z.literal('FedEx', { error: 'FedEx is the only courier of the store' }).default('FedEx'),
  stemskinserum: z.object({
    name: z.literal(SERUM_NAME).default(SERUM_NAME),
    quantity: z.number({ error: m.quantity }).int(m.quantity).min(1, m.quantity).max(SERUM_MAX_BOTTLES),
    price: z.number().optional().describe('Legacy: ignored, the server prices the bottle'),
  }),
  ShipmentDate: shipmentDate,
  FirstName: required(m.firstName, 80),
  LastName: required(m.lastName, 80),
  ShippingEmail: required(m.shippingEmail, 200).regex(EMAIL_PATTERN, m.invalidEmail),
  Phone: usPhoneField({ required: m.phone, numeric: m.phoneNumeric }),
  Street: required(m.street, 200),
  City: required(m.city, 80),
  State: required(m.state, 40),
  Country: required(m.country, 80),
  // Not the US ZIP rule: a shipping address may be outside the US (the carrier decides).
  ZipCode: required(m.zipCode, 10),
  saveAddressForFuture: z.boolean().default(false),
  ...formPaymentFields,
  PaymentMethod: z.enum(['Credit Card', 'ACH Payment'], { error: m.paymentMethod }),
  expectedTotalCents: z
    .number()
    .int()
    .optional()
    .describe('The total the page showed, in cents: a different server total answers 409, nothing charged'),
  amount: z.number().optional().describe('Legacy: the total shown, in dollars; must equal the server quote'),
  StoreFee: z.number().optional(),
  CreditCardProcessingFee: z.number().optional(),
});
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
