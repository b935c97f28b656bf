import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StorageYearAwaitingCheck } from '../../../../domain/storage-year-checks';
import { renderInPortal } from '../../../testing/render';
import { StorageChecksPage } from './storage-checks-page';

const invoiced: StorageYearAwaitingCheck = {
  feeId: '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f70',
  clientId: '0b7e2c1d-3f4a-4b5c-8d9e-0f1a2b3c4d5e',
  clientActId: 'ACT70001',
  clientName: 'Test Client',
  yearNumber: 2,
  dueDate: '2026-06-14',
  overdue: true,
  amountDueCents: 35_000,
  paidUntil: '2026-06-14',
  paysUntil: '2027-06-14',
};

function fakeServer(answer: { status: number; body: unknown }, years = [invoiced]) {
  const recorded: unknown[] = [];
  let queue = years;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).split('?')[0];
      if (path === '/api/staff/storage_checks') return json({ years: queue });
      if (path === '/api/staff/queues') return json({ queues: [] });
      if (path === '/api/staff/record_storage_check') {
        recorded.push(JSON.parse(String(init?.body)));
        if (answer.status === 200) queue = [];
        return json(answer.body, answer.status);
      }
      throw new Error(`unexpected call ${path}`);
    }),
  );
  return { recorded };
}

/** The queue's page, with the year's row opened on its card (its check form). */
async function renderPage() {
  renderInPortal(
    <MemoryRouter>
      <StorageChecksPage />
    </MemoryRouter>,
  );
  await userEvent.click(await screen.findByRole('button', { name: /^Open Test Client \(ACT70001\)/ }));
}

afterEach(() => vi.unstubAllGlobals());

describe('the Storage Years Paid by Check queue', () => {
  it('shows the client, the year, its due date and amount; a wrong amount is refused before sending', async () => {
    const server = fakeServer({
      status: 200,
      body: {
        success: true,
        message: 'Check recorded. The storage year is paid and the client was e-mailed the receipt.',
        feeId: invoiced.feeId,
        clientActId: 'ACT70001',
        checkNumber: '5150',
        checkAmountCents: 35_000,
        checkDate: '2026-06-20',
        recordedAt: '2026-06-20T15:00:00.000Z',
        paidUntil: '2027-06-14',
      },
    });
    const user = userEvent.setup();
    await renderPage();
    const card = await screen.findByRole('article', { name: 'Test Client · ACT70001' });
    expect(card.textContent).toContain('Annual storage, storage year 2: due 06/14/2026');
    expect(within(card).getByText('Overdue')).toBeTruthy();
    expect(card.textContent).toContain('Amount due: $350.00');
    expect(card.textContent).toContain('Storage paid until: 06/14/2026, then 06/14/2027');

    const form = within(card).getByRole('form', { name: 'Record the check of Test Client' });
    await user.type(within(form).getByRole('textbox', { name: 'Check number' }), '5150');
    await user.type(within(form).getByRole('textbox', { name: 'Check amount' }), '339.81');
    await user.type(within(form).getByRole('textbox', { name: 'Check date' }), '06/01/2026');
    await user.click(within(form).getByRole('button', { name: 'Record check' }));
    expect(await within(form).findByText('The check must be for the amount due, $350.00.')).toBeTruthy();
    expect(server.recorded).toHaveLength(0);

    const amount = within(form).getByRole('textbox', { name: 'Check amount' });
    await user.clear(amount);
    await user.type(amount, '350.00');
    await user.click(within(form).getByRole('button', { name: 'Record check' }));
    const done = await screen.findByRole('status');
    expect(done.textContent).toBe(
      'Test Client (ACT70001): Check recorded. The storage year is paid and the client was e-mailed the receipt. Storage is paid until 06/14/2027.',
    );
    expect(server.recorded).toEqual([
      { feeId: invoiced.feeId, checkNumber: '5150', checkAmount: '350.00', checkDate: '06/01/2026' },
    ]);
    expect(await screen.findByText('No storage years are waiting for a check.')).toBeTruthy();
  });

  it('tells staff who recorded the check when another staff member got there first', async () => {
    fakeServer({
      status: 409,
      body: {
        error: 'This check was already recorded by Desk Storage on 06/20/2026.',
        code: 'ALREADY_COMPLETED',
      },
    });
    const user = userEvent.setup();
    await renderPage();
    const form = await screen.findByRole('form', { name: 'Record the check of Test Client' });
    await user.type(within(form).getByRole('textbox', { name: 'Check number' }), '5151');
    await user.type(within(form).getByRole('textbox', { name: 'Check amount' }), '350');
    await user.type(within(form).getByRole('textbox', { name: 'Check date' }), '06/01/2026');
    await user.click(within(form).getByRole('button', { name: 'Record check' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'This check was already recorded by Desk Storage on 06/20/2026.',
    );
  });
});

describe('the queue as a table', () => {
  // The server's order: oldest due first.
  const years: StorageYearAwaitingCheck[] = [
    invoiced,
    {
      ...invoiced,
      feeId: '7a2d3c0f-1b5e-4d2f-8e2b-3c4d5e6f7081',
      clientActId: 'ACT70002',
      clientName: 'Rita Alvarez',
      yearNumber: 1,
      dueDate: '2026-09-01',
      amountDueCents: 33_981,
    },
    {
      ...invoiced,
      feeId: '8b3e4d1a-2c6f-4e3a-9f3c-4d5e6f708192',
      clientActId: 'ACT70003',
      clientName: 'Sam Okafor',
      yearNumber: 4,
      dueDate: '2026-12-20',
      overdue: false,
      amountDueCents: 120_000,
    },
  ];
  const names = (table: HTMLElement) =>
    [...table.querySelectorAll<HTMLTableRowElement>('tbody > tr')]
      .filter((row) => row.cells.length > 1)
      .map((row) => row.cells[0]?.textContent);

  it('lists each year with its client, due date, amount and status, oldest due first, and sorts by amount', async () => {
    fakeServer({ status: 200, body: {} }, years);
    const user = userEvent.setup();
    renderInPortal(
      <MemoryRouter>
        <StorageChecksPage />
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table', { name: 'Storage years paid by check' });
    expect(names(table)).toEqual(['Test Client', 'Rita Alvarez', 'Sam Okafor']);
    expect(within(table).getByRole('columnheader', { name: 'Due' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    const sam = within(table).getByRole('row', { name: /Sam Okafor/ });
    expect(within(sam).getByText('12/20/2026')).toBeTruthy();
    expect(within(sam).getByText('$1,200.00')).toBeTruthy();
    expect(within(sam).getByText('Invoiced')).toBeTruthy();

    await user.click(within(table).getByRole('button', { name: 'Amount due' }));
    await user.click(within(table).getByRole('button', { name: 'Amount due' }));
    expect(names(table)).toEqual(['Sam Okafor', 'Test Client', 'Rita Alvarez']);
    expect(within(table).getByRole('columnheader', { name: 'Amount due' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
  });

  it('filters the overdue years and a client, then records the check of the row opened', async () => {
    const server = fakeServer(
      {
        status: 200,
        body: {
          success: true,
          message: 'Check recorded. The storage year is paid and the client was e-mailed the receipt.',
          feeId: years[1]?.feeId,
          clientActId: 'ACT70002',
          checkNumber: '88',
          checkAmountCents: 33_981,
          checkDate: '2026-06-20',
          recordedAt: '2026-06-20T15:00:00.000Z',
          paidUntil: '2027-09-01',
        },
      },
      years,
    );
    const user = userEvent.setup();
    renderInPortal(
      <MemoryRouter>
        <StorageChecksPage />
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table', { name: 'Storage years paid by check' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Overdue (2)');
    expect(names(table)).toEqual(['Test Client', 'Rita Alvarez']);
    await user.type(screen.getByRole('searchbox', { name: 'Filter by client, ID or year' }), 'act70002');
    expect(names(table)).toEqual(['Rita Alvarez']);
    expect(screen.getByText('Showing 1 of 3.')).toBeTruthy();
    await user.type(screen.getByRole('searchbox'), ' nobody');
    expect(screen.getByText('Nothing here matches the filter.')).toBeTruthy();
    await user.type(screen.getByRole('searchbox'), '{Backspace>7/}');

    await user.click(screen.getByRole('button', { name: 'Open Rita Alvarez (ACT70002), storage year 1' }));
    const form = screen.getByRole('form', { name: 'Record the check of Rita Alvarez' });
    await user.type(within(form).getByRole('textbox', { name: 'Check number' }), '88');
    await user.type(within(form).getByRole('textbox', { name: 'Check amount' }), '339.81');
    await user.type(within(form).getByRole('textbox', { name: 'Check date' }), '06/01/2026');
    await user.click(within(form).getByRole('button', { name: 'Record check' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Rita Alvarez (ACT70002): Check recorded. The storage year is paid and the client was e-mailed the receipt. Storage is paid until 09/01/2027.',
    );
    expect(server.recorded).toEqual([
      { feeId: years[1]?.feeId, checkNumber: '88', checkAmount: '339.81', checkDate: '06/01/2026' },
    ]);
  });
});
