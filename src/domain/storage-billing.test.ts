import { describe, expect, it } from 'vitest';
import { SHIPPED_PRICE_BOOK } from './price-book';
import {
  billingRunDate,
  billingRunSummary,
  cardExpiresBefore,
  changeBillingYearEntrySchema,
  chargeDay,
  declineKind,
  declineReasonLabel,
  nextRenewalYear,
  nextTryDay,
  noticeDay,
  renewalAmountCents,
  renewalMessages,
  storageYearsCharge,
} from './storage-billing';

describe('the storage year to bill next', () => {
  it.each([
    // banked, covered until, year number, due, pays until
    ['2024-06-14', '2025-06-14', 1, '2025-06-14', '2026-06-14'],
    ['2024-06-14', '2026-06-14', 2, '2026-06-14', '2027-06-14'],
    // A 29 February banked date: due on 28 February in common years, 29 February in leap years.
    ['2024-02-29', '2025-02-28', 1, '2025-02-28', '2026-02-28'],
    ['2024-02-29', '2027-02-28', 3, '2027-02-28', '2028-02-29'],
    ['2024-02-29', '2028-02-29', 4, '2028-02-29', '2029-02-28'],
    // A paid-until that is no anniversary (an older record, a plan bought mid-year): a calendar year.
    ['2020-03-10', '2026-01-05', 5, '2026-01-05', '2027-01-05'],
  ])('banked %s, covered until %s: year %i due %s, paying until %s', (banked, covered, n, due, until) => {
    expect(nextRenewalYear(banked, covered)).toEqual({ yearNumber: n, dueDate: due, coversUntil: until });
  });
});

describe('the notice and the charge day', () => {
  it('sends the notice 30 days ahead', () => {
    expect(noticeDay('2027-06-14')).toBe('2027-05-15');
    expect(noticeDay('2028-03-01')).toBe('2028-01-31');
  });

  it.each([
    // due, notice sent on, charged on
    ['2027-06-14', '2027-05-15', '2027-06-14'], // 30 days ahead
    ['2027-06-14', '2027-05-30', '2027-06-14'], // 15 days ahead: still on the due date
    ['2027-06-14', '2027-05-31', '2027-06-15'], // 14 days ahead: 15 days after the notice
    ['2027-06-14', '2027-06-14', '2027-06-29'], // on the due date (a receipt recorded late)
    ['2027-06-14', '2027-07-01', '2027-07-16'], // after it
  ])('due %s, noticed %s: charged %s', (due, noticed, charged) => {
    expect(chargeDay(due, noticed)).toBe(charged);
  });
});

describe('declines and retries', () => {
  it.each([
    ['insufficient_funds', 'soft'],
    ['ach_insufficient_funds', 'soft'],
    ['processing_error', 'soft'],
    ['generic_decline', 'soft'],
    ['unknown', 'soft'],
    ['ach_account_closed', 'hard'],
    ['ach_no_account', 'hard'],
    ['stolen_card', 'hard'],
    ['lost_card', 'hard'],
    ['expired_card', 'hard'],
    ['incorrect_cvc', 'hard'],
  ])('%s is a %s decline', (reason, kind) => {
    expect(declineKind(reason)).toBe(kind);
  });

  it('retries a soft decline on days 3, 7 and 14 after the charge day, then no more', () => {
    expect(nextTryDay('2027-06-14', 1, 'soft')).toBe('2027-06-17');
    expect(nextTryDay('2027-06-14', 2, 'soft')).toBe('2027-06-21');
    expect(nextTryDay('2027-06-14', 3, 'soft')).toBe('2027-06-28');
    expect(nextTryDay('2027-06-14', 4, 'soft')).toBeNull();
  });

  it('never retries a hard decline', () => {
    expect(nextTryDay('2027-06-14', 1, 'hard')).toBeNull();
  });
});

describe('the amount of a storage year', () => {
  it('is the annual maintenance fee by ACH and the card-or-check amount otherwise', () => {
    expect(renewalAmountCents(SHIPPED_PRICE_BOOK, 'ach')).toBe(33_981);
    expect(renewalAmountCents(SHIPPED_PRICE_BOOK, 'card')).toBe(35_000);
    expect(renewalAmountCents(SHIPPED_PRICE_BOOK, 'check')).toBe(35_000);
    expect(renewalAmountCents(SHIPPED_PRICE_BOOK, 'none')).toBe(35_000);
  });

  // A later version of the book: 3.5% by card (the years below were noticed at $350.00 / $339.81).
  const later = { ...SHIPPED_PRICE_BOOK, cardProcessingFeeBasisPoints: 350 };
  const noticed = { amountCents: 35_000, achAmountCents: 33_981 };
  const older = { amountCents: 33_981, achAmountCents: null };
  it.each([
    ['a noticed year by card: its fixed $350.00, no fee', [noticed], 'card', 35_000, 0, 35_000],
    ['a noticed year by ACH: its fixed $339.81', [noticed], 'ach', 33_981, 0, 33_981],
    ['two noticed years by card: $700.00', [noticed, noticed], 'card', 70_000, 0, 70_000],
    // $339.81 x 3.5% = $11.89335: $11.89.
    ['an older year by card: its amount and the fee in force', [older], 'card', 33_981, 1_189, 35_170],
    ['an older year by ACH: its amount', [older], 'ach', 33_981, 0, 33_981],
    // $350.00 + $339.81, the fee on the older year only: $701.70.
    ['a noticed and an older year by card', [noticed, older], 'card', 68_981, 1_189, 70_170],
    ['nothing unpaid', [], 'card', 0, 0, 0],
  ] as const)('paid after its notice: %s', (_, years, method, amountCents, feeCents, totalCents) => {
    expect(storageYearsCharge(later, years, method)).toEqual({ amountCents, feeCents, totalCents });
  });

  it('is named with its day and method on the client pages', () => {
    expect(renewalMessages.nextCharge(35_000, '2027-06-14', 'Visa ending 4242')).toBe(
      '$350.00 on 06/14/2027 to Visa ending 4242',
    );
    expect(renewalMessages.retrying('2027-06-17')).toBe('Payment due, retrying on 06/17/2027');
  });
});

describe('the date typed in "Run billing as of"', () => {
  it.each([
    ['12/16/2026', null, { asOf: '2026-12-16', problem: null }, 'MM/DD/YYYY, as the other date inputs'],
    ['2026-12-16', null, { asOf: '2026-12-16', problem: null }, 'YYYY-MM-DD too'],
    [' 12/16/2026 ', '2026-12-15', { asOf: '2026-12-16', problem: null }, 'the day after the last run'],
    ['', null, { asOf: null, problem: 'Please enter the date to run billing to' }, 'nothing typed'],
    ['12/16/26', null, { asOf: null, problem: 'Please enter the date as MM/DD/YYYY' }, 'a two-digit year'],
    ['02/29/2027', null, { asOf: null, problem: 'Please enter the date as MM/DD/YYYY' }, 'no such day'],
    ['02/29/2028', null, { asOf: '2028-02-29', problem: null }, 'a leap day'],
    [
      '12/16/2026',
      '2026-12-16',
      { asOf: null, problem: 'The date must be after the last billing run' },
      'the last run day itself',
    ],
  ] as const)('%j after a last run of %j gives %j (%s)', (typed, lastRunDay, expected, _why) => {
    expect(billingRunDate(typed, lastRunDay)).toEqual(expected);
  });
});

describe('the line a billing run answers with', () => {
  const run = { days: 20, notices: 1, charges: 1, declines: 0, retries: 0, overdue: 0 };
  it.each([
    [
      { ...run, from: '2026-11-27', asOf: '2026-12-16' },
      'Ran 20 days (11/27/2026 to 12/16/2026): 1 notice, 1 charge, 0 declines, 0 retries, 0 overdue.',
    ],
    [
      {
        days: 1,
        notices: 2,
        charges: 3,
        declines: 1,
        retries: 1,
        overdue: 2,
        from: '2026-12-31',
        asOf: '2026-12-31',
      },
      'Ran 1 day (12/31/2026): 2 notices, 3 charges, 1 decline, 1 retry, 2 overdue.',
    ],
    [
      {
        days: 0,
        notices: 0,
        charges: 0,
        declines: 0,
        retries: 0,
        overdue: 0,
        from: '2026-12-17',
        asOf: '2026-12-16',
      },
      'Nothing to run: billing has already run up to 12/16/2026.',
    ],
  ])('%j reads %j', (answer, line) => {
    expect(billingRunSummary(answer)).toBe(line);
  });
});

describe('a decline reason on the Billing page', () => {
  it.each([
    ['insufficient_funds', 'Insufficient funds'],
    ['stolen_card', 'Card reported stolen'],
    ['something_new', 'something_new'],
    [null, '—'],
  ])('%j reads %j', (reason, label) => {
    expect(declineReasonLabel(reason)).toBe(label);
  });
});

describe('the "Waive or defer" form as sent', () => {
  const dateProblem = { until: 'Please enter a date after today and at most two years ahead' };
  it.each([
    [
      { action: 'waive', until: '12/16/2026', reason: 'Goodwill' },
      { action: 'waive', reason: 'Goodwill' },
      'a waiver sends no date',
    ],
    [
      { action: 'defer', until: '01/15/2027', reason: 'After surgery' },
      { action: 'defer', reason: 'After surgery', until: '2027-01-15' },
      'MM/DD/YYYY, as the other date inputs',
    ],
    [
      { action: 'defer', until: ' 2028-02-29 ', reason: '' },
      { action: 'defer', reason: '', until: '2028-02-29' },
      "YYYY-MM-DD, a leap day; the reason is the server's to require",
    ],
  ] as const)('%j sends %j (%s)', (entry, request, _why) => {
    expect(changeBillingYearEntrySchema.parse(entry)).toEqual(request);
  });

  it.each([
    ['', 'nothing typed'],
    ['02/29/2027', 'no such day'],
    ['1/15/27', 'a two-digit year'],
  ])('refuses to defer to %j (%s)', (until, _why) => {
    const parsed = changeBillingYearEntrySchema.safeParse({ action: 'defer', until, reason: 'Asked' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => ({ [String(issue.path[0])]: issue.message }))).toEqual([
      dateProblem,
    ]);
  });
});

describe('a card that expires before the charge', () => {
  const card = { kind: 'card' as const, expiryMonth: 6, expiryYear: 2027 };
  it.each([
    ['2027-06-30', false], // good through the end of its expiry month
    ['2027-07-01', true],
    ['2027-05-14', false],
  ])('charged on %s: expires first is %s', (dueDate, expires) => {
    expect(cardExpiresBefore(card, dueDate)).toBe(expires);
  });

  it('never applies to a bank account', () => {
    expect(cardExpiresBefore({ kind: 'ach', expiryMonth: null, expiryYear: null }, '2040-01-01')).toBe(false);
  });
});
