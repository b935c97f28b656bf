import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VialQueueItem } from '../../../../domain/staff-queues';
import { renderInPortal } from '../../../testing/render';
import { VialRequestsQueuePage } from './vial-requests-queue-page';

const awaiting = (canApprove: boolean): VialQueueItem => ({
  id: '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f70',
  clientId: 'c1',
  clientActId: 'ACT70001',
  clientName: 'Test Client',
  status: 'requested',
  requestedAt: '2026-11-20T15:00:00.000Z',
  vials: 1,
  prePaidVials: 1,
  bioInsuranceVialsUsed: 1,
  longevityVialsUsed: 0,
  shippingMethod: 'ACT VIP',
  shipmentDate: '2026-12-01',
  shipTo: 'Samuel Okafor, 160 East 56th Street, New York, NY 10022',
  paymentMethod: 'Credit Card',
  paymentDescription: 'Visa ending in 4242',
  totalCents: 0,
  shippingPriceToBeConfirmed: true,
  approvedByPractitionerAt: null,
  vipPriceConfirmedAt: null,
  vipPriceCents: 300_000,
  vipTransactionId: null,
  vipPriceAwaitingApproval: {
    amountCents: 300_000,
    enteredBy: 'Vip Desk',
    enteredAt: '2026-11-25T15:00:00.000Z',
    canApprove,
  },
  shippedAt: null,
  trackingNumber: null,
  deliveredAt: null,
  cardFeeBasisPoints: 300,
  cancellation: {
    state: 'open',
    phase: 'full',
    cutoff: '2026-11-26T19:00:00.000Z',
    refundCents: 0,
    keptCents: 0,
    returnedVials: 1,
    forfeitedVials: 0,
    lines: ['Nothing was charged for this request, so nothing is refunded.'],
  },
  shipping: { carrier: null, courier: null, scans: [], deliveryConfirmation: null },
  hasLabel: false,
  suggestedContents: 'Cryopreserved human cells, 1 vial, in a liquid nitrogen dry shipper',
  objectionDeadline: null,
});

/** The queue answers one request; an approval answers the request charged. */
function fakeServer(item: VialQueueItem, others: VialQueueItem[] = []) {
  const posts: Array<{ url: string; body: unknown }> = [];
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/staff/queues/vial-requests') return json({ requests: [item, ...others] });
      if (init?.method === 'POST') {
        posts.push({ url, body: JSON.parse(String(init.body)) });
        return json({
          message: 'The ACT VIP price was confirmed and charged.',
          request: {
            ...item,
            vipPriceAwaitingApproval: null,
            vipPriceConfirmedAt: '2026-11-26T09:00:00.000Z',
          },
        });
      }
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return posts;
}

/** The queue's page, with the request's row opened on its card (its actions). */
async function renderPage() {
  renderInPortal(
    <MemoryRouter>
      <VialRequestsQueuePage />
    </MemoryRouter>,
  );
  await userEvent.click(await screen.findByRole('button', { name: /^Open Test Client \(ACT70001\)/ }));
}

afterEach(() => vi.unstubAllGlobals());

describe('an ACT VIP price awaiting a second admin', () => {
  it('shows another admin the amount and "Approve and charge $3,000.00", which approves that amount', async () => {
    const posts = fakeServer(awaiting(true));
    await renderPage();
    expect(await screen.findByText(/\$3,000\.00, entered by Vip Desk/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Approve and charge $3,000.00' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      url: '/api/staff/vial_requests/6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f70/approve_vip_price',
      body: { amountCents: 300_000 },
    });
    expect(await screen.findByText('The ACT VIP price was confirmed and charged.')).toBeTruthy();
  });

  it('shows the member who entered it that it awaits another admin, with no approval button', async () => {
    fakeServer(awaiting(false));
    await renderPage();
    expect(
      await screen.findByText(
        'The ACT VIP price of $3,000.00 awaits the approval of an admin other than the one who entered it.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Approve and charge/ })).toBeNull();
  });
});

describe('staff cancel a request', () => {
  const late: VialQueueItem = {
    ...awaiting(false),
    vipPriceAwaitingApproval: null,
    shippingPriceToBeConfirmed: false,
    shippingMethod: 'FedEx',
    cancellation: {
      state: 'open',
      phase: 'late',
      cutoff: '2026-11-26T19:00:00.000Z',
      refundCents: 68_495,
      keptCents: 51_500,
      returnedVials: 0,
      forfeitedVials: 1,
      lines: [],
    },
  };

  it('names what it refunds, keeps and forfeits, needs a reason, and sends it', async () => {
    const posts = fakeServer(late);
    await renderPage();
    expect(
      await screen.findByText(
        'After the cancellation deadline (2:00 PM Eastern on 11/26/2026): cancelling now refunds $684.95, keeps $515.00 as the replacement fee, forfeits 1 pre-paid vial. The client is e-mailed.',
      ),
    ).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Cancel and refund $684.95' });
    await userEvent.click(button);
    expect(await screen.findByText('Please give a reason for the cancellation')).toBeTruthy();
    expect(posts).toHaveLength(0);
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Reason for the cancellation' }),
      'Clinic closed',
    );
    await userEvent.click(button);
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      url: '/api/staff/vial_requests/6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f70/cancel',
      body: { reason: 'Clinic closed' },
    });
  });

  it('shows the Longevity vials a request took, 10 a vial, and that cancelling now gives those back', async () => {
    fakeServer({
      ...late,
      vials: 2,
      prePaidVials: 1,
      bioInsuranceVialsUsed: 0,
      longevityVialsUsed: 10,
      cancellation: {
        state: 'open',
        phase: 'full',
        cutoff: '2026-11-26T19:00:00.000Z',
        refundCents: 51_500,
        keptCents: 0,
        returnedVials: 1,
        forfeitedVials: 0,
        lines: [],
      },
    });
    await renderPage();
    const card = await screen.findByRole('region', { name: /Test Client \(ACT70001\)/ });
    expect(within(card).getByText('2 (1 pre-paid: 10 Longevity vials of 1 million cells)')).toBeTruthy();
    expect(
      within(card).getByText(
        'Before the cancellation deadline (2:00 PM Eastern on 11/26/2026): cancelling now refunds $515.00, gives 1 pre-paid vial (10 Longevity vials of 1 million cells) back. The client is e-mailed.',
      ),
    ).toBeTruthy();
  });

  it('offers nothing once shipped', async () => {
    fakeServer({
      ...late,
      cancellation: {
        state: 'closed',
        cutoff: '2026-11-26T19:00:00.000Z',
        message: 'No cancellation is possible once the vials have shipped.',
      },
    });
    await renderPage();
    expect(await screen.findByRole('region', { name: /Test Client \(ACT70001\)/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Cancel/ })).toBeNull();
  });
});

describe("a physician's request", () => {
  it("shows staff the end of the client's objection window, before which it does not ship", async () => {
    fakeServer({ ...awaiting(true), objectionDeadline: '2026-12-02T05:00:00.000Z' });
    await renderPage();
    expect(
      await screen.findByText(
        "A physician's request: the client may object until the end of 12/01/2026 (Eastern time); it ships only after that.",
      ),
    ).toBeTruthy();
  });
});

describe('the queue as a table', () => {
  const toShip: VialQueueItem = {
    ...awaiting(false),
    id: '7a2d3c0f-1b5e-4d2f-8e2b-3c4d5e6f7081',
    clientActId: 'ACT70002',
    clientName: 'Rita Alvarez',
    requestedAt: '2026-11-22T15:00:00.000Z',
    vials: 2,
    shippingMethod: 'FedEx',
    shippingPriceToBeConfirmed: false,
    vipPriceAwaitingApproval: null,
    vipPriceCents: null,
    approvedByPractitionerAt: '2026-11-23T15:00:00.000Z',
    totalCents: 138_844,
  };

  it('shows each request with its next step, filters by it, and opens the request on its actions', async () => {
    fakeServer(awaiting(true), [toShip]);
    const user = userEvent.setup();
    renderInPortal(
      <MemoryRouter>
        <VialRequestsQueuePage />
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table', { name: 'Vial requests' });
    const rita = within(table).getByRole('row', { name: /Rita Alvarez/ });
    expect(within(rita).getByText('2 vials by FedEx')).toBeTruthy();
    expect(within(rita).getByText('11/22/2026')).toBeTruthy();
    expect(within(rita).getByText('$1,388.44')).toBeTruthy();
    expect(within(rita).getByText('To ship')).toBeTruthy();
    expect(
      within(within(table).getByRole('row', { name: /Test Client/ })).getByText('Practitioner approval'),
    ).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Next step' }), 'To ship (1)');
    expect(within(table).queryByRole('row', { name: /Test Client/ })).toBeNull();
    await user.click(
      within(table).getByRole('button', { name: 'Open Rita Alvarez (ACT70002), 2 vials by FedEx' }),
    );
    const card = within(table).getByRole('region', { name: /Rita Alvarez \(ACT70002\): 2 vials by FedEx/ });
    expect(within(card).getByRole('button', { name: 'Create label' })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Record practitioner approval' })).toBeNull();
  });

  it('finds a request by its order id, which the row does not show', async () => {
    fakeServer(awaiting(true), [toShip]);
    const user = userEvent.setup();
    renderInPortal(
      <MemoryRouter>
        <VialRequestsQueuePage />
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table', { name: 'Vial requests' });
    await user.type(screen.getByRole('searchbox', { name: 'Filter by client, ID or order' }), '7a2d3c0f');
    expect(
      within(table)
        .getAllByRole('button', { name: /^Open/ })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Open Rita Alvarez (ACT70002), 2 vials by FedEx']);
  });
});
