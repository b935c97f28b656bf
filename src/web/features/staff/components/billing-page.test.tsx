import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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

const INSTALLMENT_ID = '0b7c1a52-3e0f-4f8e-9a51-7d2f6c3b9e10';

const overview = (demo: boolean): BillingOverview => ({
  today: '2026-11-26',
  lastRunDay: '2026-11-26',
  demo,
  dueSoon: [],
  chargedToday: [],
  retrying: [],
  overdue: [ben],
  recovered: [],
  installments: {
    dueSoon: { count: 3, amountCents: 258_198 },
    chargedToday: { count: 1, amountCents: 88_648 },
    retrying: { count: 2, amountCents: 172_132 },
    overdue: { count: 1, amountCents: 91_066 },
    overdueList: [
      {
        id: INSTALLMENT_ID,
        clientActId: 'ACT10020',
        clientName: 'Mia Nguyen',
        mainContact: 'Linh Nguyen',
        number: 2,
        of: 12,
        dueDate: '2026-10-20',
        amountCents: 91_066,
        tries: 4,
        lastDecline: 'insufficient_funds',
      },
    ],
  },
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

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
  /** Answers "Waive or defer", given the body sent. */
  change?: (body: unknown) => Response | Promise<Response>;
}) {
  const posts: Call[] = [];
  let overviewReads = 0;
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
        posts.push({
          url,
          body: init.body ? JSON.parse(String(init.body)) : null,
          key: headers.get('idempotency-key'),
        });
        if (url === '/api/staff/send_payment_link') {
          return json({
            channel: 'email',
            sentTo: 'b***@example.com',
            expiresAt: '2026-12-03T15:00:00.000Z',
          });
        }
        if (url === `/api/staff/billing/installments/${INSTALLMENT_ID}/payment_link`) {
          return json({ sentTo: 'l***@example.com' });
        }
        if (url === '/api/staff/billing/run' && options.run) return options.run();
        if (url === `/api/staff/billing/years/${ben.id}` && options.change) {
          return options.change(JSON.parse(String(init.body)));
        }
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
    await userEvent.click(await screen.findByRole('button', { name: 'Send payment link to Ben Ortiz' }));
    expect(
      await screen.findByText('The payment link was sent by e-mail. Sent to b***@example.com.'),
    ).toBeTruthy();
    expect(server.posts).toEqual([
      { url: '/api/staff/send_payment_link', body: { clientId: 'ACT10010', channel: 'email' }, key: null },
    ]);
  });
});

describe('Newborn installments', () => {
  it("shows how many installments are due soon, charged today, retrying and overdue, with the server's amounts", async () => {
    fakeServer({ level: 'staff', demo: false });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Newborn installments' });
    const row = (name: string) =>
      within(table).getByRole('rowheader', { name }).closest('tr')?.textContent?.replace(name, '');
    expect(row('Due in the next 30 days')).toBe('3$2,581.98');
    expect(row('Charged today')).toBe('1$886.48');
    expect(row('Failed, waiting for a retry')).toBe('2$1,721.32');
    expect(row('Overdue')).toBe('1$910.66');
    const overdue = screen.getByRole('table', { name: 'Overdue installments' });
    expect(within(overdue).getByText('Mia Nguyen')).toBeTruthy();
    expect(within(overdue).getByRole('link', { name: 'ACT10020' }).getAttribute('href')).toBe(
      '/staff/clients/ACT10020',
    );
    expect(within(overdue).getByText('2 of 12')).toBeTruthy();
    expect(within(overdue).getByText('10/20/2026')).toBeTruthy();
    expect(within(overdue).getByText('$910.66')).toBeTruthy();
    expect(within(overdue).getByText('Insufficient funds')).toBeTruthy();
  });

  it("e-mails the main contact an overdue installment's link and says where it went", async () => {
    const server = fakeServer({ level: 'staff', demo: false });
    renderPage();
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Send payment link to Linh Nguyen for installment 2 of Mia Nguyen',
      }),
    );
    expect(await screen.findByText('Payment link e-mailed to l***@example.com.')).toBeTruthy();
    expect(server.posts.map((p) => p.url)).toEqual([
      `/api/staff/billing/installments/${INSTALLMENT_ID}/payment_link`,
    ]);
  });
});

describe('"Waive or defer" (admins)', () => {
  beforeAll(() => {
    // The Reason's autosized Textarea listens for web fonts loading, which jsdom does not have.
    if (!('fonts' in document)) {
      Object.defineProperty(document, 'fonts', {
        configurable: true,
        value: { addEventListener: () => {}, removeEventListener: () => {} },
      });
    }
  });

  const openFor = async (name: string) => {
    await userEvent.click(
      await screen.findByRole('button', { name: `Waive or defer the storage year of ${name}` }),
    );
    return screen.findByRole('dialog', { name: 'Waive or defer' });
  };
  const changes = (server: ReturnType<typeof fakeServer>) =>
    server.posts.filter((p) => p.url === `/api/staff/billing/years/${ben.id}`);

  it("shows the server's reason required under the field, then waives the year and says so on the page", async () => {
    const server = fakeServer({
      level: 'admin',
      demo: false,
      change: (body) =>
        (body as { reason: string }).reason.trim() === ''
          ? json(
              {
                code: 'VALIDATION',
                error: 'Please give a reason',
                fields: { reason: 'Please give a reason' },
              },
              400,
            )
          : json({ message: 'The year was waived.' }),
    });
    renderPage();
    const dialog = await openFor('Ben Ortiz');
    expect(
      within(dialog).getByText('Ben Ortiz (ACT10010), storage year 3: $350.00 due 12/21/2026.'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('radio', { name: 'Waive this year' })).toHaveProperty('checked', true);
    expect(within(dialog).queryByRole('textbox', { name: 'Charge on' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Waive year' }));
    expect(await within(dialog).findByText('Please give a reason')).toBeTruthy();
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(reason));

    await userEvent.type(reason, 'Goodwill after a hospital stay');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Waive year' }));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'The year was waived.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(changes(server)).toEqual([
      { url: `/api/staff/billing/years/${ben.id}`, body: { action: 'waive', reason: '' }, key: null },
      {
        url: `/api/staff/billing/years/${ben.id}`,
        body: { action: 'waive', reason: 'Goodwill after a hospital stay' },
        key: null,
      },
    ]);
    // The lists are read again once the year is waived.
    expect(server.overviewReads()).toBe(2);
  });

  it('defers the charge to the date typed as MM/DD/YYYY, and refuses a date it cannot read without sending it', async () => {
    const server = fakeServer({
      level: 'admin',
      demo: false,
      change: () => json({ message: 'The year was deferred to 01/15/2027.' }),
    });
    renderPage();
    const dialog = await openFor('Ben Ortiz');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Defer the charge to' }));
    const until = within(dialog).getByRole('textbox', { name: 'Charge on' });
    await userEvent.type(until, '02/30/2027');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Reason' }),
      'Asked to pay after surgery',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Defer charge' }));
    expect(
      await within(dialog).findByText('Please enter a date after today and at most two years ahead'),
    ).toBeTruthy();
    expect(changes(server)).toHaveLength(0);

    await userEvent.clear(until);
    await userEvent.type(until, '01/15/2027');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Defer charge' }));
    expect(await screen.findByText('The year was deferred to 01/15/2027.')).toBeTruthy();
    expect(changes(server).map((c) => c.body)).toEqual([
      { action: 'defer', reason: 'Asked to pay after surgery', until: '2027-01-15' },
    ]);
  });

  it('says in the modal when the year is not open any more, and closes on Escape', async () => {
    fakeServer({
      level: 'admin',
      demo: false,
      change: () =>
        json({ code: 'NOT_ALLOWED_NOW', error: 'This year is not open any more.', fields: {} }, 409),
    });
    renderPage();
    const dialog = await openFor('Ben Ortiz');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Goodwill');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Waive year' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This year is not open any more.');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('is not offered to a staff-level member', async () => {
    fakeServer({ level: 'staff', demo: false });
    renderPage();
    expect(await screen.findAllByRole('button', { name: 'Send payment link to Ben Ortiz' })).not.toHaveLength(
      0,
    );
    expect(screen.queryByRole('button', { name: /^Waive or defer/ })).toBeNull();
  });
});
