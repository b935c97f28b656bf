import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoreQueueItem } from '../../../../domain/staff-queues';
import { renderInPortal } from '../../../testing/render';
import { StoreOrdersQueuePage } from './store-orders-queue-page';

const ordered: StoreQueueItem = {
  id: '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f70',
  clientId: 'c1',
  clientActId: 'ACT70001',
  clientName: 'Test Client',
  status: 'ordered',
  orderedAt: '2026-11-23T15:00:00.000Z',
  item: 'Stem Cell Face Serum',
  quantity: 2,
  shippingMethod: 'FedEx',
  shipmentDate: '2026-12-01',
  shipTo: 'Test Client, 1200 Brickell Avenue, Miami, FL 33131',
  totalCents: 46_350,
  shippedAt: null,
  trackingNumber: null,
  hasLabel: false,
  suggestedContents: 'Stem Cell Face Serum, 2 bottles',
  deliveredAt: null,
};

function fakeServer() {
  const cancels: unknown[] = [];
  const labels: unknown[] = [];
  let queue = [ordered];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).split('?')[0];
      if (path === '/api/staff/queues/store-orders') return json({ orders: queue });
      if (path === `/api/staff/store_orders/${ordered.id}/cancel`) {
        cancels.push(JSON.parse(String(init?.body)));
        queue = [];
        return json({
          message: 'The order was cancelled, its refund sent and the client e-mailed.',
          order: { ...ordered, status: 'cancelled' },
        });
      }
      if (path === `/api/staff/store_orders/${ordered.id}/create_label`) {
        labels.push(JSON.parse(String(init?.body)));
        const shipped: StoreQueueItem = {
          ...ordered,
          status: 'shipped',
          shippedAt: '2026-11-24T15:00:00.000Z',
          trackingNumber: '794612345678',
          hasLabel: true,
        };
        queue = [shipped];
        return json({
          message: 'The label was created, the order marked shipped and the client e-mailed.',
          order: shipped,
        });
      }
      throw new Error(`unexpected call ${path}`);
    }),
  );
  return { cancels, labels };
}

afterEach(() => vi.unstubAllGlobals());

describe('the store orders queue', () => {
  it('creates the carrier label with the declared contents, then offers the label to print', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    renderInPortal(
      <MemoryRouter>
        <StoreOrdersQueuePage />
      </MemoryRouter>,
    );
    await user.click(await screen.findByRole('button', { name: /^Open Test Client \(ACT70001\)/ }));
    const contents = await screen.findByRole('textbox', { name: 'Declared contents' });
    expect((contents as HTMLInputElement).value).toBe('Stem Cell Face Serum, 2 bottles');
    await user.clear(contents);
    await user.click(screen.getByRole('button', { name: 'Create label' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter the declared contents');
    expect(server.labels).toHaveLength(0);
    await user.type(contents, 'Face serum, 2 bottles');
    await user.click(screen.getByRole('button', { name: 'Create label' }));
    expect(
      (await screen.findByText('The label was created, the order marked shipped and the client e-mailed.'))
        .textContent,
    ).toBeTruthy();
    expect(server.labels).toEqual([{ contents: 'Face serum, 2 bottles' }]);
    const print = await screen.findByRole('link', { name: 'Print the label (PDF)' });
    expect(print.getAttribute('href')).toBe(`/api/staff/store_orders/${ordered.id}/label`);
    expect(screen.getByRole('button', { name: 'Check tracking now' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create label' })).toBeNull();
  });

  it('cancels an order not yet shipped with a reason, the button naming the refund', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    renderInPortal(
      <MemoryRouter>
        <StoreOrdersQueuePage />
      </MemoryRouter>,
    );
    await user.click(await screen.findByRole('button', { name: /^Open Test Client \(ACT70001\)/ }));
    const button = await screen.findByRole('button', { name: 'Cancel and refund $463.50' });
    await user.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe('Please give a reason for the cancellation');
    expect(server.cancels).toHaveLength(0);
    await user.type(screen.getByRole('textbox', { name: 'Reason for the cancellation' }), 'Out of stock');
    await user.click(button);
    expect((await screen.findByText(/The order was cancelled, its refund sent/)).textContent).toBe(
      'The order was cancelled, its refund sent and the client e-mailed.',
    );
    expect(server.cancels).toEqual([{ reason: 'Out of stock' }]);
  });
});
