import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StaffPlanOrder, StaffPlanOrders } from '../../../../domain/storage-plan-refund';
import { renderInPortal } from '../../../testing/render';
import { ClientPlanOrdersSection } from './client-plan-orders-section';

const ORDER_ID = '5b2d7e1a-3c4f-4a6b-9d8e-2f1a3b5c7d90';

/** 5 Year Storage Plan + Bio-Insurance 25 vials by card, $11,922.25; one year begun, 10 vials left. */
const order = (over: Partial<StaffPlanOrder> = {}): StaffPlanOrder => ({
  id: ORDER_ID,
  orderedOn: '2026-03-10',
  planNames: '5 Year Storage Plan + Bio-Insurance 250 (250,000,000 cells, 25 Vials)',
  storageYears: 5,
  bioInsuranceVials: 25,
  longevityVials: 0,
  totalCents: 1_192_225,
  paidCents: 1_192_225,
  paymentDescription: 'Visa ending in 4242',
  paidByCheck: false,
  paidUntilAfter: '2032-06-01',
  preview: {
    years: 4,
    bioInsuranceVials: 10,
    longevityVials: 0,
    storageRefundCents: 126_000,
    bankingRefundCents: 400_000,
    feeRefundCents: 15_780,
    refundCents: 541_780,
    paidUntilAfterTakeBack: '2028-06-01',
  },
  takenBack: null,
  ...over,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Post {
  url: string;
  body: unknown;
  key: string | null;
}

function fakeServer(list: StaffPlanOrders, answer: (post: Post) => Response | Promise<Response>) {
  const posts: Post[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/staff/clients/ACT10012/storage_plans') return json(list);
      if (init?.method === 'POST') {
        const post = {
          url,
          body: JSON.parse(String(init.body)),
          key: new Headers(init.headers).get('idempotency-key'),
        };
        posts.push(post);
        return answer(post);
      }
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return posts;
}

afterEach(() => vi.unstubAllGlobals());
beforeAll(() => {
  // The Reason's autosized Textarea listens for web fonts loading, which jsdom does not have.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => {}, removeEventListener: () => {} },
    });
  }
});

async function openForm() {
  const user = userEvent.setup();
  renderInPortal(<ClientPlanOrdersSection clientActId="ACT10012" />);
  await user.click(
    await screen.findByRole('button', {
      name: 'Refund unused part of 5 Year Storage Plan + Bio-Insurance 250 (250,000,000 cells, 25 Vials), ordered on 03/10/2026',
    }),
  );
  const form = await screen.findByRole('form', { name: 'Refund the unused part of this plan' });
  return { user, form };
}

describe('Refund unused… on a plan order', () => {
  it('shows what is taken back to the cent, needs a reason under its field, and sends once with a key', async () => {
    const posts = fakeServer({ orders: [order()], canRefund: true }, () =>
      json({
        success: true,
        message:
          'The unused part of the plan was taken back and $5,417.80 refunded to the account it was paid with.',
        order: order({ preview: null }),
      }),
    );
    const { user, form } = await openForm();
    const facts = form.querySelector('dl[aria-label="What will be taken back"]');
    expect(facts?.textContent).toContain(
      'Storage years not yet begun (4):$1,260.00, paid until 06/01/2028 after',
    );
    expect(facts?.textContent).toContain('Bio-Insurance vials not yet used (10):$4,000.00');
    expect(facts?.textContent).toContain('Card processing fee, in proportion:$157.80');
    expect(facts?.textContent).toContain('Refund:$5,417.80');
    expect(
      within(form).getByText(
        'Takes back 4 storage years and 10 Bio-Insurance vials and refunds those only. The client is e-mailed.',
      ),
    ).toBeTruthy();

    const confirm = within(form).getByRole('button', { name: 'Take back and refund $5,417.80' });
    await user.click(confirm);
    expect(within(form).getByText('Please give a reason for the refund')).toBeTruthy();
    expect(posts).toHaveLength(0);

    await user.type(within(form).getByRole('textbox', { name: /Reason/ }), 'Moving abroad');
    await user.dblClick(confirm);
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'The unused part of the plan was taken back and $5,417.80 refunded to the account it was paid with.',
      ),
    );
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      url: `/api/staff/storage_plans/${ORDER_ID}/refund`,
      body: { reason: 'Moving abroad' },
    });
    expect(posts[0]?.key?.length).toBeGreaterThanOrEqual(8);
  });

  it('a refusal is shown in the form, in the server’s words', async () => {
    fakeServer({ orders: [order()], canRefund: true }, () =>
      json(
        {
          error: "This plan's unused part was already taken back on 06/02/2026.",
          code: 'NOT_ALLOWED_NOW',
        },
        409,
      ),
    );
    const { user, form } = await openForm();
    await user.type(within(form).getByRole('textbox', { name: /Reason/ }), 'Moving abroad');
    await user.click(within(form).getByRole('button', { name: 'Take back and refund $5,417.80' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      "This plan's unused part was already taken back on 06/02/2026.",
    );
  });

  it('staff-level members read the figures without the action; a plan taken back says so', async () => {
    fakeServer(
      {
        orders: [
          order({
            preview: null,
            takenBack: {
              at: '2026-06-02T15:00:00.000Z',
              by: 'Demo Admin',
              reason: 'Moving abroad',
              years: 4,
              bioInsuranceVials: 10,
              longevityVials: 0,
              refundCents: 541_780,
              byCheck: false,
              refundedCents: 541_780,
            },
          }),
        ],
        canRefund: false,
      },
      () => json({}),
    );
    renderInPortal(<ClientPlanOrdersSection clientActId="ACT10012" />);
    expect(
      await screen.findByText('06/02/2026 by Demo Admin: 4 storage years and 10 Bio-Insurance vials'),
    ).toBeTruthy();
    expect(screen.getByText('$5,417.80')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Refund unused/ })).toBeNull();
  });
});
