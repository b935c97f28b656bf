import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AmountDue } from '../../../../domain/client-verification';
import { SHIPPED_PRICE_AMOUNTS } from '../../../../domain/price-book';
import { renderInPortal } from '../../../testing/render';
import { PublicPaymentPage } from './public-payment-page';

// Two overdue years billed before notices fixed their amounts: $299.75 + $329.87 = $629.62; by
// card 3% of it, $18.8886, rounds to $18.89: $648.51 (the server's figures).
const twoYears: AmountDue = {
  overdueYears: [
    { dueDate: '2024-06-01', amountCents: 29_975, cardAmountCents: 29_975 },
    { dueDate: '2025-06-01', amountCents: 32_987, cardAmountCents: 32_987 },
  ],
  overdueCents: 62_962,
  charges: {
    card: { amountCents: 62_962, feeCents: 1_889, totalCents: 64_851 },
    ach: { amountCents: 62_962, feeCents: 0, totalCents: 62_962 },
  },
};
// A third year fell due meanwhile: $959.62; 3% is $28.7886, rounds to $28.79: $988.41.
const threeYears: AmountDue = {
  overdueYears: [
    ...twoYears.overdueYears,
    { dueDate: '2026-06-01', amountCents: 33_000, cardAmountCents: 33_000 },
  ],
  overdueCents: 95_962,
  charges: {
    card: { amountCents: 95_962, feeCents: 2_879, totalCents: 98_841 },
    ach: { amountCents: 95_962, feeCents: 0, totalCents: 95_962 },
  },
};
// Two years whose notices fixed $350.00 by card and $339.81 by ACH: $700.00 by card (no fee on
// top), $679.62 by bank account, whatever version of the book is in force now.
const twoNoticedYears: AmountDue = {
  overdueYears: [
    { dueDate: '2025-06-01', amountCents: 33_981, cardAmountCents: 35_000 },
    { dueDate: '2026-06-01', amountCents: 33_981, cardAmountCents: 35_000 },
  ],
  overdueCents: 67_962,
  charges: {
    card: { amountCents: 70_000, feeCents: 0, totalCents: 70_000 },
    ach: { amountCents: 67_962, feeCents: 0, totalCents: 67_962 },
  },
};

/** What the server reads back for the save's result token `result-1`. */
const paidResult = {
  message: 'Payment Information is Updated Successfully',
  page_name: 'Email Single Payment Page',
  TransactionId: 'T-1',
  amountCharged: 988.41,
  processingFee: 28.79,
  paidWith: 'Visa ending in 1111',
  receipt: true,
};

interface Call {
  url: string;
  body: Record<string, unknown> | null;
}

/** The server as the page meets it: each confirmation and each save answers the next queued answer. */
function fakeServer(verifications: AmountDue[], saves: Array<{ status: number; body: unknown }>) {
  const calls: Call[] = [];
  let verified = 0;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
    calls.push({ url, body });
    if (url === '/api/pay/payment_config') return json(200, { gateway: 'sandbox', tokenizeUrl: '/tokenize' });
    if (url === '/api/pay/price_book')
      return json(200, { version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
    if (url === '/tokenize') return json(200, { token: { descriptor: 'sandbox', value: 'tok-visa' } });
    if (url === '/api/pay/set_verifyClientData') {
      const amountDue = verifications[Math.min(verified, verifications.length - 1)];
      verified += 1;
      const byLink = body?.mode === 'link';
      return json(200, {
        verified: true,
        message: 'Client Details Successfully Confirmed',
        verification: `verification-${verified}`,
        amountDue,
        ...(byLink ? { ClientId: 'ACT10006' } : {}),
      });
    }
    if (url.startsWith('/api/pay/get_PublicPaymentResult')) {
      const known = new URL(url, 'http://x').searchParams.get('result') === 'result-1';
      return known
        ? json(200, paidResult)
        : json(404, {
            error:
              'This confirmation has expired or is not valid. Your payment, if you made one, was e-mailed to the address we have on file.',
            code: 'NOT_FOUND',
          });
    }
    if (url === '/api/pay/site_config')
      return json(200, {
        contactUrl: 'https://bank.example/contact',
        bank: {
          name: 'ACT',
          phone: '3055550100',
          payee: 'ACT',
          remitTo: [],
          privacyUrl: 'https://bank.example/p',
        },
      });
    if (url === '/api/pay/set_PublicPaymentInfo') {
      const answer = saves.shift();
      if (!answer) throw new Error('an unexpected save');
      return json(answer.status, answer.body);
    }
    throw new Error(`unexpected call ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    saves: () => calls.filter((c) => c.url === '/api/pay/set_PublicPaymentInfo'),
    verifications: () => calls.filter((c) => c.url === '/api/pay/set_verifyClientData'),
    results: () => calls.filter((c) => c.url.startsWith('/api/pay/get_PublicPaymentResult')),
  };
}

const amountDueOf = () => screen.getByRole('group', { name: 'Amount Due' });
/** A row of the summary: its label and its amount. */
const row = (label: string) => {
  const term = within(amountDueOf()).getByText(label);
  return term.parentElement?.querySelector('dd')?.textContent;
};

type User = ReturnType<typeof userEvent.setup>;

async function confirmById(user: User) {
  await user.click(screen.getByRole('radio', { name: 'Client ID and Last Name' }));
  fireEvent.change(screen.getByRole('textbox', { name: /^Client ID/ }), { target: { value: 'ACT-1001' } });
  fireEvent.change(screen.getByRole('textbox', { name: /^Last Name/ }), { target: { value: 'Doe' } });
  await user.click(screen.getByRole('button', { name: 'Confirm Client Details' }));
  await screen.findByText('Client Details Successfully Confirmed');
}

async function fillCard(user: User) {
  const typeInto = (name: RegExp, value: string) =>
    fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });
  typeInto(/Credit Card Number/, '4111111111111111');
  fireEvent.change(screen.getByLabelText(/^CVV/), { target: { value: '123' } });
  await user.click(screen.getByLabelText(/^Expiry Month/, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: '12', hidden: true }));
  const year = String(new Date().getFullYear() + 3);
  await user.click(screen.getByLabelText(/^Expiry Year/, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: year, hidden: true }));
  typeInto(/Billing First Name/, 'Jane');
  typeInto(/Billing Last Name/, 'Doe');
  typeInto(/Billing Email/, 'jane@example.com');
  typeInto(/Billing Street/, '1 Main St');
  typeInto(/Billing City/, 'Boston');
  typeInto(/Billing State/, 'MA');
  typeInto(/Country/, 'United States');
  typeInto(/Zip or Postal Code/, '02110');
  await user.click(screen.getByRole('checkbox', { name: /I am the owner of this card/ }));
}

const refused = {
  status: 409,
  body: { error: 'The amount due is now $988.41. Please review it and save again.', code: 'AMOUNT_CHANGED' },
};
const accepted = {
  status: 200,
  body: {
    success: true,
    message: 'Payment Information is Updated Successfully',
    page_name: 'email',
    TransactionId: 'T-1',
    amountCharged: 988.41,
    processingFee: 28.79,
    result: 'result-1',
  },
};

describe('the public payment page when the amount due changes before saving', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/payment');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads the amount again after 409 AMOUNT_CHANGED, says so beside the button, and the next save pays the new total', async () => {
    const server = fakeServer([twoYears, threeYears], [refused, accepted]);
    const user = userEvent.setup();
    renderInPortal(<PublicPaymentPage page="email" />);
    await confirmById(user);
    await fillCard(user);

    // What saving will charge, as confirmed.
    expect(row('Annual storage due 06/01/2024')).toBe('$299.75');
    expect(row('Annual storage due 06/01/2025')).toBe('$329.87');
    expect(row('Card processing fee (3%)')).toBe('$18.89');
    expect(row('Total charged when you save')).toBe('$648.51');
    expect(screen.getByRole('button', { name: 'Pay $648.51 and save card' })).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();

    // The bill grew meanwhile: the server refuses the total shown.
    await user.click(screen.getByRole('button', { name: 'Pay $648.51 and save card' }));
    const alert = await screen.findByRole('alert');
    expect(server.saves()).toHaveLength(1);
    expect(server.saves()[0]?.body).toMatchObject({
      expectedTotalCents: 64_851,
      verification: 'verification-1',
    });

    // The new figures are shown, the button says the new amount, and the page says it changed.
    expect(row('Annual storage due 06/01/2026')).toBe('$330.00');
    expect(row('Card processing fee (3%)')).toBe('$28.79');
    expect(row('Total charged when you save')).toBe('$988.41');
    expect(screen.queryByRole('button', { name: 'Pay $648.51 and save card' })).toBeNull();
    const pay = screen.getByRole('button', { name: 'Pay $988.41 and save card' });
    expect(alert.textContent).toBe(
      'The amount due has changed. The new total is $988.41: please check it above before you pay.',
    );

    // The second click pays the new total, and is accepted.
    await user.click(pay);
    await screen.findByText('Payment Information is Updated Successfully');
    expect(
      screen.getByText(
        /We charged \$988\.41, including the \$28\.79 card processing fee, to the Visa ending in 1111/,
      ),
    ).toBeDefined();
    // The address names the save: a reload reads it from the server.
    expect(window.location.search).toBe('?result=result-1');
    expect(server.results()).toHaveLength(1);
    await waitFor(() => expect(server.saves()).toHaveLength(2));
    expect(server.saves()[1]?.body).toMatchObject({
      expectedTotalCents: 98_841,
      verification: 'verification-2',
    });
  });

  it('reached by a signed link, reads the amount again with the same link (no longer in the address bar)', async () => {
    window.history.replaceState(null, '', '/payment?t=signed-link');
    const server = fakeServer([twoYears, threeYears], [refused, accepted]);
    const user = userEvent.setup();
    renderInPortal(<PublicPaymentPage page="email" />);
    await screen.findByText('Client Details Successfully Confirmed');
    expect(window.location.search).toBe('');
    await fillCard(user);

    await user.click(screen.getByRole('button', { name: 'Pay $648.51 and save card' }));
    await screen.findByRole('button', { name: 'Pay $988.41 and save card' });
    expect(screen.getByRole('alert').textContent).toMatch(/^The amount due has changed/);
    expect(server.verifications().map((c) => c.body)).toEqual([
      { mode: 'link', t: 'signed-link' },
      { mode: 'link', t: 'signed-link' },
    ]);
    await user.click(screen.getByRole('button', { name: 'Pay $988.41 and save card' }));
    await screen.findByText('Payment Information is Updated Successfully');
    expect(server.saves()[1]?.body).toMatchObject({
      expectedTotalCents: 98_841,
      verification: 'verification-2',
    });
  });
});

describe('the public payment page: identify first, and the paid state from the server (issue 24)', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/payment');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('years whose notices fixed their amounts: each at $350.00 by card with no fee, $339.81 by ACH', async () => {
    const server = fakeServer([twoNoticedYears], [accepted]);
    const user = userEvent.setup();
    renderInPortal(<PublicPaymentPage page="email" />);
    await confirmById(user);
    await user.click(screen.getByRole('radio', { name: 'ACH Payment' }));
    expect(row('Annual storage due 06/01/2025')).toBe('$339.81');
    expect(row('Total charged when you save')).toBe('$679.62');
    await user.click(screen.getByRole('radio', { name: 'Credit Card' }));
    await fillCard(user);
    expect(row('Annual storage due 06/01/2025')).toBe('$350.00');
    expect(row('Annual storage due 06/01/2026')).toBe('$350.00');
    expect(within(amountDueOf()).queryByText(/Card processing fee/)).toBeNull();
    expect(row('Total charged when you save')).toBe('$700.00');
    await user.click(screen.getByRole('button', { name: 'Pay $700.00 and save card' }));
    await waitFor(() => expect(server.saves()).toHaveLength(1));
    expect(server.saves()[0]?.body).toMatchObject({ expectedTotalCents: 70_000 });
  });

  it('asks for no card or bank account before the client is confirmed', async () => {
    fakeServer([twoYears], []);
    const user = userEvent.setup();
    renderInPortal(<PublicPaymentPage page="email" />);
    await user.click(screen.getByRole('radio', { name: 'Client ID and Last Name' }));
    expect(screen.queryByRole('textbox', { name: /Credit Card Number/ })).toBeNull();
    expect(screen.queryByRole('radio', { name: 'ACH Payment' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Pay|Save/ })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Amount Due' })).toBeNull();
    await confirmById(user);
    expect(screen.getByRole('textbox', { name: /Credit Card Number/ })).toBeDefined();
    expect(row('Total charged when you save')).toBe('$648.51');
  });

  it("opened again with the save's result shows what was paid, with the receipt, and asks nothing", async () => {
    window.history.replaceState(null, '', '/payment?result=result-1');
    const server = fakeServer([twoYears], []);
    renderInPortal(<PublicPaymentPage page="email" />);
    const notice = await screen.findByRole('status');
    expect(within(notice).getByText('Payment Information is Updated Successfully')).toBeDefined();
    expect(notice.textContent).toContain(
      'We charged $988.41, including the $28.79 card processing fee, to the Visa ending in 1111. Transaction number: T-1.',
    );
    expect(notice.textContent).toContain('A confirmation has been e-mailed to the address we have on file.');
    const receipt = within(notice).getByRole('link', { name: 'Download the receipt' });
    expect(receipt.getAttribute('href')).toBe('/api/pay/get_PublicPaymentReceipt?result=result-1');
    expect(screen.queryByRole('button', { name: 'Confirm Client Details' })).toBeNull();
    expect(server.verifications()).toHaveLength(0);
  });

  it('an unknown result says so and how to reach the bank, above the identification', async () => {
    window.history.replaceState(null, '', '/payment?result=forged');
    fakeServer([twoYears], []);
    renderInPortal(<PublicPaymentPage page="email" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This confirmation has expired or is not valid.');
    await waitFor(() => expect(alert.textContent).toContain('call (305) 555-0100 or write to ACT.'));
    expect(screen.getByRole('button', { name: 'Confirm Client Details' })).toBeDefined();
  });

  it('opened by a signed link, a reload (the same history entry) confirms the client again with it and shows the bill', async () => {
    window.history.replaceState({ idx: 0 }, '', '/payment?t=signed-link');
    const server = fakeServer([twoYears], []);
    const first = renderInPortal(<PublicPaymentPage page="email" />);
    await screen.findByText('Client Details Successfully Confirmed');
    expect(screen.getByText('Client ID: ACT10006')).toBeDefined();
    expect(window.location.search).toBe('');
    // The router's own state is kept beside the link.
    expect(window.history.state).toMatchObject({ idx: 0 });
    first.unmount();

    renderInPortal(<PublicPaymentPage page="email" />);
    expect(screen.getByText('Checking the link…')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Confirm Client Details' })).toBeNull();
    await screen.findByText('Client Details Successfully Confirmed');
    expect(screen.getByText('Client ID: ACT10006')).toBeDefined();
    expect(row('Total charged when you save')).toBe('$648.51');
    expect(screen.queryByRole('button', { name: 'Confirm Client Details' })).toBeNull();
    expect(server.verifications().map((c) => c.body)).toEqual([
      { mode: 'link', t: 'signed-link' },
      { mode: 'link', t: 'signed-link' },
    ]);
  });

  it('after paying by a signed link, the entry names the result and no longer holds the link', async () => {
    window.history.replaceState(null, '', '/payment?t=signed-link');
    fakeServer([twoYears], [accepted]);
    const user = userEvent.setup();
    renderInPortal(<PublicPaymentPage page="email" />);
    await screen.findByText('Client Details Successfully Confirmed');
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $648.51 and save card' }));
    await screen.findByText('Payment Information is Updated Successfully');
    expect(window.location.search).toBe('?result=result-1');
    expect(JSON.stringify(window.history.state ?? {})).not.toContain('signed-link');
  });

  it('a link that failed says what happened and how to get a new one', async () => {
    window.history.replaceState(null, '', '/payment?t=expired-link');
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      if (url === '/api/pay/set_verifyClientData')
        return json(400, {
          error: 'This link has expired or is not valid. Please identify the client below.',
          code: 'VERIFICATION_FAILED',
        });
      if (url === '/api/pay/site_config')
        return json(200, {
          contactUrl: 'https://bank.example/contact',
          bank: {
            name: 'ACT',
            phone: '3055550100',
            payee: 'ACT',
            remitTo: [],
            privacyUrl: 'https://bank.example/p',
          },
        });
      if (url === '/api/pay/price_book')
        return json(200, { version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
      return json(200, { gateway: 'sandbox', tokenizeUrl: '/tokenize' });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderInPortal(<PublicPaymentPage page="email" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'This link has expired or is not valid. Please identify the client below.',
    );
    await waitFor(() =>
      expect(alert.textContent).toContain(
        'Links we send last 7 days. For a new one, ask the bank: call (305) 555-0100 or write to ACT.',
      ),
    );
  });
});
