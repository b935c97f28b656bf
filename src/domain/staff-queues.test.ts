import { describe, expect, it } from 'vitest';
import { amountToCents, checkEntryProblems, staffQueueMessages as m } from './staff-queues';

describe('amountToCents', () => {
  it.each([
    ['3000', 300_000],
    ['3,000.00', 300_000],
    ['$3000.5', 300_050],
    [' 12.34 ', 1_234],
  ])('reads %s as %d cents', (typed, cents) => {
    expect(amountToCents(typed)).toBe(cents);
  });
  it.each(['', '3.000', '30,00', '1.234', '-5', 'abc', '1e3', '3 000'])('refuses %j', (typed) => {
    expect(amountToCents(typed)).toBeNull();
  });
});

describe('checkEntryProblems', () => {
  const context = { dueCents: 300_000, today: '2026-11-22' };
  it('takes a check of the amount due, dated today or the day after (a staff member ahead of New York)', () => {
    expect(
      checkEntryProblems({ checkNumber: '1042', checkAmount: '3000.00', checkDate: '11/22/2026' }, context),
    ).toEqual({});
    expect(
      checkEntryProblems({ checkNumber: '1042', checkAmount: '3000', checkDate: '11/23/2026' }, context),
    ).toEqual({});
  });
  it('names each field that is wrong', () => {
    expect(checkEntryProblems({ checkNumber: ' ', checkAmount: '', checkDate: '' }, context)).toEqual({
      checkNumber: m.checkNumberRequired,
      checkAmount: m.checkAmountRequired,
      checkDate: m.checkDateRequired,
    });
    expect(
      checkEntryProblems({ checkNumber: '12-4', checkAmount: '2999.99', checkDate: '11/24/2026' }, context),
    ).toEqual({
      checkNumber: m.checkNumberInvalid,
      checkAmount: m.checkAmountMismatch(300_000),
      checkDate: m.checkDateFuture,
    });
    expect(
      checkEntryProblems({ checkNumber: '1', checkAmount: 'ten', checkDate: '02/30/2026' }, context),
    ).toEqual({ checkAmount: m.checkAmountInvalid, checkDate: m.checkDateInvalid });
  });
});
