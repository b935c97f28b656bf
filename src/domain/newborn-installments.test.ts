import { describe, expect, it } from 'vitest';
import type { InstallmentStatus } from './newborn-agreement';
import { accountInstallmentState, earlyPayoffCents, installmentIsOverdue } from './newborn-installments';

const row = (status: InstallmentStatus, dueDate: string, lateChargeCents = 0) => ({
  status,
  dueDate,
  paymentCents: 10_050,
  principalCents: 10_000,
  lateChargeCents,
});

describe('an early payoff: the remaining principal, without the interest of the months ahead', () => {
  it.each([
    ['all ahead: principal only', [row('due', '2027-02-01'), row('due', '2027-03-01')], 20_000],
    [
      'one due that day: in full, with its interest',
      [row('due', '2027-01-15'), row('due', '2027-02-15')],
      20_050,
    ],
    [
      'one retrying since its date: in full',
      [row('retrying', '2027-01-10'), row('due', '2027-02-10')],
      20_050,
    ],
    [
      'one late: in full with its $50 late charge',
      [row('late', '2026-12-01', 5_000), row('due', '2027-02-01')],
      25_050,
    ],
    ['one declined on its last try, whatever the day read: in full', [row('unpaid', '2027-02-01')], 10_050],
    ['nothing open', [], 0],
  ])('%s', (_name, open, expected) => {
    expect(earlyPayoffCents(open, '2027-01-15')).toBe(expected);
  });
});

describe('an overdue installment', () => {
  it.each([
    ['declined with no try left', 'unpaid', '2027-01-20', true],
    ['late', 'late', '2026-12-01', true],
    ['come due before the day and never charged (no method on file)', 'due', '2027-01-14', true],
    ['due that very day', 'due', '2027-01-15', false],
    ['waiting for a retry', 'retrying', '2027-01-01', false],
    ['paid', 'paid', '2027-01-01', false],
  ] as const)('%s: %s', (_name, status, dueDate, overdue) => {
    expect(installmentIsOverdue({ status, dueDate }, '2027-01-15')).toBe(overdue);
    if (status !== 'paid') {
      expect(accountInstallmentState({ status, dueDate }, '2027-01-15') === 'overdue').toBe(overdue);
    }
  });
});
