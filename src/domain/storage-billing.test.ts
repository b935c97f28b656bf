import { describe, expect, it } from 'vitest';
import { billingRunDate, billingRunSummary, declineReasonLabel } from './storage-billing';

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
