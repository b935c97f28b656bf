import { describe, expect, it } from 'vitest';
import { cardFeePercent, cardProcessingFee } from './payments';
import {
  isRate,
  PRICE_ENTRIES,
  PRICE_KEYS,
  priceAmountsSchema,
  priceBookOf,
  priceEntryProblem,
  priceVersionMessages,
  SHIPPED_PRICE_AMOUNTS,
  SHIPPED_PRICE_BOOK,
} from './price-book';
import { priceStoragePlan } from './storage-plans';
import { fedexShippingCharge } from './vial-request-price';

describe('the price book', () => {
  it('names every amount once, and the shipped book is a whole valid book', () => {
    expect(new Set(PRICE_KEYS).size).toBe(PRICE_ENTRIES.length);
    expect(Object.keys(SHIPPED_PRICE_AMOUNTS).sort()).toEqual([...PRICE_KEYS].sort());
    expect(priceAmountsSchema.safeParse(SHIPPED_PRICE_AMOUNTS).success).toBe(true);
  });

  it('keeps rates in basis points, at most 100%, and amounts in cents, at most $100,000', () => {
    expect(isRate('cardProcessingFee')).toBe(true);
    expect(isRate('vialPrice')).toBe(false);
    const over = (key: string, value: number) =>
      priceAmountsSchema.safeParse({ ...SHIPPED_PRICE_AMOUNTS, [key]: value }).success;
    expect(over('cardProcessingFee', 10_000)).toBe(true);
    expect(over('cardProcessingFee', 10_001)).toBe(false);
    expect(over('vialPrice', 10_000_000)).toBe(true);
    expect(over('vialPrice', 10_000_001)).toBe(false);
  });

  it("prices with the version's own rates: the card fee and FedEx's mark-up", () => {
    const book = priceBookOf({
      ...SHIPPED_PRICE_AMOUNTS,
      cardProcessingFee: 350,
      fedexShippingMarkup: 2_500,
    });
    expect(cardProcessingFee(SHIPPED_PRICE_BOOK, 10_000, 'card')).toBe(300);
    expect(cardProcessingFee(book, 10_000, 'card')).toBe(350);
    expect(cardProcessingFee(book, 10_000, 'ach')).toBe(0);
    expect(cardFeePercent(book)).toBe('3.5%');
    // $91.80 net: x1.20 = $110.16 as shipped, x1.25 = $114.75 in this version.
    expect(fedexShippingCharge(SHIPPED_PRICE_BOOK, 9_180)).toBe(11_016);
    expect(fedexShippingCharge(book, 9_180)).toBe(11_475);
  });

  it('shows each storage plan\u2019s prepaid discount against the list price of the same version', () => {
    const book = priceBookOf({ ...SHIPPED_PRICE_AMOUNTS, storageYearListPrice: 40_000 });
    // 5 years at $400 = $2,000; the plan's $1,575 is 21% less (rounded).
    expect(book.annualStoragePlans.find((p) => p.id === '5 Year')?.discountPercent).toBe(21);
    expect(SHIPPED_PRICE_BOOK.annualStoragePlans.find((p) => p.id === '5 Year')?.discountPercent).toBe(10);
    const price = priceStoragePlan(book, {
      annualStoragePlan: '5 Year',
      plan: 'No additional Plan',
      paymentMethod: 'card',
    });
    expect(price.totalCents).toBe(157_500 + 4_725);
  });
});

describe('an entry as an admin typed it', () => {
  it('names a slip, and holds the server limits', () => {
    expect(priceEntryProblem('vialPrice', null)).toEqual({ problem: priceVersionMessages.amountTyped });
    expect(priceEntryProblem('cardProcessingFee', null)).toEqual({ problem: priceVersionMessages.rateTyped });
    expect(priceEntryProblem('vialPrice', 15_000_000)).toEqual({ problem: 'At most $100,000.00' });
    expect(priceEntryProblem('cardProcessingFee', 10_500)).toEqual({ problem: 'At most 100%' });
    expect(priceEntryProblem('vialPrice', 55_000)).toEqual({ value: 55_000 });
  });
});
