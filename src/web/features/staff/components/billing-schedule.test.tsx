import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingYear } from '../../../../domain/storage-billing';
import { renderInPortal } from '../../../testing/render';
import { BillingSchedule } from './billing-schedule';

const year = (overrides: Partial<BillingYear>): BillingYear => ({
  id: '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f71',
  clientActId: 'ACT10010',
  clientName: 'Ben Ortiz',
  yearNumber: 3,
  dueDate: '2026-12-21',
  chargeOn: '2026-12-21',
  amountCents: 35_000,
  status: 'overdue',
  method: 'Visa ending 0341',
  tries: 4,
  nextTryOn: null,
  lastDecline: 'generic_decline',
  paidOn: null,
  note: null,
  ...overrides,
});

function answer(years: BillingYear[]) {
  const fetch = vi.fn(
    async () =>
      new Response(JSON.stringify({ years }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe("a client's billing schedule", () => {
  it('lists each storage year with its status in words, its tries, payment day and note', async () => {
    const fetch = answer([
      year({
        id: '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f73',
        yearNumber: 4,
        dueDate: '2027-12-21',
        status: 'noticed',
        tries: 0,
        lastDecline: null,
        note: 'Deferred to 01/15/2028: Asked to pay after surgery',
      }),
      year({ status: 'waived', note: 'Waived: Goodwill after a hospital stay' }),
      year({
        id: '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f72',
        yearNumber: 2,
        dueDate: '2025-12-21',
        status: 'paid',
        tries: 1,
        paidOn: '2025-12-21',
      }),
      year({ id: '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f74', yearNumber: 1, status: 'covered', tries: 0 }),
    ]);
    renderInPortal(<BillingSchedule clientActId="ACT10010" />);
    const table = await screen.findByRole('table', { name: 'Billing schedule' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => Array.from(row.children, (cell) => cell.textContent));
    expect(rows).toEqual([
      ['Storage year', 'Due', 'Amount', 'Status', 'Tries', 'Paid on', 'Note'],
      [
        '4',
        '12/21/2027',
        '$350.00',
        'Notice sent',
        '0',
        '—',
        'Deferred to 01/15/2028: Asked to pay after surgery',
      ],
      ['3', '12/21/2026', '$350.00', 'Waived', '4', '—', 'Waived: Goodwill after a hospital stay'],
      ['2', '12/21/2025', '$350.00', 'Paid', '1', '12/21/2025', '—'],
      ['1', '12/21/2026', '$350.00', 'Prepaid by a plan', '0', '—', '—'],
    ]);
    // On a phone, a card per year says the same.
    const cards = screen.getByRole('list', { name: 'Billing schedule' });
    expect(within(cards).getByText('Storage year 3')).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith('/api/staff/billing/clients/ACT10010', expect.anything());
  });

  it.each([
    ['retrying', 'Waiting for a retry'],
    ['overdue', 'Overdue'],
  ] as const)('words the status %s as %j', async (status, words) => {
    answer([year({ status })]);
    renderInPortal(<BillingSchedule clientActId="ACT10010" />);
    const table = await screen.findByRole('table', { name: 'Billing schedule' });
    expect(within(table).getByText(words)).toBeTruthy();
  });

  it('says so when no year has been billed', async () => {
    answer([]);
    renderInPortal(<BillingSchedule clientActId="ACT10010" />);
    expect(await screen.findByText('No storage year has been billed yet.')).toBeTruthy();
  });
});
