import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StaffClientPayments, StaffPayment, StaffRefund } from '../../../../domain/refunds';
import { renderInPortal } from '../../../testing/render';
import { ClientPaymentsSection } from './client-payments-section';

const PAYMENT_ID = '3a1f6c2e-8b4d-4e1f-9a2b-1c3d5e7f9a01';
const REFUND_ID = '7c2e4a6b-1d3f-4b5a-8c9d-0e1f2a3b4c5d';

const payment = (over: Partial<StaffPayment> = {}): StaffPayment => ({
  id: PAYMENT_ID,
  paidOn: '2026-05-01',
  description: 'Initial sample processing',
  method: 'Visa ending in 4242',
  transactionId: '443023971935',
  totalCents: 257_500,
  refundedCents: 0,
  awaitingApprovalCents: 0,
  leftCents: 257_500,
  refunds: [],
  ...over,
});

const awaiting = (over: Partial<StaffRefund> = {}): StaffRefund => ({
  id: REFUND_ID,
  amountCents: 60_000,
  status: 'awaiting_approval',
  reason: 'Goodwill after a late shipment',
  requestedBy: 'Demo Admin',
  requestedAt: '2026-05-12T15:00:00.000Z',
  decidedBy: null,
  completedAt: null,
  reference: 'R7C2E4A6B1D3F4B5A8C9',
  message: null,
  askedByYou: false,
  canApprove: true,
  ...over,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Post {
  url: string;
  body: unknown;
  key: string | null;
}

/** The client's payments as the server lists them, and what the section posts; `answer` answers each post. */
function fakeServer(list: StaffClientPayments, answer: (post: Post) => Response | Promise<Response>) {
  const posts: Post[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/staff/clients/ACT10012/payments') return json(list);
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

const admin = (payments: StaffPayment[]): StaffClientPayments => ({
  payments,
  approvalLimitCents: 50_000,
  canRefund: true,
});

const renderSection = () => renderInPortal(<ClientPaymentsSection clientActId="ACT10012" />);

async function openRefundForm() {
  const user = userEvent.setup();
  renderSection();
  await user.click(
    await screen.findByRole('button', { name: 'Refund the payment of $2,575.00 paid on 05/01/2026' }),
  );
  const form = await screen.findByRole('form', { name: 'Refund this payment' });
  return { user, form };
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

describe('the Refund form', () => {
  it('names what it refunds, checks the fields with the refund messages, and sends once for a double click', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const posts = fakeServer(admin([payment({ refundedCents: 50_000, leftCents: 207_500 })]), async () => {
      await held;
      return json({
        success: true,
        message: '$125.00 was refunded.',
        refundId: REFUND_ID,
        paymentId: PAYMENT_ID,
        kind: 'refund',
        amountCents: 12_500,
        transactionId: '842281175240',
        refundedCents: 62_500,
        leftCents: 195_000,
      });
    });
    const { user, form } = await openRefundForm();
    expect(
      within(form).getByText(
        '$2,575.00 paid on 05/01/2026 with Visa ending in 4242 (Initial sample processing).',
      ),
    ).toBeTruthy();
    expect(within(form).getByText('At most $2,075.00 can be refunded.')).toBeTruthy();
    expect(
      within(form).getByText(
        "Kept with the refund for staff. The client's receipt and e-mail do not show it.",
      ),
    ).toBeTruthy();

    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    expect(within(form).getByText('Please enter the amount to refund')).toBeTruthy();
    expect(within(form).getByText('Please give a reason for the refund')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: /Amount to refund/ })),
    );

    const amount = within(form).getByRole('textbox', { name: /Amount to refund/ });
    await user.type(amount, '12.5.0');
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    expect(
      within(form).getByText('Please enter an amount in dollars and cents, such as 125.00'),
    ).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '2075.01');
    await user.click(within(form).getByRole('button', { name: 'Refund $2,075.01' }));
    expect(
      within(form).getByText(
        'The refund is more than what is left of this payment: at most $2,075.00 can be refunded.',
      ),
    ).toBeTruthy();
    expect(within(form).getByRole('note').textContent).toBe(
      'Above $500.00: it is sent once another admin approves it.',
    );
    await user.clear(amount);
    await user.type(amount, '125');
    expect(within(form).queryByRole('note')).toBeNull();
    await user.type(within(form).getByRole('textbox', { name: /Reason/ }), 'Ordered twice');
    await user.dblClick(within(form).getByRole('button', { name: 'Refund $125.00' }));
    release();

    expect(await screen.findByText('$125.00 was refunded.')).toBeTruthy();
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      url: '/api/staff/refunds',
      body: { paymentId: PAYMENT_ID, amount: '125', reason: 'Ordered twice' },
    });
    expect(posts[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Refund this payment' })).toBeNull());
  });

  it("shows the server's refusal on its field, and the answer of a refund that awaits a second admin", async () => {
    let answers = 0;
    const posts = fakeServer(admin([payment()]), () => {
      answers += 1;
      if (answers === 1) {
        const message =
          'The refund is more than what is left of this payment: at most $1,975.00 can be refunded.';
        return json({ error: message, code: 'VALIDATION', fields: { amount: message } }, 400);
      }
      return json({
        success: true,
        awaitingApproval: true,
        message: 'The refund of $600.00 is above $500.00: it is sent once another admin approves it.',
        refundId: REFUND_ID,
        paymentId: PAYMENT_ID,
        amountCents: 60_000,
        refundedCents: 0,
        leftCents: 197_500,
      });
    });
    const { user, form } = await openRefundForm();
    await user.type(within(form).getByRole('textbox', { name: /Amount to refund/ }), '2,000.00');
    await user.type(within(form).getByRole('textbox', { name: /Reason/ }), 'Goodwill');
    await user.click(within(form).getByRole('button', { name: 'Refund $2,000.00' }));
    expect(
      await within(form).findByText(
        'The refund is more than what is left of this payment: at most $1,975.00 can be refunded.',
      ),
    ).toBeTruthy();
    const amount = within(form).getByRole('textbox', { name: /Amount to refund/ });
    await waitFor(() => expect(document.activeElement).toBe(amount));
    await user.clear(amount);
    await user.type(amount, '600.00');
    await user.click(within(form).getByRole('button', { name: 'Refund $600.00' }));
    expect(
      await screen.findByText(
        'The refund of $600.00 is above $500.00: it is sent once another admin approves it.',
      ),
    ).toBeTruthy();
    // Each submission its own key.
    expect(new Set(posts.map((p) => p.key)).size).toBe(2);
  });
});

describe('refunds awaiting approval', () => {
  it('another admin approves one, the button naming the amount, or declines it', async () => {
    const posts = fakeServer(
      admin([payment({ awaitingApprovalCents: 60_000, leftCents: 197_500, refunds: [awaiting()] })]),
      (post) =>
        post.url.endsWith('/approve')
          ? json({
              success: true,
              message: '$600.00 was refunded.',
              refundId: REFUND_ID,
              paymentId: PAYMENT_ID,
              kind: 'refund',
              amountCents: 60_000,
              transactionId: '842281175241',
              refundedCents: 60_000,
              leftCents: 197_500,
            })
          : json({ success: true, message: 'unexpected', refundId: REFUND_ID }),
    );
    const user = userEvent.setup();
    renderSection();
    expect(await screen.findByText('$600.00: Awaiting approval')).toBeTruthy();
    expect(screen.getByText(/asked by Demo Admin\. Reason: Goodwill after a late shipment/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Decline the refund of $600.00' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Approve and refund $600.00' }));
    expect(await screen.findByText('$600.00 was refunded.')).toBeTruthy();
    expect(posts).toEqual([
      {
        url: `/api/staff/refunds/${REFUND_ID}/approve`,
        body: {},
        key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
  });

  it('the admin who asked sees it awaiting another admin, and may withdraw it; no approval for them', async () => {
    const posts = fakeServer(
      admin([payment({ refunds: [awaiting({ askedByYou: true, canApprove: false })] })]),
      () =>
        json({
          success: true,
          message: 'The refund of $600.00 was declined: nothing was sent.',
          refundId: REFUND_ID,
        }),
    );
    const user = userEvent.setup();
    renderSection();
    expect(
      await screen.findByText('Awaits another admin: an admin other than you approves it before it is sent.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Withdraw the refund of $600.00' }));
    expect(await screen.findByText('The refund of $600.00 was declined: nothing was sent.')).toBeTruthy();
    expect(posts.map((p) => p.url)).toEqual([`/api/staff/refunds/${REFUND_ID}/decline`]);
  });

  it('a refusal (someone decided first) is said where the button is', async () => {
    fakeServer(admin([payment({ refunds: [awaiting()] })]), () =>
      json({ error: 'Another admin already approved this refund.', code: 'NOT_ALLOWED_NOW' }, 409),
    );
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Approve and refund $600.00' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Another admin already approved this refund.',
    );
  });
});

it('staff-level members read the payments and refunds, with nothing to press', async () => {
  fakeServer(
    {
      payments: [
        payment({
          refundedCents: 12_500,
          leftCents: 245_000,
          refunds: [
            awaiting({ canApprove: false }),
            awaiting({
              id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
              amountCents: 12_500,
              status: 'refunded',
              canApprove: false,
            }),
          ],
        }),
      ],
      approvalLimitCents: 50_000,
      canRefund: false,
    },
    () => json({}, 500),
  );
  renderSection();
  expect(await screen.findByText('Refunds are made by admins.')).toBeTruthy();
  expect(screen.getByText("Awaits an admin's approval: nothing is sent until then.")).toBeTruthy();
  expect(screen.getByText('$125.00: Refunded')).toBeTruthy();
  expect(screen.queryAllByRole('button')).toHaveLength(0);
  // The receipts the client has: the payment's, and the refund's that went through (not the one awaiting).
  const receipts = screen.getAllByRole('link', { name: /^Download the receipt of / });
  expect(receipts.map((link) => [link.getAttribute('aria-label'), link.getAttribute('href')])).toEqual([
    [
      'Download the receipt of $2,575.00 paid on 05/01/2026',
      '/api/staff/receipts/3a1f6c2e-8b4d-4e1f-9a2b-1c3d5e7f9a01',
    ],
    ['Download the receipt of $125.00 refunded', '/api/staff/receipts/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a'],
  ]);
});
