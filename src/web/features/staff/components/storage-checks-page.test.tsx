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

function fakeServer(answer: { status: number; body: unknown }) {
  const recorded: unknown[] = [];
  let queue = [invoiced];
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

function renderPage() {
  renderInPortal(
    <MemoryRouter>
      <StorageChecksPage />
    </MemoryRouter>,
  );
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
    renderPage();
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
    renderPage();
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
