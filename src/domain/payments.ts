import { z } from 'zod';
import { EMAIL_PATTERN, tooLong } from './client';
import { resolveToday, type Today } from './dates';
import { type Cents, formatRate } from './money';
import type { PriceBook } from './price-book';

/** The brands the bank accepts (spec 1, section 5: the card type list). */
export const CARD_BRANDS = ['American Express', 'Discover', 'Visa', 'Mastercard'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** Messages of the card and ACH forms (spec 1 section 5, spec 3 section 5), spelling fixed per DESIGN.md. */
export const paymentMessages = {
  cardNumberRequired: 'Please enter credit card number',
  cardNumberInvalid: 'Invalid credit card number.',
  cardTypeRequired: 'Please select card type',
  cardTypeMismatch: 'The card number does not match the card type.',
  cvvInvalid: 'Invalid CVV code',
  cvvAmex: 'American Express cards have a 4-digit CVV code',
  monthInvalid: 'Invalid credit Card Expiration Month',
  yearInvalid: 'Invalid credit Card Expiration Year',
  yearPast: 'Something Wrong with Expiration Year',
  monthPast: 'Something Wrong with Expiration Month',
  oneYearRemaining: 'Please use credit card which has more than one year of expiry period remaining.',
  emailRequired: 'Cannot be empty',
  emailInvalid: 'Invalid email.',
  fieldRequired: "Field can't be empty",
  accountNumberRequired: 'Please enter account number',
  accountNumberInvalid: 'The account number must be 4 to 17 digits',
  routingNumberInvalid: 'Invalid ABA routing number',
} as const;

/** Saving methods and charging are limited per client and per address (a card-testing guard). */
export const TOO_MANY_PAYMENT_ATTEMPTS =
  'Too many payment attempts. Please wait an hour and try again, or contact us.';

const m = paymentMessages;

/** Digits only: spaces and dashes a person types are dropped. */
export function digitsOf(value: string): string {
  return value.replace(/[\s-]/g, '');
}

/** The Luhn check of a card number (12 to 19 digits). */
export function luhnValid(number: string): boolean {
  const digits = digitsOf(number);
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand a card number belongs to, from its prefix and length; null for brands not accepted. */
export function cardBrandOf(number: string): CardBrand | null {
  const d = digitsOf(number);
  const prefix = (n: number) => Number(d.slice(0, n));
  if (/^3[47]/.test(d) && d.length === 15) return 'American Express';
  if (d.startsWith('4') && (d.length === 13 || d.length === 16)) return 'Visa';
  if (d.length === 16 && ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720))) {
    return 'Mastercard';
  }
  if (
    d.length >= 16 &&
    d.length <= 19 &&
    (d.startsWith('6011') ||
      d.startsWith('65') ||
      (prefix(3) >= 644 && prefix(3) <= 649) ||
      (prefix(6) >= 622126 && prefix(6) <= 622925))
  ) {
    return 'Discover';
  }
  return null;
}

/** The ABA checksum: 3, 7, 1 weights over the nine digits. */
export function abaRoutingValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number) as number[];
  const sum =
    3 * ((d[0] ?? 0) + (d[3] ?? 0) + (d[6] ?? 0)) +
    7 * ((d[1] ?? 0) + (d[4] ?? 0) + (d[7] ?? 0)) +
    ((d[2] ?? 0) + (d[5] ?? 0) + (d[8] ?? 0));
  return sum % 10 === 0;
}

export type PaymentMethodType = 'card' | 'ach' | 'check';

/** The card processing fee of a price book as people read it ("3%"). */
export function cardFeePercent(book: PriceBook): string {
  return formatRate(book.cardProcessingFeeBasisPoints);
}

/** The card processing fee: the book's rate (3% as shipped) of the amount, rounded half up to the cent; ACH and check pay none. */
export function cardProcessingFee(book: PriceBook, amount: Cents, method: PaymentMethodType): Cents {
  if (method !== 'card') return 0;
  return feeAtRate(book.cardProcessingFeeBasisPoints, amount);
}

/** The card fee of an amount at a rate in basis points, rounded half up to the cent. */
export function feeAtRate(basisPoints: number, amount: Cents): Cents {
  return Math.floor((amount * basisPoints + 5_000) / 10_000);
}

/** Expiry years offered: the current year to the current year + 8 (DESIGN.md section 8, item 7). */
export function expiryYearsOffered(today: string): number[] {
  const year = Number(today.slice(0, 4));
  return Array.from({ length: 9 }, (_, i) => year + i);
}

export const EXPIRY_MONTHS = [
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '07',
  '08',
  '09',
  '10',
  '11',
  '12',
] as const;

/**
 * Whether a card expiring at the end of month/year has more than one year left after today.
 * A card valid through 12/2027 has more than a year left on 2026-11-30, not on 2026-12-31.
 */
export function hasMoreThanOneYearRemaining(month: number, year: number, today: string): boolean {
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const expiry = `${year}-${String(month).padStart(2, '0')}-${String(lastDay).padStart(2, '0')}`;
  const oneYearOnLastDay = new Date(Date.UTC(ty + 1, tm, 0)).getUTCDate();
  const oneYear = `${ty + 1}-${String(tm).padStart(2, '0')}-${String(Math.min(td, oneYearOnLastDay)).padStart(2, '0')}`;
  return expiry > oneYear;
}

/**
 * What is wrong with a card's expiry on today, and the field that says it: a month or year already
 * past, or, for a card kept on file, one year or less left. Null when nothing is.
 */
export function cardExpiryProblem(
  month: number,
  year: number,
  today: string,
  { keptOnFile }: { keptOnFile: boolean },
): { field: 'Month_of_Expiry' | 'Year_of_Expiry'; message: string } | null {
  const [thisYear, thisMonth] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  if (year < thisYear) return { field: 'Year_of_Expiry', message: m.yearPast };
  if (year === thisYear && month < thisMonth) return { field: 'Month_of_Expiry', message: m.monthPast };
  if (keptOnFile && !hasMoreThanOneYearRemaining(month, year, today)) {
    return { field: 'Year_of_Expiry', message: m.oneYearRemaining };
  }
  return null;
}

const requiredText = (max = 80) =>
  z.string({ error: m.fieldRequired }).trim().min(1, m.fieldRequired).max(max, tooLong(max));

/** Messages a form shows for an empty card field where its spec words differ from the payment page's. */
export type CardEmptyMessages = Partial<
  Record<
    | 'CVV'
    | 'Month_of_Expiry'
    | 'Year_of_Expiry'
    | 'Credit_Card_Holder_First_Name'
    | 'Credit_Card_Holder_Last_Name'
    | 'Credit_Card_Biling_Email_Address',
    string
  >
>;

/** How a card form checks its card: kept on file or used once, and its words for empty fields. */
export interface CardFormOptions {
  /**
   * The card is kept on file for later charges (the payment pages, the consent's card for annual
   * banking, the newborn agreement's installments, a form's "Save card" ticked): it must have more
   * than one year left (specs 1 and 2). A card used once only has to be unexpired (spec 3, section 5).
   */
  keptOnFile: boolean;
  whenEmpty?: CardEmptyMessages;
}

/**
 * The card form as the web holds it, before the number goes to the gateway's tokenizer.
 * Never sent to our server: the server receives a token and the display fields only.
 */
export function cardFormSchema(today: Today, { keptOnFile, whenEmpty = {} }: CardFormOptions) {
  const emptyOr = (field: keyof CardEmptyMessages, fallback: string) => whenEmpty[field] ?? fallback;
  const holderName = (field: 'Credit_Card_Holder_First_Name' | 'Credit_Card_Holder_Last_Name') =>
    z
      .string({ error: emptyOr(field, m.fieldRequired) })
      .trim()
      .min(1, emptyOr(field, m.fieldRequired))
      .max(80, tooLong(80));
  return z
    .object({
      Credit_Card_Number: z
        .string({ error: m.cardNumberRequired })
        .transform(digitsOf)
        .pipe(
          z
            .string()
            .min(1, m.cardNumberRequired)
            .max(16, m.cardNumberInvalid)
            .refine(luhnValid, m.cardNumberInvalid),
        ),
      Credit_Card_Type: z.enum(CARD_BRANDS, { error: m.cardTypeRequired }),
      CVV: z
        .string({ error: emptyOr('CVV', m.cvvInvalid) })
        .trim()
        .min(1, emptyOr('CVV', m.cvvInvalid))
        .regex(/^\d{3,4}$/, m.cvvInvalid),
      Month_of_Expiry: z.enum(EXPIRY_MONTHS, { error: emptyOr('Month_of_Expiry', m.monthInvalid) }),
      Year_of_Expiry: z
        .string({ error: emptyOr('Year_of_Expiry', m.yearInvalid) })
        .min(1, emptyOr('Year_of_Expiry', m.yearInvalid))
        .regex(/^\d{4}$/, m.yearInvalid)
        .refine((year) => {
          const offered = expiryYearsOffered(resolveToday(today));
          return offered.includes(Number(year)) || Number(year) < (offered[0] ?? 0);
        }, m.yearInvalid),
      Credit_Card_Holder_First_Name: holderName('Credit_Card_Holder_First_Name'),
      Credit_Card_Holder_Last_Name: holderName('Credit_Card_Holder_Last_Name'),
      Credit_Card_Biling_Email_Address: z
        .string({ error: emptyOr('Credit_Card_Biling_Email_Address', m.emailRequired) })
        .trim()
        .min(1, emptyOr('Credit_Card_Biling_Email_Address', m.emailRequired))
        .max(254, m.emailInvalid)
        .regex(EMAIL_PATTERN, m.emailInvalid),
      Country: requiredText(),
      // Not in spec 1: Authorize.Net's address verification refuses a Visa saved without the billing
      // street, city and state (the README records the deviation). Lengths are its XSD's.
      Credit_Card_Billing_Street: requiredText(60),
      Credit_Card_Billing_City: requiredText(40),
      Credit_Card_Billing_State: requiredText(40),
      Credit_Card_Billing_Zip_Code: requiredText(20),
    })
    .superRefine((card, ctx) => {
      // A number of a brand the bank does not take matches no type on the list.
      const numberValid =
        luhnValid(card.Credit_Card_Number) && digitsOf(card.Credit_Card_Number).length <= 16;
      if (numberValid && cardBrandOf(card.Credit_Card_Number) !== card.Credit_Card_Type) {
        ctx.addIssue({ code: 'custom', path: ['Credit_Card_Type'], message: m.cardTypeMismatch });
      }
      if (card.Credit_Card_Type === 'American Express' && card.CVV.length !== 4) {
        ctx.addIssue({ code: 'custom', path: ['CVV'], message: m.cvvAmex });
      }
      if (card.Credit_Card_Type !== 'American Express' && card.CVV.length !== 3) {
        ctx.addIssue({ code: 'custom', path: ['CVV'], message: m.cvvInvalid });
      }
      const expiry = cardExpiryProblem(
        Number(card.Month_of_Expiry),
        Number(card.Year_of_Expiry),
        resolveToday(today),
        { keptOnFile },
      );
      if (expiry) ctx.addIssue({ code: 'custom', path: [expiry.field], message: expiry.message });
    });
}

export type CardForm = z.infer<ReturnType<typeof cardFormSchema>>;

/** The ACH form as the web holds it, before the numbers go to the gateway's tokenizer. */
export const achFormSchema = z.object({
  Name_On_Account: requiredText(22),
  Account_Number: z
    .string({ error: m.accountNumberRequired })
    .trim()
    .min(1, m.accountNumberRequired)
    .regex(/^\d{4,17}$/, m.accountNumberInvalid),
  ABA_Routing_Number: z
    .string({ error: m.fieldRequired })
    .trim()
    .min(1, m.fieldRequired)
    .refine(abaRoutingValid, m.routingNumberInvalid),
});

export type AchForm = z.infer<typeof achFormSchema>;

/** What an order shows of its charge afterwards: the card fee, the total, the method and the transaction. */
export const chargedOrderFields = {
  processingFeeCents: z.number().int(),
  totalCents: z.number().int(),
  PaymentMethod: z.string(),
  paymentDescription: z.string(),
  TransactionId: z.string().nullable(),
};

/** What paying unpaid storage years by one method charges: their amount, the card fee on top, the total. */
export const storageChargeSchema = z.object({
  amountCents: z.number().int(),
  feeCents: z.number().int().describe('The card processing fee on top (older years only); 0 by ACH'),
  totalCents: z.number().int(),
});
export type StorageCharge = z.infer<typeof storageChargeSchema>;

/** What the unpaid storage years charge by card and by bank account (storage-billing.ts storageYearsCharge). */
export const storageChargesSchema = z.object({ card: storageChargeSchema, ach: storageChargeSchema });
export type StorageCharges = z.infer<typeof storageChargesSchema>;
