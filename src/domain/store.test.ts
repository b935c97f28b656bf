import { describe, expect, it } from 'vitest';
import { SHIPPED_PRICE_BOOK } from './price-book';

const book = SHIPPED_PRICE_BOOK;

import { priceStoreOrder, sendStoreRequestSchema, serumPricePerBottle, serumQuantityOf } from './store';

describe('Stem Cell Face Serum price (DESIGN.md deviation 5)', () => {
  it.each([
    [1, 22_500],
    [10, 22_500],
    [11, 20_000],
    [12, 20_000],
  ])('%i bottles cost %i cents a bottle', (quantity, each) => {
    expect(serumPricePerBottle(book, quantity)).toBe(each);
  });

  it('is the same at 10 and 11 whichever way the count got there (the legacy quirk is gone)', () => {
    // Up from 10 to 11, or down from 12 to 11: $200; down from 11 to 10, or up from 9: $225.
    expect(priceStoreOrder(book, 11, 'ach').itemsCents).toBe(220_000);
    expect(priceStoreOrder(book, 10, 'ach').itemsCents).toBe(225_000);
  });

  it('adds 3% by card only, shipping $0', () => {
    expect(priceStoreOrder(book, 11, 'card')).toMatchObject({
      itemsCents: 220_000,
      shippingCents: 0,
      processingFeeCents: 6_600,
      totalCents: 226_600,
    });
    expect(priceStoreOrder(book, 1, 'card')).toMatchObject({ processingFeeCents: 675, totalCents: 23_175 });
    expect(priceStoreOrder(book, 11, 'ach')).toMatchObject({ processingFeeCents: 0, totalCents: 220_000 });
  });

  it.each([
    ['3', 3],
    [' 12 ', 12],
    ['abc', 0],
    ['-1', 0],
    ['2.5', 0],
    ['', 0],
  ])('the quantity box "%s" becomes %i', (typed, quantity) => {
    expect(serumQuantityOf(typed)).toBe(quantity);
  });
});

describe('sendStoreRequestSchema', () => {
  const base = {
    stemskinserum: { quantity: 2 },
    ShipmentDate: '12/01/2026',
    FirstName: 'Jane',
    LastName: 'Doe',
    ShippingEmail: 'jane@example.com',
    Phone: '3055550142',
    Street: '1200 Brickell Avenue',
    City: 'Miami',
    State: 'FL',
    Country: 'United States',
    ZipCode: '33131',
    PaymentMethod: 'ACH Payment',
  };
  it('takes an order and refuses none of the bottles, a lettered phone and no method', () => {
    expect(sendStoreRequestSchema.safeParse(base).success).toBe(true);
    const bad = sendStoreRequestSchema.safeParse({
      ...base,
      stemskinserum: { quantity: 0 },
      Phone: '305-555-CALL',
      PaymentMethod: undefined,
    });
    const messages = bad.error?.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Please choose at least one bottle',
        'Please insert number only',
        'Please Select Payment Method.',
      ]),
    );
  });
  it('takes a phone as people type it, as its digits, and refuses one of the wrong length', () => {
    expect(sendStoreRequestSchema.parse({ ...base, Phone: '(305) 555-0142' }).Phone).toBe('3055550142');
    const short = sendStoreRequestSchema.safeParse({ ...base, Phone: '305-555' });
    expect(short.error?.issues.map((i) => i.message)).toEqual(['Please enter a 10-digit phone number']);
  });
});
