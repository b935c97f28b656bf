import { describe, expect, it } from 'vitest';
import {
  type PlanOrderForRefund,
  planRefundProblems,
  planRefundTerms,
  takenBackText,
  takesSomethingBack,
} from './storage-plan-refund';

/** 5 Year Storage Plan $1,575.00 + Bio-Insurance 25 vials $10,000.00, by card: + $347.25 = $11,922.25. */
const FIVE_YEARS_25_VIALS: PlanOrderForRefund = {
  storageYears: 5,
  storageCents: 157_500,
  bioInsuranceVials: 25,
  longevityVials: 0,
  bankingCents: 1_000_000,
  processingFeeCents: 34_725,
  paidUntilAfter: '2030-06-01',
};
const PAID = 1_192_225;

const facts = (over: Partial<Parameters<typeof planRefundTerms>[0]> = {}) => ({
  order: FIVE_YEARS_25_VIALS,
  paidCents: PAID,
  refundedCents: 0,
  paidUntil: '2030-06-01',
  heldVials: { bioInsurance: 25, longevity: 0 },
  today: '2025-03-10',
  ...over,
});

describe('the storage years taken back are those not yet begun (a year begun on its start date)', () => {
  it.each([
    ['2025-03-10', 5, '2025-06-01', 'the day of the order: the current year was paid before, all 5 to come'],
    ['2025-05-31', 5, '2025-06-01', 'the day before the first year starts'],
    ['2025-06-01', 4, '2026-06-01', 'the first year starts today: begun'],
    ['2029-05-31', 1, '2029-06-01', 'the day before the last year starts'],
    ['2029-06-01', 0, '2030-06-01', 'the last year begun: none'],
    ['2031-01-01', 0, '2030-06-01', 'after the plan ended: none'],
  ])('today %s: %i years (%s)', (today, years, paidUntilAfterTakeBack) => {
    const terms = planRefundTerms(facts({ today, heldVials: { bioInsurance: 0, longevity: 0 } }));
    expect(terms.years).toBe(years);
    expect(terms.paidUntilAfterTakeBack).toBe(paidUntilAfterTakeBack);
  });

  it('a year ending on a leap day: its start is the 28th of February the year before', () => {
    const order = { ...FIVE_YEARS_25_VIALS, paidUntilAfter: '2028-02-29' };
    const at = (today: string) =>
      planRefundTerms(
        facts({ order, paidUntil: '2028-02-29', today, heldVials: { bioInsurance: 0, longevity: 0 } }),
      );
    expect(at('2027-02-27')).toMatchObject({ years: 1, paidUntilAfterTakeBack: '2027-02-28' });
    expect(at('2027-02-28').years).toBe(0);
  });

  it('across a year end: the year starting on the 1st of January is begun that day', () => {
    const order = { ...FIVE_YEARS_25_VIALS, paidUntilAfter: '2031-01-01' };
    const at = (today: string) => planRefundTerms(facts({ order, paidUntil: '2031-01-01', today })).years;
    expect(at('2025-12-31')).toBe(5);
    expect(at('2026-01-01')).toBe(4);
  });

  it("paid-until moved on since (a year's fee paid after): only the order's own years not begun", () => {
    const terms = planRefundTerms(facts({ paidUntil: '2031-06-01', today: '2026-06-15' }));
    expect(terms).toMatchObject({ years: 3, paidUntilAfterTakeBack: '2028-06-01' });
  });

  it('paid-until moved back since: only the years not begun before the current date', () => {
    const terms = planRefundTerms(facts({ paidUntil: '2028-06-01' }));
    expect(terms).toMatchObject({ years: 3, paidUntilAfterTakeBack: '2025-06-01' });
  });

  it('no paid-until date on the record: no years', () => {
    expect(planRefundTerms(facts({ paidUntil: null })).years).toBe(0);
  });
});

describe('the refund, to the cent', () => {
  it('before any year begun, no vial used: everything paid, $11,922.25', () => {
    expect(planRefundTerms(facts())).toEqual({
      years: 5,
      bioInsuranceVials: 25,
      longevityVials: 0,
      storageRefundCents: 157_500,
      bankingRefundCents: 1_000_000,
      feeRefundCents: 34_725,
      refundCents: 1_192_225,
      paidUntilAfterTakeBack: '2025-06-01',
    });
  });

  it('one year begun, 15 of the 25 vials used: 4 x $315.00 + 10 x $400.00 + 3% = $5,417.80', () => {
    const terms = planRefundTerms(
      facts({ today: '2025-06-01', heldVials: { bioInsurance: 10, longevity: 0 } }),
    );
    expect(terms).toMatchObject({
      years: 4,
      bioInsuranceVials: 10,
      storageRefundCents: 126_000,
      bankingRefundCents: 400_000,
      feeRefundCents: 15_780,
      refundCents: 541_780,
    });
  });

  it('vials held from other orders do not count: at most the order’s 25', () => {
    const terms = planRefundTerms(facts({ heldVials: { bioInsurance: 60, longevity: 3 } }));
    expect(terms).toMatchObject({ bioInsuranceVials: 25, longevityVials: 0, bankingRefundCents: 1_000_000 });
  });

  it('a Longevity 100 plan ($2,125.00 for 10 vials), 4 left, by ACH: $850.00', () => {
    const order = {
      ...FIVE_YEARS_25_VIALS,
      storageYears: 0,
      storageCents: 0,
      bioInsuranceVials: 0,
      longevityVials: 10,
      bankingCents: 212_500,
      processingFeeCents: 0,
    };
    const terms = planRefundTerms(
      facts({ order, paidCents: 212_500, heldVials: { bioInsurance: 25, longevity: 4 } }),
    );
    expect(terms).toMatchObject({
      years: 0,
      longevityVials: 4,
      bankingRefundCents: 85_000,
      refundCents: 85_000,
    });
  });

  it('a part that does not divide evenly is rounded down, the fee to the nearest cent', () => {
    // $1,000.00 for 3 years, by card $30.00: one year is $333.33, its fee $10.00 (9.9999).
    const order = {
      ...FIVE_YEARS_25_VIALS,
      storageYears: 3,
      storageCents: 100_000,
      bioInsuranceVials: 0,
      bankingCents: 0,
      processingFeeCents: 3_000,
      paidUntilAfter: '2028-06-01',
    };
    const terms = planRefundTerms(
      facts({ order, paidCents: 103_000, paidUntil: '2028-06-01', today: '2026-06-01' }),
    );
    expect(terms).toMatchObject({
      years: 1,
      storageRefundCents: 33_333,
      feeRefundCents: 1_000,
      refundCents: 34_333,
    });
  });

  it('never more than was paid less already refunded: $10,000.00 refunded before leaves $1,922.25', () => {
    expect(planRefundTerms(facts({ refundedCents: 1_000_000 })).refundCents).toBe(192_225);
    expect(planRefundTerms(facts({ refundedCents: PAID })).refundCents).toBe(0);
  });

  it('every year begun and every vial used: nothing to take back', () => {
    const terms = planRefundTerms(
      facts({ today: '2029-06-01', heldVials: { bioInsurance: 0, longevity: 0 } }),
    );
    expect(takesSomethingBack(terms)).toBe(false);
    expect(terms.refundCents).toBe(0);
  });
});

describe('the reason', () => {
  it.each([
    ['', 'Please give a reason for the refund'],
    ['   ', 'Please give a reason for the refund'],
    ['Moved abroad', undefined],
  ])('%j: %s', (reason, problem) => {
    expect(planRefundProblems({ reason }).reason).toBe(problem);
  });
});

describe('what is taken back, in words', () => {
  it.each([
    [{ years: 4, bioInsuranceVials: 10, longevityVials: 0 }, '4 storage years and 10 Bio-Insurance vials'],
    [{ years: 1, bioInsuranceVials: 0, longevityVials: 1 }, '1 storage year and 1 Longevity vial'],
    [{ years: 0, bioInsuranceVials: 0, longevityVials: 0 }, 'nothing'],
  ])('%j: %s', (taken, text) => {
    expect(takenBackText(taken)).toBe(text);
  });
});
