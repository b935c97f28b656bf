import { describe, expect, it } from 'vitest';
import {
  installmentLateCharge,
  installmentLateDay,
  installmentPaidOn,
  installmentReminderDay,
  installmentSchedule,
  installmentScheduleRows,
  monthlyPaymentCents,
  newbornAgreementRows,
  newbornAgreementTerms,
} from './newborn-agreement';
import { SHIPPED_PRICE_BOOK } from './price-book';

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
      'Interest rate': '6%',
      'Number of installments': '12',
      'Total amount financed': '$10,000.00',
      'Monthly payment': '$860.66',
    });
  });

  it('states the terms of spec 3 section 9 with the deposit of the usual plan and the card fee as shipped', () => {
    const terms = newbornAgreementTerms(
      { downPaymentCents: 25_000 },
      { cardFeePercent: '3%', lateChargeCents: 5_000 },
    ).join(' ');
    for (const fact of [
      'An initial non-refundable deposit of $250.00 is due at signup.',
      'automatically',
      'A late charge of $50.00 applies to each monthly payment that is 30 days or more late.',
      '60 days',
      'ten (10) days',
      '1 year',
      'Payments made by credit card add a 3% card processing fee.',
    ]) {
      expect(terms).toContain(fact);
    }
  });

  it("names the agreement's own deposit and the card fee and late charge of the book in force, never a fixed $250, 3% and $50", () => {
    const terms = newbornAgreementTerms(
      { downPaymentCents: 40_000 },
      { cardFeePercent: '3.5%', lateChargeCents: 6_500 },
    ).join(' ');
    expect(terms).toContain('An initial non-refundable deposit of $400.00 is due at signup.');
    expect(terms).toContain('Payments made by credit card add a 3.5% card processing fee.');
    expect(terms).toContain(
      'A late charge of $65.00 applies to each monthly payment that is 30 days or more late.',
    );
    expect(terms).not.toContain('$50.00');
    expect(terms).not.toContain('$250');
    expect(terms).not.toContain(' 3% ');
  });
});

describe('the installment schedule', () => {
  const plan = (totalFinancedCents: number, interestRateBasisPoints: number, installments: number) => ({
    totalFinancedCents,
    interestRateBasisPoints,
    installments,
  });

  it('amortises $1,000.00 at 12% over 3 months: interest on the balance, the last payment closing it', () => {
    // Worked by hand: 1% a month, a payment of $340.02; the last is $340.03 to end at $0.00.
    expect(installmentSchedule(plan(100_000, 1200, 3), '2027-03-10')).toEqual([
      {
        number: 1,
        dueDate: '2027-04-10',
        paymentCents: 34_002,
        interestCents: 1_000,
        principalCents: 33_002,
        balanceCents: 66_998,
      },
      {
        number: 2,
        dueDate: '2027-05-10',
        paymentCents: 34_002,
        interestCents: 670,
        principalCents: 33_332,
        balanceCents: 33_666,
      },
      {
        number: 3,
        dueDate: '2027-06-10',
        paymentCents: 34_003,
        interestCents: 337,
        principalCents: 33_666,
        balanceCents: 0,
      },
    ]);
  });

  it("Mia's demo plan: $2,670.00 at 6% over 12 months, $229.80 a month, $13.35 interest first", () => {
    const rows = installmentSchedule(plan(267_000, 600, 12), '2027-01-15');
    expect(rows).toHaveLength(12);
    expect(rows[0]).toEqual({
      number: 1,
      dueDate: '2027-02-15',
      paymentCents: 22_980,
      interestCents: 1_335,
      principalCents: 21_645,
      balanceCents: 245_355,
    });
    expect(rows.slice(0, 11).every((r) => r.paymentCents === 22_980)).toBe(true);
    expect(rows.at(-1)?.balanceCents).toBe(0);
    expect(rows.reduce((sum, r) => sum + r.principalCents, 0)).toBe(267_000);
    for (const row of rows) expect(row.interestCents + row.principalCents).toBe(row.paymentCents);
  });

  it.each([
    ['2027-01-31', ['2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']],
    ['2028-01-31', ['2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31']],
    ['2027-02-28', ['2027-03-28', '2027-04-28', '2027-05-28', '2027-06-28']],
    ['2027-08-30', ['2027-09-30', '2027-10-30', '2027-11-30', '2027-12-30']],
    ['2027-11-30', ['2027-12-30', '2028-01-30', '2028-02-29', '2028-03-30']],
    ['2027-12-31', ['2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30']],
  ])('a deposit on %s falls due monthly on %j (the day clamped, never drifting)', (deposit, dates) => {
    expect(installmentSchedule(plan(400_000, 600, 4), deposit).map((r) => r.dueDate)).toEqual(dates);
  });

  it('at 0% charges no interest, and the last payment takes the cents left over', () => {
    const rows = installmentSchedule(plan(100_000, 0, 3), '2027-05-01');
    expect(rows.map((r) => [r.paymentCents, r.interestCents, r.principalCents, r.balanceCents])).toEqual([
      [33_333, 0, 33_333, 66_667],
      [33_333, 0, 33_333, 33_334],
      [33_334, 0, 33_334, 0],
    ]);
    // Rounded up each month, the last payment is the smaller one.
    expect(installmentSchedule(plan(200, 0, 3), '2027-05-01').map((r) => r.paymentCents)).toEqual([
      67, 67, 66,
    ]);
  });

  it.each([
    [1_000_000, 600, 12],
    [350_000, 799, 24],
    [267_000, 600, 12],
    [999_999, 1999, 120],
    [1, 600, 12],
  ])(
    '%i cents at %i bp over %i months ends at exactly zero, each payment within a cent of the last',
    (p, r, n) => {
      const rows = installmentSchedule(plan(p, r, n), '2027-01-01');
      const payment = monthlyPaymentCents(p, r, n);
      expect(rows.at(-1)?.balanceCents).toBe(0);
      expect(rows.reduce((sum, row) => sum + row.principalCents, 0)).toBe(p);
      for (const row of rows.slice(0, -1)) expect(row.paymentCents).toBe(payment);
      if (p >= 100_000) expect(Math.abs((rows.at(-1)?.paymentCents ?? 0) - payment)).toBeLessThanOrEqual(n);
    },
  );

  it('one installment is the principal and one month of interest', () => {
    expect(installmentSchedule(plan(1_000_000, 600, 1), '2027-01-31')).toEqual([
      {
        number: 1,
        dueDate: '2027-02-28',
        paymentCents: 1_005_000,
        interestCents: 5_000,
        principalCents: 1_000_000,
        balanceCents: 0,
      },
    ]);
  });

  it('shows dates as MM/DD/YYYY and amounts in dollars', () => {
    expect(installmentScheduleRows(installmentSchedule(plan(100_000, 1200, 3), '2027-03-10'))[2]).toEqual({
      number: '3',
      date: '06/10/2027',
      payment: '$340.03',
      interest: '$3.37',
      principal: '$336.66',
      balance: '$0.00',
    });
  });
});

describe('late charges and reminders', () => {
  it.each([
    // due date, day, paid, late charge
    ['2027-02-15', '2027-02-15', false, 0],
    ['2027-02-15', '2027-03-16', false, 0],
    ['2027-02-15', '2027-03-17', false, 5_000],
    ['2027-02-15', '2027-12-31', false, 5_000],
    ['2027-02-15', '2027-03-17', true, 0],
    // Across a year end and a leap day.
    ['2027-12-15', '2028-01-14', false, 5_000],
    ['2028-02-10', '2028-03-11', false, 5_000],
    ['2028-02-10', '2028-03-10', false, 0],
  ])(
    'an installment due %s, on %s (paid: %s), carries a late charge of %i cents',
    (due, day, paid, cents) => {
      expect(installmentLateCharge({ dueDate: due, paid }, day, 5_000)).toBe(cents);
    },
  );

  it('the late charge is $50 as shipped, thirty days after the due date; the reminder three days before it', () => {
    expect(SHIPPED_PRICE_BOOK.newbornLateChargeCents).toBe(5_000);
    expect(installmentLateDay('2027-02-15')).toBe('2027-03-17');
    expect(installmentReminderDay('2027-03-01')).toBe('2027-02-26');
    expect(installmentReminderDay('2028-03-01')).toBe('2028-02-27');
  });

  it.each([
    // Due 04/27, late from 05/27: paid with its $50 on a lagging billing day, dated the late day.
    ['2027-04-27', 5_000, '2027-05-25', '2027-05-27'],
    ['2027-04-27', 5_000, '2027-06-02', '2027-06-02'],
    // Without a late charge, the billing day as it is.
    ['2027-04-27', 0, '2027-05-25', '2027-05-25'],
    ['2027-04-27', 0, '2027-04-20', '2027-04-20'],
  ])(
    'an installment due %s with a late charge of %i cents, paid on billing day %s, is dated %s',
    (due, late, day, paidOn) => {
      expect(installmentPaidOn({ dueDate: due, lateChargeCents: late }, day)).toBe(paidOn);
    },
  );
});
