import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingOverview, BillingYear } from '../../../../domain/storage-billing';
import { renderInPortal } from '../../../testing/render';
import { BillingPage } from './billing-page';

const ben: BillingYear = {
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
};

const overview = (demo: boolean): BillingOverview => ({
  today: '2026-11-26',
  lastRunDay: '2026-11-26',
  demo,
  dueSoon: [],
  chargedToday: [],
  retrying: [],
  overdue: [ben],
  recovered: [],
});

interface Call {
  url: string;
  body: unknown;
  key: string | null;
}

/** The staff session, the overview, and what the page posts; `run` answers "Run billing". */
function fakeServer(options: {
  level: 'admin' | 'staff';
  demo: boolean;
  run?: () => Response | Promise<Response>;
}) {
  const posts: Call[] = [];
  let overviewReads = 0;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/staff/session') {
        return json({
          stage: 'signed-in',
          idleTimeoutMs: 900_000,
          staff: {
            id: 's1',
            email: 'staff@example.com',
            name: 'Demo Admin',
            level: options.level,
            enrolled: true,
            disabledAt: null,
          },
        });
      }
      if (url === '/api/staff/billing') {
        overviewReads += 1;
        return json(overview(options.demo));
      }
      if (init?.method === 'POST') {
        const headers = new Headers(init.headers);
        posts.push({ url, body: JSON.parse(String(init.body)), key: headers.get('idempotency-key') });
        if (url === '/api/staff/send_payment_link') {
          return json({
            channel: 'email',
            sentTo: 'b***@example.com',
            expiresAt: '2026-12-03T15:00:00.000Z',
          });
        }
        if (url === '/api/staff/billing/run' && options.run) return options.run();
      }
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return { posts, overviewReads: () => overviewReads };
}

const renderPage = () =>
  renderInPortal(
    <MemoryRouter>
      <BillingPage />
    </MemoryRouter>,
  );

afterEach(() => vi.unstubAllGlobals());

describe('"Run billing as of…"', () => {
  it('runs once for a double click, with a key, to the date typed as MM/DD/YYYY, and reads the overview again', async () => {
    // The answer waits until both clicks are in.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const server = fakeServer({
      level: 'admin',
      demo: true,
      run: async () => {
        await answered;
        return new Response(
          JSON.stringify({
            days: 20,
            notices: 1,
            charges: 1,
            declines: 0,
            retries: 0,
            overdue: 0,
            from: '2026-11-27',
            asOf: '2026-12-16',
          }),
          { status: 200 },
        );
      },
    });
    renderPage();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Run billing as of' }), '12/16/2026');
    await userEvent.dblClick(screen.getByRole('button', { name: 'Run billing' }));
    answer();
    expect(
      await screen.findByText(
        'Ran 20 days (11/27/2026 to 12/16/2026): 1 notice, 1 charge, 0 declines, 0 retries, 0 overdue.',
      ),
    ).toBeTruthy();
    const runs = server.posts.filter((p) => p.url === '/api/staff/billing/run');
    expect(runs).toHaveLength(1);
    expect(runs[0]?.body).toEqual({ asOf: '2026-12-16' });
    expect(runs[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(server.overviewReads()).toBe(2));
  });

  it("shows the server's refusal of the date under the field", async () => {
    fakeServer({
      level: 'admin',
      demo: true,
      run: () =>
        new Response(
          JSON.stringify({
            code: 'VALIDATION',
            error: 'The date can be at most two years ahead',
            fields: { asOf: 'The date can be at most two years ahead' },
          }),
          { status: 400 },
        ),
    });
    renderPage();
    const field = await screen.findByRole('textbox', { name: 'Run billing as of' });
    await userEvent.type(field, '12/16/2030');
    await userEvent.click(screen.getByRole('button', { name: 'Run billing' }));
    expect(await screen.findByText('The date can be at most two years ahead')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
  });

  it('refuses a date not after the last run without sending it', async () => {
    const server = fakeServer({ level: 'admin', demo: true });
    renderPage();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Run billing as of' }), '11/26/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Run billing' }));
    expect(await screen.findByText('The date must be after the last billing run')).toBeTruthy();
    expect(server.posts).toHaveLength(0);
  });

  it.each([
    ['a staff-level member in demo mode', 'staff', true],
    ['an admin outside demo mode', 'admin', false],
  ] as const)('is not offered to %s', async (_who, level, demo) => {
    fakeServer({ level, demo });
    renderPage();
    expect(await screen.findByText('Billing day: 11/26/2026')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Run billing as of' })).toBeNull();
  });
});

describe('the Overdue section', () => {
  it('e-mails the client a payment link and says where it went', async () => {
    const server = fakeServer({ level: 'staff', demo: false });
    renderPage();
    expect(await screen.findByText('Nothing due in the next 30 days.')).toBeTruthy();
    // The table and the phone's cards are both in the page here (jsdom applies no media query).
    const [send] = await screen.findAllByRole('button', { name: 'Send payment link to Ben Ortiz' });
    await userEvent.click(send as HTMLElement);
    expect(
      (await screen.findAllByText('The payment link was sent by e-mail. Sent to b***@example.com.')).length,
    ).toBeGreaterThan(0);
    expect(server.posts).toEqual([
      { url: '/api/staff/send_payment_link', body: { clientId: 'ACT10010', channel: 'email' }, key: null },
    ]);
  });
});
