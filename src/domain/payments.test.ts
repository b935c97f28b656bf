import { describe, expect, it } from 'vitest';
import {
  abaRoutingValid,
  achFormSchema,
  type CardBrand,
  type CardForm,
  cardBrandOf,
  cardExpiryProblem,
  cardFormSchema,
  cardProcessingFee,
  expiryYearsOffered,
  hasMoreThanOneYearRemaining,
  luhnValid,
  type PaymentMethodType,
  paymentMessages,
} from './payments';
import { SHIPPED_PRICE_BOOK } from './price-book';

const m = paymentMessages;
const TODAY = '2025-06-15';

const validCard: CardForm = {
  Credit_Card_Number: '4111111111111111',
  Credit_Card_Type: 'Visa',
  CVV: '123',
  Month_of_Expiry: '12',
  Year_of_Expiry: '2027',
  Credit_Card_Holder_First_Name: 'Jane',
  Credit_Card_Holder_Last_Name: 'Doe',
  Credit_Card_Biling_Email_Address: 'jane.doe@example.com',
  Country: 'USA',
  Credit_Card_Billing_Street: '1200 Ocean Drive',
  Credit_Card_Billing_City: 'Miami Beach',
  Credit_Card_Billing_State: 'FL',
  Credit_Card_Billing_Zip_Code: '33139',
};

const validAch = {
  Name_On_Account: 'Jane Doe',
  Account_Number: '000123456789',
  ABA_Routing_Number: '110000000',
};

type CardField = keyof CardForm;
type AchField = keyof typeof validAch;

/** The first message of each failing field: what the form shows under that field. */
function firstMessageByField(result: {
  success: boolean;
  error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };
}): Record<string, string> {
  if (result.success || !result.error) return {};
  const messages: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    if (!(field in messages)) messages[field] = issue.message;
  }
  return messages;
}

/** The payment page's card, kept on file: the rules most cases here are about. */
const KEPT = { keptOnFile: true };

function cardFailures(
  patch: Partial<Record<CardField, unknown>>,
  today = TODAY,
  options: { keptOnFile: boolean } = KEPT,
): Record<string, string> {
  return firstMessageByField(cardFormSchema(today, options).safeParse({ ...validCard, ...patch }));
}

function achFailures(patch: Partial<Record<AchField, unknown>>): Record<string, string> {
  return firstMessageByField(achFormSchema.safeParse({ ...validAch, ...patch }));
}

function withoutCardField(field: CardField): Record<string, unknown> {
  return Object.fromEntries(Object.entries(validCard).filter(([key]) => key !== field));
}

describe('luhnValid', () => {
  // Research section 2.3: every documented test card number passes the Luhn check.
  it.each([
    '4111111111111111',
    '4007000000027',
    '4012888818888',
    '5424000000000015',
    '2223000010309703',
    '2223000010309711',
    '370000000000002',
    '6011000000000012',
    '3088000000000017',
    '38000000000006',
    '4242424242424242',
    '5555555555554444',
    '378282246310005',
    '6011111111111117',
    '4000000000000002',
    '4000000000009995',
    '4000000000009987',
    '4000000000009979',
    '4000000000000069',
    '4000000000000127',
    '4000000000000119',
    '4000000000000341',
    '4000002500003155',
    '4000000000003220',
  ])('accepts the documented test card %s', (number) => {
    expect(luhnValid(number)).toBe(true);
  });

  it.each([
    ['4242424242424241', 'the documented incorrect_number card, last digit off by one'],
    ['4111111111111112', 'a valid Visa with its check digit changed'],
    ['0'.repeat(11), '11 digits, one short of the minimum, though the digit sum is 0'],
    ['0'.repeat(20), '20 digits, one over the maximum, though the digit sum is 0'],
    ['', 'nothing'],
    ['4111a11111111111', 'a letter among the digits'],
    ['4111.1111.1111.1111', 'dots between the groups'],
    ['４１１１１１１１１１１１１１１１', 'full-width digits'],
  ])('refuses %j (%s)', (number) => {
    expect(luhnValid(number)).toBe(false);
  });

  it.each([
    ['0'.repeat(12), 'exactly 12 digits, the minimum'],
    ['0'.repeat(19), 'exactly 19 digits, the maximum'],
    ['4111 1111 1111 1111', 'Visa grouped by spaces'],
    ['4111-1111-1111-1111', 'Visa grouped by dashes'],
    ['3782 822463 10005', 'Amex grouped 4-6-5 as printed'],
    [' 5555-5555 5555-4444 ', 'spaces and dashes mixed, with spaces around'],
  ])('accepts %j (%s)', (number) => {
    expect(luhnValid(number)).toBe(true);
  });
});

describe('cardBrandOf', () => {
  const cases: Array<[string, CardBrand | null, string]> = [
    // Visa: prefix 4, 13 or 16 digits.
    ['4007000000027', 'Visa', 'Visa of 13 digits'],
    ['4111111111111111', 'Visa', 'Visa of 16 digits'],
    ['411111111111', null, 'a 4 of 12 digits'],
    ['41111111111111', null, 'a 4 of 14 digits'],
    ['411111111111111', null, 'a 4 of 15 digits'],
    ['41111111111111111', null, 'a 4 of 17 digits'],
    // Mastercard: 51-55 and 2221-2720, 16 digits.
    ['5099999999999999', null, '50, just below the 51-55 range'],
    ['5100000000000000', 'Mastercard', '51, the first of the 5-series'],
    ['5424000000000015', 'Mastercard', 'the Authorize.Net test Mastercard'],
    ['5555555555554444', 'Mastercard', '55, the last of the 5-series'],
    ['5600000000000000', null, '56, just above the 51-55 range'],
    ['2220999999999999', null, '2220, just below the 2-series'],
    ['2221000000000000', 'Mastercard', '2221, the first of the 2-series'],
    ['2223000010309703', 'Mastercard', 'the Authorize.Net 2-series test card'],
    ['2720999999999999', 'Mastercard', '2720, the last of the 2-series'],
    ['2721000000000000', null, '2721, just above the 2-series'],
    ['510000000000000', null, 'a Mastercard prefix with 15 digits'],
    ['51000000000000000', null, 'a Mastercard prefix with 17 digits'],
    // American Express: 34 or 37, 15 digits.
    ['340000000000009', 'American Express', '34 with 15 digits'],
    ['370000000000002', 'American Express', '37 with 15 digits'],
    ['378282246310005', 'American Express', 'the Stripe test Amex'],
    ['330000000000000', null, '33, just below 34'],
    ['350000000000000', null, '35, between 34 and 37'],
    ['360000000000000', null, '36, between 34 and 37 (Diners)'],
    ['380000000000000', null, '38, just above 37'],
    ['3400000000000000', null, '34 with 16 digits'],
    ['37000000000000', null, '37 with 14 digits'],
    // Discover: 6011, 644-649, 65, 622126-622925, 16 to 19 digits.
    ['6011000000000012', 'Discover', '6011'],
    ['6010999999999999', null, '6010, just below 6011'],
    ['6012000000000000', null, '6012, just above 6011'],
    ['6439999999999999', null, '643, just below 644'],
    ['6440000000000000', 'Discover', '644, the first of 644-649'],
    ['6499999999999999', 'Discover', '649, the last of 644-649'],
    ['6500000000000000', 'Discover', '65'],
    ['6599999999999999', 'Discover', 'the end of 65'],
    ['6600000000000000', null, '66, just above 65'],
    ['6221259999999999', null, '622125, just below the UnionPay co-brand range'],
    ['6221260000000000', 'Discover', '622126, the first of the UnionPay co-brand range'],
    ['6229250000000000', 'Discover', '622925, the last of the UnionPay co-brand range'],
    ['6229260000000000', null, '622926, just above the UnionPay co-brand range'],
    ['601100000000000', null, 'Discover prefix with 15 digits'],
    ['6011000000000000001', 'Discover', 'Discover prefix with 19 digits'],
    ['60110000000000000001', null, 'Discover prefix with 20 digits'],
    // Brands the bank does not accept, and no card at all.
    ['3088000000000017', null, 'JCB (legacy 3088 range)'],
    ['3530111333300000', null, 'JCB (3528-3589)'],
    ['38000000000006', null, 'Diners Club'],
    ['30569309025904', null, 'Diners Club 305'],
    ['', null, 'nothing'],
    // What a person types.
    ['4111 1111 1111 1111', 'Visa', 'Visa grouped by spaces'],
    ['3782-822463-10005', 'American Express', 'Amex grouped by dashes'],
  ];

  it.each(cases)('%s is %j (%s)', (number, brand) => {
    expect(cardBrandOf(number)).toBe(brand);
  });
});

describe('abaRoutingValid', () => {
  it.each([
    ['110000000', 'the Stripe test routing number'],
    ['021000021', 'a checksum example'],
    ['111000025', 'an Authorize.Net example'],
    ['011000015', 'an Authorize.Net example'],
    ['121042882', 'an Authorize.Net example'],
    ['122105278', 'a checksum example'],
  ])('accepts %s (%s)', (routing) => {
    expect(abaRoutingValid(routing)).toBe(true);
  });

  it.each([
    ['123456789', 'the documented failing checksum'],
    ['021000022', 'a valid number with its check digit changed'],
    ['110000001', 'the Stripe number with its last digit changed'],
    ['11000000', '8 digits'],
    ['1100000000', '10 digits'],
    ['11000000a', 'a letter for the last digit'],
    ['', 'nothing'],
  ])('refuses %j (%s)', (routing) => {
    expect(abaRoutingValid(routing)).toBe(false);
  });
});

describe('cardProcessingFee', () => {
  it.each([
    [0, 0, 'nothing to pay'],
    [1, 0, '0.03 cents rounds down'],
    [16, 0, '0.48 cents rounds down'],
    [17, 1, '0.51 cents rounds up'],
    [49, 1, '1.47 cents rounds down'],
    [50, 2, '1.5 cents, exactly half, rounds up'],
    [150, 5, '4.5 cents, exactly half, rounds up'],
    [100, 3, 'a dollar'],
    [33_333, 1_000, '999.99 cents rounds up to ten dollars'],
    [33_981, 1_019, 'the annual maintenance fee: 1019.43 cents rounds down'],
    [35_000, 1_050, 'the card or check future payment amount'],
    [50_000, 1_500, 'the retrieval fee for one vial'],
    [101_943, 3_058, 'three annual fees: 3058.29 cents rounds down'],
  ])('a card payment of %i cents carries a fee of %i cents (%s)', (amount, fee) => {
    expect(cardProcessingFee(SHIPPED_PRICE_BOOK, amount, 'card')).toBe(fee);
  });

  it.each([
    ['ach', 0],
    ['ach', 50],
    ['ach', 33_981],
    ['check', 0],
    ['check', 50],
    ['check', 35_000],
  ] as Array<[PaymentMethodType, number]>)('%s pays no fee on %i cents', (method, amount) => {
    expect(cardProcessingFee(SHIPPED_PRICE_BOOK, amount, method)).toBe(0);
  });
});

describe('expiryYearsOffered', () => {
  it.each([
    ['2025-06-15', 2025],
    ['2025-01-01', 2025],
    ['2025-12-31', 2025],
    ['2026-01-01', 2026],
    ['2028-02-29', 2028],
  ])('on %s offers the current year %i to 8 years later', (today, first) => {
    expect(expiryYearsOffered(today)).toEqual([
      first,
      first + 1,
      first + 2,
      first + 3,
      first + 4,
      first + 5,
      first + 6,
      first + 7,
      first + 8,
    ]);
  });
});

describe('hasMoreThanOneYearRemaining', () => {
  // A card is valid through the last day of its expiry month.
  it.each([
    [12, 2027, '2026-11-30', true, 'the documented example: more than a year on Nov 30'],
    [12, 2027, '2026-12-30', true, 'one day more than a year'],
    [12, 2027, '2026-12-31', false, 'exactly one year on Dec 31 is not more than one year'],
    [6, 2026, '2025-06-29', true, 'one day more than a year at a 30-day month end'],
    [6, 2026, '2025-06-30', false, 'exactly one year at a 30-day month end'],
    [6, 2026, '2025-06-15', true, 'mid-month: the card runs to the end of June'],
    [5, 2026, '2025-06-01', false, 'the month before, a year on'],
    [1, 2026, '2025-01-30', true, 'one day more than a year at the end of January'],
    [1, 2026, '2025-01-31', false, 'exactly one year at the end of January'],
    [1, 2027, '2025-12-31', true, 'the December to January turn: a month more than a year'],
    [12, 2026, '2025-12-31', false, 'the December to January turn: exactly a year'],
    [12, 2026, '2025-12-01', true, 'December through December, from the first'],
    [12, 2025, '2025-06-15', false, 'expires this year'],
    [6, 2025, '2025-06-15', false, 'expires this month'],
    [3, 2025, '2025-06-15', false, 'already expired'],
    [2, 2026, '2025-02-28', false, 'common years: Feb 28 to Feb 28 is exactly a year'],
    [3, 2026, '2025-02-28', true, 'common years: the month after'],
    [2, 2024, '2023-02-28', true, 'expiring in a leap February: Feb 29 is a day past the year'],
    [2, 2024, '2023-03-01', false, 'expiring in a leap February, seen from March 1'],
    [2, 2025, '2024-02-29', false, 'seen from leap day: a year on clamps to Feb 28'],
    [3, 2025, '2024-02-29', true, 'seen from leap day: the month after'],
    [2, 2029, '2028-02-29', false, 'seen from a later leap day: Feb 28 of the next year'],
    [2, 2028, '2027-02-28', true, 'from Feb 28 of a common year to a leap February'],
  ])('a card through %i/%i, seen on %s: %s (%s)', (month, year, today, expected) => {
    expect(hasMoreThanOneYearRemaining(month, year, today)).toBe(expected);
  });
});

describe('cardExpiryProblem', () => {
  const oneYear = 'Please use credit card which has more than one year of expiry period remaining.';
  it.each([
    [2, 2026, '2025-06-15', true, { field: 'Year_of_Expiry', message: oneYear }, 'kept, 8 months left'],
    [2, 2026, '2025-06-15', false, null, 'used once, 8 months left'],
    [6, 2026, '2025-06-29', true, null, 'kept, one day more than a year'],
    [6, 2026, '2025-06-30', true, { field: 'Year_of_Expiry', message: oneYear }, 'kept, exactly a year'],
    [6, 2025, '2025-06-30', false, null, 'used once, on the last day of its month'],
    [
      6,
      2025,
      '2025-07-01',
      false,
      { field: 'Month_of_Expiry', message: 'Something Wrong with Expiration Month' },
      'used once, the day after its month',
    ],
    [
      12,
      2025,
      '2026-01-01',
      false,
      { field: 'Year_of_Expiry', message: 'Something Wrong with Expiration Year' },
      'used once, on New Year’s Day after',
    ],
    [
      12,
      2025,
      '2026-01-01',
      true,
      { field: 'Year_of_Expiry', message: 'Something Wrong with Expiration Year' },
      'kept, expired: the past year is said first',
    ],
  ] as Array<[number, number, string, boolean, { field: string; message: string } | null, string]>)(
    'a card through %i/%i on %s, kept %s: %j (%s)',
    (month, year, today, keptOnFile, expected) => {
      expect(cardExpiryProblem(month, year, today, { keptOnFile })).toEqual(expected);
    },
  );
});

describe('cardFormSchema', () => {
  it.each([
    ['Visa', '4111111111111111', '123'],
    ['Visa', '4007000000027', '123'],
    ['Mastercard', '5424000000000015', '123'],
    ['Mastercard', '2223000010309703', '123'],
    ['American Express', '370000000000002', '1234'],
    ['Discover', '6011000000000012', '123'],
  ] as Array<[CardBrand, string, string]>)('accepts a %s card %s with CVV %s', (type, number, cvv) => {
    expect(cardFailures({ Credit_Card_Type: type, Credit_Card_Number: number, CVV: cvv })).toEqual({});
  });

  it('keeps only the digits of a card number typed with spaces or dashes', () => {
    const parsed = cardFormSchema(TODAY, KEPT).parse({
      ...validCard,
      Credit_Card_Number: '4111 1111-1111 1111',
    });
    expect(parsed.Credit_Card_Number).toBe('4111111111111111');
  });

  const refusals: Array<[string, Partial<Record<CardField, unknown>>, CardField, string]> = [
    // Card number.
    ['an empty card number', { Credit_Card_Number: '' }, 'Credit_Card_Number', m.cardNumberRequired],
    [
      'a card number of spaces and dashes only',
      { Credit_Card_Number: ' - - ' },
      'Credit_Card_Number',
      m.cardNumberRequired,
    ],
    [
      'a card number that is not text',
      { Credit_Card_Number: 4111111111111111 },
      'Credit_Card_Number',
      m.cardNumberRequired,
    ],
    [
      'a card number failing Luhn',
      { Credit_Card_Number: '4242424242424241' },
      'Credit_Card_Number',
      m.cardNumberInvalid,
    ],
    [
      'a card number with a letter',
      { Credit_Card_Number: '4111a11111111111' },
      'Credit_Card_Number',
      m.cardNumberInvalid,
    ],
    [
      'a card number of 11 digits',
      { Credit_Card_Number: '0'.repeat(11) },
      'Credit_Card_Number',
      m.cardNumberInvalid,
    ],
    [
      'a Luhn-valid Discover of 19 digits, over the 16 the form holds',
      { Credit_Card_Number: '6011000000000000001', Credit_Card_Type: 'Discover' },
      'Credit_Card_Number',
      m.cardNumberInvalid,
    ],
    [
      'a Luhn-valid number of 17 digits',
      { Credit_Card_Number: '0'.repeat(17) },
      'Credit_Card_Number',
      m.cardNumberInvalid,
    ],
    // Card type.
    ['no card type chosen', { Credit_Card_Type: '' }, 'Credit_Card_Type', m.cardTypeRequired],
    [
      'a card type the bank does not take',
      { Credit_Card_Type: 'JCB' },
      'Credit_Card_Type',
      m.cardTypeRequired,
    ],
    ['a card type in lower case', { Credit_Card_Type: 'visa' }, 'Credit_Card_Type', m.cardTypeRequired],
    [
      'a Visa number chosen as Mastercard',
      { Credit_Card_Type: 'Mastercard' },
      'Credit_Card_Type',
      m.cardTypeMismatch,
    ],
    [
      'a Mastercard 2-series number chosen as Visa',
      { Credit_Card_Number: '2223000010309703' },
      'Credit_Card_Type',
      m.cardTypeMismatch,
    ],
    [
      'a Discover number chosen as American Express',
      { Credit_Card_Number: '6011000000000012', Credit_Card_Type: 'American Express', CVV: '1234' },
      'Credit_Card_Type',
      m.cardTypeMismatch,
    ],
    // CVV.
    ['an empty CVV', { CVV: '' }, 'CVV', m.cvvInvalid],
    ['a CVV of 2 digits', { CVV: '12' }, 'CVV', m.cvvInvalid],
    ['a CVV of 5 digits', { CVV: '12345' }, 'CVV', m.cvvInvalid],
    ['a CVV with a letter', { CVV: '12a' }, 'CVV', m.cvvInvalid],
    ['a CVV that is not text', { CVV: 123 }, 'CVV', m.cvvInvalid],
    ['a 4-digit CVV on a Visa', { CVV: '1234' }, 'CVV', m.cvvInvalid],
    [
      'a 4-digit CVV on a Mastercard',
      { Credit_Card_Number: '5555555555554444', Credit_Card_Type: 'Mastercard', CVV: '1234' },
      'CVV',
      m.cvvInvalid,
    ],
    [
      'a 4-digit CVV on a Discover',
      { Credit_Card_Number: '6011111111111117', Credit_Card_Type: 'Discover', CVV: '1234' },
      'CVV',
      m.cvvInvalid,
    ],
    [
      'a 3-digit CVV on an American Express',
      { Credit_Card_Number: '378282246310005', Credit_Card_Type: 'American Express', CVV: '123' },
      'CVV',
      m.cvvAmex,
    ],
    // Expiry month.
    ['month 13', { Month_of_Expiry: '13' }, 'Month_of_Expiry', m.monthInvalid],
    ['month 00', { Month_of_Expiry: '00' }, 'Month_of_Expiry', m.monthInvalid],
    ['no month', { Month_of_Expiry: '' }, 'Month_of_Expiry', m.monthInvalid],
    ['a month without its leading zero', { Month_of_Expiry: '6' }, 'Month_of_Expiry', m.monthInvalid],
    ['a month as a number', { Month_of_Expiry: 6 }, 'Month_of_Expiry', m.monthInvalid],
    // Expiry year.
    ['no year', { Year_of_Expiry: '' }, 'Year_of_Expiry', m.yearInvalid],
    ['a two-digit year', { Year_of_Expiry: '27' }, 'Year_of_Expiry', m.yearInvalid],
    ['a year in words', { Year_of_Expiry: 'abcd' }, 'Year_of_Expiry', m.yearInvalid],
    ['a year as a number', { Year_of_Expiry: 2027 }, 'Year_of_Expiry', m.yearInvalid],
    [
      'the year after the last one offered (2034)',
      { Year_of_Expiry: '2034' },
      'Year_of_Expiry',
      m.yearInvalid,
    ],
    ['a year far ahead', { Year_of_Expiry: '2099' }, 'Year_of_Expiry', m.yearInvalid],
    // Expiry date as a whole.
    ['last year', { Year_of_Expiry: '2024' }, 'Year_of_Expiry', m.yearPast],
    ['a year long gone', { Year_of_Expiry: '2000' }, 'Year_of_Expiry', m.yearPast],
    [
      'a past month of the current year',
      { Year_of_Expiry: '2025', Month_of_Expiry: '05' },
      'Month_of_Expiry',
      m.monthPast,
    ],
    [
      'January of the current year',
      { Year_of_Expiry: '2025', Month_of_Expiry: '01' },
      'Month_of_Expiry',
      m.monthPast,
    ],
    [
      'the current month, not past but less than a year left',
      { Year_of_Expiry: '2025', Month_of_Expiry: '06' },
      'Year_of_Expiry',
      m.oneYearRemaining,
    ],
    [
      'December of the current year',
      { Year_of_Expiry: '2025', Month_of_Expiry: '12' },
      'Year_of_Expiry',
      m.oneYearRemaining,
    ],
    [
      'next year, one month short of a year',
      { Year_of_Expiry: '2026', Month_of_Expiry: '05' },
      'Year_of_Expiry',
      m.oneYearRemaining,
    ],
    // Billing e-mail.
    [
      'an empty billing email',
      { Credit_Card_Biling_Email_Address: '' },
      'Credit_Card_Biling_Email_Address',
      m.emailRequired,
    ],
    [
      'a billing email of spaces',
      { Credit_Card_Biling_Email_Address: '   ' },
      'Credit_Card_Biling_Email_Address',
      m.emailRequired,
    ],
    [
      'a billing email without @',
      { Credit_Card_Biling_Email_Address: 'jane.doe' },
      'Credit_Card_Biling_Email_Address',
      m.emailInvalid,
    ],
    [
      'a billing email without a dot in the domain',
      { Credit_Card_Biling_Email_Address: 'jane@example' },
      'Credit_Card_Biling_Email_Address',
      m.emailInvalid,
    ],
    [
      'a billing email with a space inside',
      { Credit_Card_Biling_Email_Address: 'jane doe@example.com' },
      'Credit_Card_Biling_Email_Address',
      m.emailInvalid,
    ],
    [
      'a billing email of 255 characters',
      { Credit_Card_Biling_Email_Address: `${'a'.repeat(243)}@example.com` },
      'Credit_Card_Biling_Email_Address',
      m.emailInvalid,
    ],
    // Names, country, zip.
    [
      'an empty first name',
      { Credit_Card_Holder_First_Name: '' },
      'Credit_Card_Holder_First_Name',
      m.fieldRequired,
    ],
    [
      'a first name of spaces',
      { Credit_Card_Holder_First_Name: '  ' },
      'Credit_Card_Holder_First_Name',
      m.fieldRequired,
    ],
    [
      'an empty last name',
      { Credit_Card_Holder_Last_Name: '' },
      'Credit_Card_Holder_Last_Name',
      m.fieldRequired,
    ],
    [
      'a last name of tabs',
      { Credit_Card_Holder_Last_Name: '\t\t' },
      'Credit_Card_Holder_Last_Name',
      m.fieldRequired,
    ],
    ['an empty country', { Country: '' }, 'Country', m.fieldRequired],
    ['a country of spaces', { Country: '   ' }, 'Country', m.fieldRequired],
    [
      'an empty billing street',
      { Credit_Card_Billing_Street: '' },
      'Credit_Card_Billing_Street',
      m.fieldRequired,
    ],
    [
      'a billing street of spaces',
      { Credit_Card_Billing_Street: '  ' },
      'Credit_Card_Billing_Street',
      m.fieldRequired,
    ],
    ['an empty billing city', { Credit_Card_Billing_City: '' }, 'Credit_Card_Billing_City', m.fieldRequired],
    [
      'an empty billing state',
      { Credit_Card_Billing_State: '' },
      'Credit_Card_Billing_State',
      m.fieldRequired,
    ],
    ['an empty zip', { Credit_Card_Billing_Zip_Code: '' }, 'Credit_Card_Billing_Zip_Code', m.fieldRequired],
    [
      'a zip of spaces',
      { Credit_Card_Billing_Zip_Code: ' ' },
      'Credit_Card_Billing_Zip_Code',
      m.fieldRequired,
    ],
  ];

  it.each(refusals)('refuses %s', (_label, patch, field, message) => {
    expect(cardFailures(patch)).toEqual({ [field]: message });
  });

  const requiredFields: Array<[CardField, string]> = [
    ['Credit_Card_Number', m.cardNumberRequired],
    ['Credit_Card_Type', m.cardTypeRequired],
    ['CVV', m.cvvInvalid],
    ['Month_of_Expiry', m.monthInvalid],
    ['Year_of_Expiry', m.yearInvalid],
    ['Credit_Card_Holder_First_Name', m.fieldRequired],
    ['Credit_Card_Holder_Last_Name', m.fieldRequired],
    ['Credit_Card_Biling_Email_Address', m.emailRequired],
    ['Country', m.fieldRequired],
    ['Credit_Card_Billing_Street', m.fieldRequired],
    ['Credit_Card_Billing_City', m.fieldRequired],
    ['Credit_Card_Billing_State', m.fieldRequired],
    ['Credit_Card_Billing_Zip_Code', m.fieldRequired],
  ];

  it.each(requiredFields)('refuses a form without %s with %j', (field, message) => {
    expect(firstMessageByField(cardFormSchema(TODAY, KEPT).safeParse(withoutCardField(field)))).toEqual({
      [field]: message,
    });
  });

  it('names every failing field at once, for a form left blank', () => {
    expect(firstMessageByField(cardFormSchema(TODAY, KEPT).safeParse({}))).toEqual(
      Object.fromEntries(requiredFields),
    );
  });

  it.each([
    ['2025-06-29', {}, 'a card through 06/2026 seen one day more than a year before its end'],
    [
      '2025-06-30',
      { Year_of_Expiry: m.oneYearRemaining },
      'a card through 06/2026 seen exactly a year before',
    ],
    [
      '2025-07-01',
      { Year_of_Expiry: m.oneYearRemaining },
      'a card through 06/2026 seen less than a year before',
    ],
  ] as Array<[string, Record<string, string>, string]>)('on %s gives %j for %s', (today, expected) => {
    expect(cardFailures({ Month_of_Expiry: '06', Year_of_Expiry: '2026' }, today)).toEqual(expected);
  });

  describe('more than one year left applies only to a card kept on file', () => {
    const USED_ONCE = { keptOnFile: false };
    // Seen on 2025-06-15: a card through 02/2026 has about 8 months left.
    const eightMonthsLeft = { Month_of_Expiry: '02', Year_of_Expiry: '2026' };

    it('refuses a card with 8 months left that is kept on file (specs 1 and 2)', () => {
      expect(cardFailures(eightMonthsLeft, TODAY, KEPT)).toEqual({
        Year_of_Expiry: 'Please use credit card which has more than one year of expiry period remaining.',
      });
    });

    it('accepts a card with 8 months left that is used once and not kept (spec 3, section 5)', () => {
      expect(cardFailures(eightMonthsLeft, TODAY, USED_ONCE)).toEqual({});
    });

    it.each([
      ['2025', '06', {}, 'the current month: valid to its last day'],
      ['2025', '12', {}, 'December of the current year'],
      ['2026', '06', {}, 'exactly a year on'],
      ['2025', '05', { Month_of_Expiry: 'Something Wrong with Expiration Month' }, 'last month'],
      ['2024', '12', { Year_of_Expiry: 'Something Wrong with Expiration Year' }, 'last year'],
    ] as Array<[string, string, Record<string, string>, string]>)(
      'a card used once through %s/%s gives %j (%s)',
      (year, month, expected) => {
        expect(cardFailures({ Year_of_Expiry: year, Month_of_Expiry: month }, TODAY, USED_ONCE)).toEqual(
          expected,
        );
      },
    );
  });

  it.each([
    ['2025-12-31', '2033', {}, 'the last year offered on New Year’s Eve'],
    ['2025-12-31', '2034', { Year_of_Expiry: m.yearInvalid }, 'a year past the range on New Year’s Eve'],
    ['2026-01-01', '2034', {}, 'the same year offered on New Year’s Day'],
    ['2026-01-01', '2025', { Year_of_Expiry: m.yearPast }, 'last year, seen on New Year’s Day'],
  ] as Array<[string, string, Record<string, string>, string]>)(
    'on %s year %s gives %j (%s)',
    (today, year, expected) => {
      expect(cardFailures({ Year_of_Expiry: year }, today)).toEqual(expected);
    },
  );

  it('accepts the last year offered (current year + 8)', () => {
    expect(cardFailures({ Year_of_Expiry: '2033', Month_of_Expiry: '01' })).toEqual({});
  });

  it('on New Year’s Eve calls December of that year past the month, not past the year', () => {
    expect(cardFailures({ Year_of_Expiry: '2025', Month_of_Expiry: '11' }, '2025-12-31')).toEqual({
      Month_of_Expiry: m.monthPast,
    });
  });

  it('asks a today function each time, so a schema built last year follows the calendar', () => {
    let today = '2025-12-31';
    const schema = cardFormSchema(() => today, KEPT);
    const through2034 = { ...validCard, Year_of_Expiry: '2034' };
    expect(firstMessageByField(schema.safeParse(through2034))).toEqual({ Year_of_Expiry: m.yearInvalid });
    today = '2026-01-01';
    expect(schema.safeParse(through2034).success).toBe(true);
  });

  it('trims the spaces around the CVV, names, email, country and zip', () => {
    const parsed = cardFormSchema(TODAY, KEPT).parse({
      ...validCard,
      CVV: ' 123 ',
      Credit_Card_Holder_First_Name: ' Jane ',
      Credit_Card_Holder_Last_Name: ' Doe ',
      Credit_Card_Biling_Email_Address: ' jane.doe@example.com ',
      Country: ' USA ',
      Credit_Card_Billing_Zip_Code: ' 33139 ',
    });
    expect(parsed).toEqual(validCard);
  });

  // Suspected bug: cardBrandOf gives null for brands the bank does not accept, and the schema only
  // compares a non-null brand with the chosen type, so these numbers pass as whatever type is chosen.
  it.each([
    ['3088000000000017', 'a JCB test card'],
    ['3530111333300000', 'a JCB card in 3528-3589'],
    ['38000000000006', 'a Diners Club test card'],
    ['411111111117', 'a Luhn-valid 12-digit number starting with 4, not a Visa length'],
  ])('refuses %s (%s) chosen as Visa: the number matches none of the accepted brands', (number) => {
    expect(cardFailures({ Credit_Card_Number: number })).toEqual({ Credit_Card_Type: m.cardTypeMismatch });
  });

  // Suspected bug: the max length of a name, country or zip falls back to the schema's
  // "Field can't be empty", which is untrue of a field that is too long.
  it.each([
    ['Credit_Card_Holder_First_Name', 81],
    ['Credit_Card_Holder_Last_Name', 81],
    ['Country', 81],
    ['Credit_Card_Billing_Street', 61],
    ['Credit_Card_Billing_City', 41],
    ['Credit_Card_Billing_State', 41],
    ['Credit_Card_Billing_Zip_Code', 21],
  ] as Array<[CardField, number]>)(
    'refuses %s of %i characters without calling it empty',
    (field, length) => {
      const message = cardFailures({ [field]: 'x'.repeat(length) })[field];
      expect(message).toBeDefined();
      expect(message).not.toBe(m.fieldRequired);
    },
  );

  it.each([
    ['Credit_Card_Holder_First_Name', 80],
    ['Credit_Card_Holder_Last_Name', 80],
    ['Country', 80],
    ['Credit_Card_Billing_Street', 60],
    ['Credit_Card_Billing_City', 40],
    ['Credit_Card_Billing_State', 40],
    ['Credit_Card_Billing_Zip_Code', 20],
  ] as Array<[CardField, number]>)('accepts %s of %i characters', (field, length) => {
    expect(cardFailures({ [field]: 'x'.repeat(length) })).toEqual({});
  });
});

describe('achFormSchema', () => {
  it('accepts the Stripe test account and routing number', () => {
    expect(achFormSchema.parse(validAch)).toEqual(validAch);
  });

  it.each([
    ['1234', 'the fewest digits, 4'],
    ['1'.repeat(17), 'the most digits, 17'],
    ['000123456789', 'leading zeros kept'],
  ])('accepts account number %s (%s)', (account) => {
    expect(achFormSchema.parse({ ...validAch, Account_Number: account }).Account_Number).toBe(account);
  });

  it.each(['111000025', '021000021', '011000015', '121042882', '122105278'])(
    'accepts routing number %s',
    (routing) => {
      expect(achFailures({ ABA_Routing_Number: routing })).toEqual({});
    },
  );

  it('trims the spaces around the account and routing numbers', () => {
    const parsed = achFormSchema.parse({
      ...validAch,
      Account_Number: ' 000123456789 ',
      ABA_Routing_Number: ' 110000000 ',
    });
    expect(parsed).toEqual(validAch);
  });

  const refusals: Array<[string, Partial<Record<AchField, unknown>>, AchField, string]> = [
    ['an empty account number', { Account_Number: '' }, 'Account_Number', m.accountNumberRequired],
    ['an account number of spaces', { Account_Number: '   ' }, 'Account_Number', m.accountNumberRequired],
    ['no account number', { Account_Number: undefined }, 'Account_Number', m.accountNumberRequired],
    ['an account number of 3 digits', { Account_Number: '123' }, 'Account_Number', m.accountNumberInvalid],
    [
      'an account number of 18 digits',
      { Account_Number: '1'.repeat(18) },
      'Account_Number',
      m.accountNumberInvalid,
    ],
    [
      'an account number with a letter',
      { Account_Number: '12345a' },
      'Account_Number',
      m.accountNumberInvalid,
    ],
    [
      'an account number with dashes',
      { Account_Number: '123-456' },
      'Account_Number',
      m.accountNumberInvalid,
    ],
    ['an empty name on the account', { Name_On_Account: '' }, 'Name_On_Account', m.fieldRequired],
    ['a name on the account of spaces', { Name_On_Account: '   ' }, 'Name_On_Account', m.fieldRequired],
    ['no name on the account', { Name_On_Account: undefined }, 'Name_On_Account', m.fieldRequired],
    ['an empty routing number', { ABA_Routing_Number: '' }, 'ABA_Routing_Number', m.fieldRequired],
    ['a routing number of spaces', { ABA_Routing_Number: '  ' }, 'ABA_Routing_Number', m.fieldRequired],
    ['no routing number', { ABA_Routing_Number: undefined }, 'ABA_Routing_Number', m.fieldRequired],
    [
      'a routing number failing the checksum',
      { ABA_Routing_Number: '123456789' },
      'ABA_Routing_Number',
      m.routingNumberInvalid,
    ],
    [
      'a routing number of 8 digits',
      { ABA_Routing_Number: '11000000' },
      'ABA_Routing_Number',
      m.routingNumberInvalid,
    ],
    [
      'a routing number of 10 digits',
      { ABA_Routing_Number: '1100000000' },
      'ABA_Routing_Number',
      m.routingNumberInvalid,
    ],
  ];

  it.each(refusals)('refuses %s', (_label, patch, field, message) => {
    expect(achFailures(patch)).toEqual({ [field]: message });
  });

  it('names every failing field at once, for a form left blank', () => {
    expect(firstMessageByField(achFormSchema.safeParse({}))).toEqual({
      Name_On_Account: m.fieldRequired,
      Account_Number: m.accountNumberRequired,
      ABA_Routing_Number: m.fieldRequired,
    });
  });

  it('accepts a name on the account of 22 characters', () => {
    expect(achFailures({ Name_On_Account: 'x'.repeat(22) })).toEqual({});
  });

  // Suspected bug, as for the card form: a name too long is reported as empty.
  it('refuses a name on the account of 23 characters without calling it empty', () => {
    const message = achFailures({ Name_On_Account: 'x'.repeat(23) }).Name_On_Account;
    expect(message).toBeDefined();
    expect(message).not.toBe(m.fieldRequired);
  });
});

describe('payment messages', () => {
  it('are the spec’s wording, spelling fixed per DESIGN.md', () => {
    expect(paymentMessages).toEqual({
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
    });
  });

  it.each(["cann't", 'sucessfully', 'nuber', 'incase'])('never say %j', (misspelling) => {
    for (const message of Object.values(paymentMessages)) {
      expect(message.toLowerCase()).not.toContain(misspelling);
    }
  });

  it('each have a test that makes a form give them', () => {
    const card = cardFormSchema(TODAY, KEPT);
    const given = new Set<string>();
    const collect = (result: Record<string, string>) => {
      for (const message of Object.values(result)) given.add(message);
    };
    collect(firstMessageByField(card.safeParse({})));
    collect(cardFailures({ Credit_Card_Number: '4242424242424241' }));
    collect(cardFailures({ Credit_Card_Type: 'Mastercard' }));
    collect(cardFailures({ Credit_Card_Number: '370000000000002', Credit_Card_Type: 'American Express' }));
    collect(cardFailures({ Year_of_Expiry: '2024' }));
    collect(cardFailures({ Year_of_Expiry: '2025', Month_of_Expiry: '05' }));
    collect(cardFailures({ Year_of_Expiry: '2026', Month_of_Expiry: '05' }));
    collect(cardFailures({ Credit_Card_Biling_Email_Address: 'jane' }));
    collect(firstMessageByField(achFormSchema.safeParse({})));
    collect(achFailures({ Account_Number: '123', ABA_Routing_Number: '123456789' }));
    expect([...given].sort()).toEqual(Object.values(paymentMessages).sort());
  });
});
