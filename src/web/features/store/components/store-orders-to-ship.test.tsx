import { focusManager } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoreOrderSummary } from '../../../../domain/store';
import { renderInPortal } from '../../../testing/render';
import { StoreOrdersToShip } from './store-orders-to-ship';

const order: StoreOrderSummary = {
  id: '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f70',
  status: 'ordered',
  orderedAt: '2026-11-23T15:00:00.000Z',
  item: 'Stem Cell Face Serum',
  quantity: 2,
  totalCents: 46_350,
  ShipmentDate: '2026-12-01',
  cancelledAt: null,
  refundCents: null,
  refundedCents: 0,
};

/** The server's answer to its cancellation: cancelled, the whole $463.50 refunded. */
const cancelled: StoreOrderSummary = {
  ...order,
  status: 'cancelled',
  cancelledAt: order.orderedAt,
  refundCents: 46_350,
  refundedCents: 46_350,
};

/**
 * The server: one order to ship until it is cancelled; the cancellations it receives are kept.
 * With `listFirst`, the page refetches the list (the window regains focus) after the order is
 * cancelled and before the cancellation's answer arrives, as a slow answer lets it.
 */
function fakeServer(answer: { status: number; body: unknown }, { listFirst = false } = {}) {
  const cancels: { body: unknown; key: string | null }[] = [];
  let listed = [order];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).split('?')[0];
      if (path === '/api/pay/get_StoreOrders') return json({ orders: listed });
      if (path === '/api/pay/cancel_StoreOrder') {
        cancels.push({
          body: JSON.parse(String(init?.body)),
          key: new Headers(init?.headers).get('idempotency-key'),
        });
        if (answer.status === 200) listed = [];
        if (listFirst) {
          focusManager.setFocused(false);
          focusManager.setFocused(true);
          await waitFor(() => expect(screen.queryByRole('button', { name: /Cancel and refund/ })).toBeNull());
        }
        return json(answer.body, answer.status);
      }
      throw new Error(`unexpected call ${path}`);
    }),
  );
  return { cancels };
}

const render = () =>
  renderInPortal(
    <MemoryRouter>
      <StoreOrdersToShip />
    </MemoryRouter>,
  );

afterEach(() => {
  vi.unstubAllGlobals();
  focusManager.setFocused(undefined);
});

describe('the store orders not yet shipped', () => {
  it('asks once more, the button naming the refund, then says it is refunded and the order leaves the list', async () => {
    const server = fakeServer({
      status: 200,
      body: cancelled,
    });
    const user = userEvent.setup();
    render();
    expect(await screen.findByRole('heading', { name: 'Your orders not yet shipped' })).toBeTruthy();
    expect(screen.getByText('Arrival date 12/01/2026. Total charged $463.50.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel this order' }));
    expect(screen.getByText('Cancel this order? This cannot be undone.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel and refund $463.50' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain(
      'Your order is cancelled. $463.50 was refunded to the account you paid with.',
    );
    expect(server.cancels).toHaveLength(1);
    expect(server.cancels[0]?.body).toEqual({ id: order.id });
    expect(server.cancels[0]?.key).toBeTruthy();
    await screen.findByRole('link', { name: 'See it on Client Activity' });
    expect(screen.queryByRole('button', { name: 'Cancel this order' })).toBeNull();
  });

  it('says the order is refunded when the list lost it before the answer came', async () => {
    fakeServer(
      {
        status: 200,
        body: cancelled,
      },
      { listFirst: true },
    );
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Cancel this order' }));
    await user.click(screen.getByRole('button', { name: 'Cancel and refund $463.50' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain(
      'Your order is cancelled. $463.50 was refunded to the account you paid with.',
    );
  });

  it("announces the server's refusal and keeps the order", async () => {
    fakeServer({ status: 409, body: { error: 'No cancellation is possible once the order has shipped.' } });
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Cancel this order' }));
    await user.click(screen.getByRole('button', { name: 'Cancel and refund $463.50' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('No cancellation is possible once the order has shipped.');
    expect(screen.getByRole('button', { name: 'Keep the order' })).toBeTruthy();
  });
});
