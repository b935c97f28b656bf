import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ObjectionView } from '../../../../domain/cell-request-objection';
import { renderInPortal } from '../../../testing/render';
import { ObjectionPage } from './objection-page';

/** The client's objection link (issue 23): who ordered what, and the objection within its window. */

const open: ObjectionView = {
  reference: 'VR-1A2B3C4D',
  clientFirstName: 'John',
  physicianName: 'Dr. Maria Alvarez',
  vials: 2,
  shipmentDate: '12/11/2026',
  clinicName: 'Hudson Orthopedic Associates',
  shipTo: 'Samuel Okafor, New York, NY',
  totalCents: 63_693,
  paidBy: 'client',
  paymentDescription: 'Visa ending in 4242 (on file)',
  deadline: '2026-12-10T05:00:00.000Z',
  state: 'open',
  message: null,
  objection: null,
};

function fakeServer(view: ObjectionView, answer: { status: number; body: unknown }) {
  const objections: unknown[] = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).split('?')[0];
      if (path === '/api/pay/get_CellRequestObjection') return json(view);
      if (path === '/api/pay/object_CellRequest') {
        objections.push(JSON.parse(String(init?.body)));
        return json(answer.body, answer.status);
      }
      throw new Error(`unexpected call ${path}`);
    }),
  );
  return objections;
}

function renderPage(token = 'signed.token') {
  renderInPortal(
    <MemoryRouter initialEntries={[`/object/${token}`]}>
      <Routes>
        <Route path="/object/:token?" element={<ObjectionPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the objection page', () => {
  it('says who ordered what and the total, and objects with the note, once', async () => {
    const user = userEvent.setup();
    const objected: ObjectionView = {
      ...open,
      state: 'objected',
      message: 'Your objection was recorded: the request is cancelled and everything paid is refunded.',
      objection: {
        at: '2026-12-08T15:00:00.000Z',
        note: 'Not agreed',
        refundCents: 63_693,
        returnedVials: 1,
      },
    };
    const objections = fakeServer(open, { status: 200, body: objected });
    renderPage();
    expect(
      await screen.findByText(
        'Dear John, Dr. Maria Alvarez requested the release of 2 vials of your stem cells (request VR-1A2B3C4D).',
      ),
    ).toBeDefined();
    expect(screen.getByText('Total: $636.93, paid with Visa ending in 4242 (on file)')).toBeDefined();
    expect(screen.getByText(/you may object until the end of 12\/09\/2026 \(Eastern time\)/)).toBeDefined();
    await user.type(screen.getByRole('textbox', { name: /A note for your physician/ }), 'Not agreed');
    await user.click(screen.getByRole('button', { name: 'Object and cancel the request' }));
    await waitFor(() => expect(objections).toEqual([{ token: 'signed.token', note: 'Not agreed' }]));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain(
      'Your objection was recorded: the request is cancelled and everything paid is refunded.',
    );
    expect(status.textContent).toContain('$636.93 is refunded to the account that paid.');
    expect(status.textContent).toContain('1 pre-paid vial is given back to your plan.');
    expect(screen.queryByRole('button', { name: 'Object and cancel the request' })).toBeNull();
  });

  it('after the window: the reason, and no button', async () => {
    const message =
      'The time to object ended at the end of 12/09/2026 (Eastern time). Please contact ACT to cancel the request under its cancellation policy.';
    fakeServer({ ...open, state: 'closed', message }, { status: 409, body: { error: message } });
    renderPage();
    expect((await screen.findByRole('status')).textContent).toBe(message);
    expect(screen.queryByRole('button', { name: 'Object and cancel the request' })).toBeNull();
  });

  it('a link that is not valid says so', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ error: 'This objection link is not valid or has expired.', code: 'NOT_FOUND' }),
            {
              status: 404,
              headers: { 'content-type': 'application/json' },
            },
          ),
      ),
    );
    renderPage('forged');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This objection link is not valid or has expired.',
    );
  });
});
