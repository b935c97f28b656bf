import { describe, expect, it } from 'vitest';
import { SHIPPED_PRICE_BOOK } from './price-book';

const book = SHIPPED_PRICE_BOOK;

import { storeEarliestShipmentDate } from './carrier-calendar';
import {
  priceStoreOrder,
  sendStoreRequestSchema,
  serumPricePerBottle,
  serumQuantityOf,
  serumQuantityProblem,
  storeShipmentDateProblem,
} from './store';

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
    ['99', 99],
    ['150', 150],
    ['1000', 1000],
  ])('the quantity box "%s" becomes %i', (typed, quantity) => {
    expect(serumQuantityOf(typed)).toBe(quantity);
  });

  it.each([
    [0, 'Please choose at least one bottle'],
    [1, null],
    [99, null],
    [
      100,
      'Please choose at most 99 bottles. For a larger order, please contact ACT directly by phone or email.',
    ],
    [
      1000,
      'Please choose at most 99 bottles. For a larger order, please contact ACT directly by phone or email.',
    ],
  ])('%i bottles: %s', (quantity, message) => {
    expect(serumQuantityProblem(quantity)).toBe(message);
  });
});

describe('the store arrival date: one rule for the page and the server (DESIGN.md 8.31)', () => {
  // Today Monday 2026-11-23: the earliest date is Thursday 11-26, Thanksgiving; staff black out 12-02.
  const rules = { earliest: '2026-11-26', blackoutDates: ['2026-12-02'] };
  const contact = 'Please contact ACT directly by phone or email for this store order date.';
  it.each([
    ['today + 1 (Tuesday)', '2026-11-24', contact],
    ['today + 2 (Wednesday), the day before the earliest', '2026-11-25', contact],
    [
      'the earliest date when it is Thanksgiving',
      '2026-11-26',
      'FedEx does not deliver on Holidays. Please choose a different date from holiday for shipment arrival.',
    ],
    [
      'the day after Thanksgiving',
      '2026-11-27',
      'FedEx does not deliver on the day after a holiday. Please choose a different date from the day after a holiday for shipment arrival.',
    ],
    ['a Saturday after it', '2026-11-28', null],
    [
      'a Sunday',
      '2026-11-29',
      'FedEx does not deliver on Sunday and Monday. Please choose a different date from Tuesday to Saturday for shipment arrival',
    ],
    [
      'a Monday',
      '2026-11-30',
      'FedEx does not deliver on Sunday and Monday. Please choose a different date from Tuesday to Saturday for shipment arrival',
    ],
    ['a Tuesday', '2026-12-01', null],
    ['a staff blackout Wednesday', '2026-12-02', contact],
    ['the Thursday after it', '2026-12-03', null],
    ['a date in 2050', '2050-01-04', 'Invalid date'],
  ])('%s (%s): %s', (_what, date, message) => {
    expect(storeShipmentDateProblem(date, rules)?.message ?? null).toBe(message);
  });

  // The 3-day rule from "today" itself (spec 3 section 2: the earliest selectable date is 3 days
  // from today), on both sides of a weekend, with staff blacking out Tuesday 2027-06-08.
  const contactAct = 'Please contact ACT directly by phone or email for this store order date.';
  const noSundayMonday =
    'FedEx does not deliver on Sunday and Monday. Please choose a different date from Tuesday to Saturday for shipment arrival';
  it.each([
    // Today Wednesday 2027-06-02: + 3 is Saturday 06-05.
    ['Wednesday', '2027-06-02', 'today', '2027-06-02', contactAct],
    ['Wednesday', '2027-06-02', 'today + 1 (Thursday)', '2027-06-03', contactAct],
    ['Wednesday', '2027-06-02', 'today + 2 (Friday)', '2027-06-04', contactAct],
    ['Wednesday', '2027-06-02', 'today + 3 (Saturday)', '2027-06-05', null],
    ['Wednesday', '2027-06-02', 'today + 4 (Sunday)', '2027-06-06', noSundayMonday],
    ['Wednesday', '2027-06-02', 'today + 5 (Monday)', '2027-06-07', noSundayMonday],
    ['Wednesday', '2027-06-02', 'today + 6 (Tuesday, blacked out)', '2027-06-08', contactAct],
    ['Wednesday', '2027-06-02', 'today + 7 (Wednesday)', '2027-06-09', null],
    // Today Friday 2027-06-04: + 3 is Monday 06-07, + 4 Tuesday 06-08 blacked out by staff.
    ['Friday', '2027-06-04', 'today + 2 (Sunday)', '2027-06-06', contactAct],
    ['Friday', '2027-06-04', 'today + 3 (Monday)', '2027-06-07', noSundayMonday],
    ['Friday', '2027-06-04', 'today + 4 (Tuesday, blacked out)', '2027-06-08', contactAct],
    ['Friday', '2027-06-04', 'today + 5 (Wednesday)', '2027-06-09', null],
    // Today Saturday 2027-06-05: + 3 is Tuesday 06-08, blacked out; the Saturday itself is too soon.
    ['Saturday', '2027-06-05', 'today', '2027-06-05', contactAct],
    ['Saturday', '2027-06-05', 'today + 3 (Tuesday, blacked out)', '2027-06-08', contactAct],
  ])('today %s %s, %s %s: %s', (_weekday, today, _what, date, message) => {
    const rules = { earliest: storeEarliestShipmentDate(today), blackoutDates: ['2027-06-08'] };
    expect(storeShipmentDateProblem(date, rules)?.message ?? null).toBe(message);
  });

  it('never says "stem cell request date"', () => {
    for (const date of ['2026-11-24', '2026-12-02']) {
      expect(storeShipmentDateProblem(date, rules)?.message).not.toContain('stem cell request');
    }
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

  it('refuses more than 99 bottles with a message that says so', () => {
    const parsed = sendStoreRequestSchema.safeParse({ ...base, stemskinserum: { quantity: 100 } });
    expect(parsed.error?.issues.map((i) => i.message)).toEqual([
      'Please choose at most 99 bottles. For a larger order, please contact ACT directly by phone or email.',
    ]);
  });

  it("refuses a date that is not one with 'Invalid date'", () => {
    const parsed = sendStoreRequestSchema.safeParse({ ...base, ShipmentDate: '02/30/2027' });
    expect(parsed.error?.issues.map((i) => i.message)).toEqual(['Invalid date']);
  });

  it('takes a phone as people type it, as its digits, and refuses one of the wrong length', () => {
    expect(sendStoreRequestSchema.parse({ ...base, Phone: '(305) 555-0142' }).Phone).toBe('3055550142');
    const short = sendStoreRequestSchema.safeParse({ ...base, Phone: '305-555' });
    expect(short.error?.issues.map((i) => i.message)).toEqual(['Please enter a 10-digit phone number']);
  });
});
