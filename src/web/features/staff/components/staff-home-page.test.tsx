import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInPortal } from '../../../testing/render';
import { StaffHomePage } from './staff-home-page';

const QUEUES = [
  { key: 'checks', title: 'New Samples Paid by Check', count: 0 },
  { key: 'samples-to-receive', title: 'Samples to Receive', count: 2 },
  { key: 'lab-reports', title: 'Lab Reports', count: 0 },
  { key: 'vial-requests', title: 'Vial Requests', count: 1 },
  { key: 'payments-in-doubt', title: 'Payments in Doubt', count: 0 },
  { key: 'plan-checks', title: 'Plan Orders Paid by Check', count: 0 },
  { key: 'storage-checks', title: 'Storage Years Paid by Check', count: 3 },
  { key: 'store-orders', title: 'Store Orders', count: 0 },
];

function answerQueues(answer: () => Promise<Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      if (String(input) === '/api/staff/queues') return answer();
      throw new Error(`unexpected call ${String(input)}`);
    }),
  );
}

const cardKeys = () =>
  screen.getAllByTestId(/^queue-/).map((card) => card.getAttribute('data-testid')?.replace('queue-', ''));

describe('StaffHomePage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('holds a card for every queue while the counts load, so Billing does not move when they arrive', async () => {
    let release: (response: Response) => void = () => {};
    answerQueues(() => new Promise<Response>((resolve) => (release = resolve)));
    renderInPortal(
      <MemoryRouter>
        <StaffHomePage />
      </MemoryRouter>,
    );

    const order = [
      'clients',
      'checks',
      'samples-to-receive',
      'lab-reports',
      'vial-requests',
      'payments-in-doubt',
      'plan-checks',
      'storage-checks',
      'store-orders',
      'billing',
    ];
    expect(cardKeys()).toEqual(order);
    expect(screen.queryByText(/^\d+ waiting$/)).toBeNull();
    expect(
      within(screen.getByTestId('queue-storage-checks')).getByText(
        'Storage years invoiced or overdue: record the check, so the year is paid.',
      ),
    ).toBeTruthy();

    release(
      new Response(JSON.stringify({ queues: QUEUES }), { headers: { 'content-type': 'application/json' } }),
    );
    expect(await screen.findByRole('link', { name: 'Storage Years Paid by Check' })).toBeTruthy();
    expect(cardKeys()).toEqual(order);
    expect(within(screen.getByTestId('queue-storage-checks')).getByText('3 waiting')).toBeTruthy();
  });

  it('shows no stand-in cards when the counts cannot be read, only the error', async () => {
    answerQueues(async () => {
      throw new TypeError('Failed to fetch');
    });
    renderInPortal(
      <MemoryRouter>
        <StaffHomePage />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(cardKeys()).toEqual(['clients', 'billing']);
  });
});
