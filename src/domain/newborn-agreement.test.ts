import { describe, expect, it } from 'vitest';
import { monthlyPaymentCents, newbornAgreementRows, newbornAgreementTerms } from './newborn-agreement';

describe('monthly payment (standard amortisation)', () => {
  // Published amortisation tables: $10,000 at 6% a year.
  it.each([
    [1_000_000, 600, 12, 86_066],
    [1_000_000, 600, 24, 44_321],
    [1_000_000, 600, 36, 30_422],
    [1_000_000, 600, 60, 19_333],
    // $200,000 at 6.5% over 30 years: $1,264.14.
    [20_000_000, 650, 360, 126_414],
    // $5,000 at 12% over 12 months: $444.24.
    [500_000, 1200, 12, 44_424],
  ])('%i cents at %i bp over %i months is %i cents', (principal, rate, n, expected) => {
    expect(monthlyPaymentCents(principal, rate, n)).toBe(expected);
  });

  it('at 0% is the principal over the count, rounded to the cent', () => {
    expect(monthlyPaymentCents(1_000_000, 0, 12)).toBe(83_333);
    expect(monthlyPaymentCents(100, 0, 3)).toBe(33);
    expect(monthlyPaymentCents(200, 0, 3)).toBe(67);
  });

  it('one installment is the principal plus one month of interest', () => {
    expect(monthlyPaymentCents(1_000_000, 600, 1)).toBe(1_005_000);
  });

  it('nothing financed is nothing a month', () => {
    expect(monthlyPaymentCents(0, 600, 12)).toBe(0);
  });

  it('refuses a count below one, fractional counts and negative amounts or rates', () => {
    expect(() => monthlyPaymentCents(1000, 600, 0)).toThrow(RangeError);
    expect(() => monthlyPaymentCents(1000, 600, 1.5)).toThrow(RangeError);
    expect(() => monthlyPaymentCents(-1, 600, 12)).toThrow(RangeError);
    expect(() => monthlyPaymentCents(1000, -1, 12)).toThrow(RangeError);
  });

  it('the payments repay the loan: the last balance is within a few cents of zero', () => {
    const principal = 350_000;
    const payment = monthlyPaymentCents(principal, 799, 24);
    let balance = principal;
    for (let month = 0; month < 24; month++) balance = balance * (1 + 0.0799 / 12) - payment;
    expect(Math.abs(balance)).toBeLessThan(24);
  });
});

describe('the agreement as shown and signed', () => {
  it('lists every figure, the monthly payment computed', () => {
    const rows = newbornAgreementRows({
      mainContact: 'Linh Nguyen',
      patientId: 'ACT10020',
      annualBankingFeeCents: 17_500,
      bioInsuranceFeeCents: 30_000,
      downPaymentCents: 25_000,
      initialProcessingFeeCents: 250_000,
      interestRateBasisPoints: 600,
      installments: 12,
      totalFinancedCents: 1_000_000,
    });
    expect(Object.fromEntries(rows.map((r) => [r.label, r.value]))).toEqual({
      'Main contact': 'Linh Nguyen',
      'Patient ID': 'ACT10020',
      'Annual banking fee': '$175.00',
      'Bio-Insurance fee': '$300.00',
      'Down payment': '$250.00',
      'Initial processing fee': '$2,500.00',
      'Interest rate': '6.00%',
      'Number of installments': '12',
      'Total amount financed': '$10,000.00',
      'Monthly payment': '$860.66',
    });
  });

  it('states the terms of spec 3 section 9', () => {
    const terms = newbornAgreementTerms.join(' ');
    for (const fact of [
      '$250',
      'non-refundable',
      'automatically',
      '$50',
      '30 days',
      '60 days',
      'ten (10) days',
      '1 year',
      '3%',
    ]) {
      expect(terms).toContain(fact);
    }
  });
});
