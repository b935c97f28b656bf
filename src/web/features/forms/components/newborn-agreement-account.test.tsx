import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgreementAccount } from '../../../../domain/newborn-installments';
import { SHIPPED_PRICE_AMOUNTS } from '../../../../domain/price-book';
import { renderInPortal } from '../../../testing/render';
import { NewbornAgreementAccount } from './newborn-agreement-account';

const account: AgreementAccount = {
  mainContact: 'Linh Nguyen',
  day: '2026-12-04',
  method: 'Visa ending 4242',
  methodKind: 'card',
  installments: [
    {
      number: 1,
      dueDate: '2026-10-20',
      paymentCents: 86_066,
      lateChargeCents: 0,
      state: 'paid',
      paidOn: '2026-10-20',
      paidCents: 88_648,
    },
    {
      number: 2,
      dueDate: '2026-11-20',
      paymentCents: 86_066,
      lateChargeCents: 0,
      state: 'overdue',
      paidOn: null,
      paidCents: null,
    },
    {
      number: 3,
      dueDate: '2026-12-20',
      paymentCents: 86_066,
      lateChargeCents: 0,
      state: 'due',
      paidOn: null,
      paidCents: null,
    },
  ],
  overdue: { amountCents: 86_066, feeCents: 2_582, totalCents: 88_648 },
  payoff: { amountCents: 917_000, feeCents: 27_510, totalCents: 944_510 },
};

interface Call {
  url: string;
  body: Record<string, unknown> | null;
  key: string | null;
}

function fakeServer(read: AgreementAccount, pay: () => Promise<Response> | Response) {
  const calls: Call[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
      calls.push({ url, body, key: new Headers(init?.headers).get('idempotency-key') });
      if (url === '/api/pay/payment_config')
        return json(200, { gateway: 'sandbox', tokenizeUrl: '/tokenize' });
      if (url === '/api/pay/price_book')
        return json(200, { version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
      if (url.startsWith('/api/pay/get_Client_Agreement_account')) return json(200, read);
      if (url === '/tokenize') return json(200, { token: { descriptor: 'sandbox', value: 'tok-visa' } });
      if (url === '/api/pay/set_Client_Agreement_payment_method') {
        return json(200, {
          message: 'The payment method for your installments is updated.',
          method: 'Visa ending 1111',
        });
      }
      if (url === '/api/pay/set_Client_Agreement_payment') return pay();
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return {
    payments: () => calls.filter((c) => c.url === '/api/pay/set_Client_Agreement_payment'),
    methods: () => calls.filter((c) => c.url === '/api/pay/set_Client_Agreement_payment_method'),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe("the signed agreement's page", () => {
  it("shows the schedule with each installment's date, amount and state from the server", async () => {
    fakeServer(account, () => new Response('{}'));
    renderInPortal(<NewbornAgreementAccount id="link-token" />);
    const table = await screen.findByRole('table', { name: 'Your payment schedule' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      '110/20/2026$886.48Paid 10/20/2026',
      '211/20/2026$860.66Overdue',
      '312/20/2026$860.66Due',
    ]);
    expect(screen.getByText('Your installments are charged to your Visa ending 4242.')).toBeTruthy();
  });

  it('pays off the balance once for a double click, with a key and the total the button names', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const server = fakeServer(account, async () => {
      await answered;
      return new Response(
        JSON.stringify({
          message: 'Your agreement is paid off. Thank you.',
          amountChargedCents: 944_510,
          TransactionId: 'T-9',
          installmentsPaid: 2,
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    });
    renderInPortal(<NewbornAgreementAccount id="link-token" />);
    expect(await screen.findByRole('button', { name: 'Pay the overdue $886.48' })).toBeTruthy();
    await userEvent.dblClick(screen.getByRole('button', { name: 'Pay off $9,445.10' }));
    answer();
    expect(
      await screen.findByText(
        'Your agreement is paid off. Thank you. We charged $9,445.10 (transaction T-9); the receipt was e-mailed to you.',
      ),
    ).toBeTruthy();
    expect(server.payments()).toHaveLength(1);
    expect(server.payments()[0]?.body).toEqual({
      ClientId: 'link-token',
      pay: 'payoff',
      expectedTotalCents: 944_510,
    });
    expect(server.payments()[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("shows the server's refusal under the button", async () => {
    fakeServer(
      account,
      () =>
        new Response(
          JSON.stringify({
            error: 'The amount is now $910.66. Please check it and pay again.',
            code: 'AMOUNT_CHANGED',
          }),
          { status: 409, headers: { 'content-type': 'application/json' } },
        ),
    );
    renderInPortal(<NewbornAgreementAccount id="link-token" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Pay the overdue $886.48' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The amount is now $910.66. Please check it and pay again.',
    );
  });

  it('sends a new card as a gateway token, never its number, with the authorization', async () => {
    const server = fakeServer(account, () => new Response('{}'));
    const user = userEvent.setup();
    renderInPortal(<NewbornAgreementAccount id="link-token" />);
    await user.click(await screen.findByRole('button', { name: 'Change the payment method' }));
    const typeInto = (name: RegExp, value: string) =>
      fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });
    typeInto(/Credit Card Number/, '4111111111111111');
    fireEvent.change(screen.getByLabelText(/^CVV/), { target: { value: '123' } });
    await user.click(screen.getByLabelText(/^Expiry Month/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '12', hidden: true }));
    const year = String(new Date().getFullYear() + 3);
    await user.click(screen.getByLabelText(/^Expiry Year/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: year, hidden: true }));
    typeInto(/Billing First Name/, 'Linh');
    typeInto(/Billing Last Name/, 'Nguyen');
    typeInto(/Billing Email/, 'linh@example.com');
    typeInto(/Billing Street/, '1 Main St');
    typeInto(/Billing City/, 'Miami');
    typeInto(/Billing State/, 'FL');
    typeInto(/Country/, 'United States');
    typeInto(/Zip or Postal Code/, '33131');
    await user.click(screen.getByRole('button', { name: 'Save the payment method' }));
    expect(await screen.findByText('Please authorize the monthly installments.')).toBeTruthy();
    expect(server.methods()).toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: /I authorize the bank to charge each remaining/ }));
    await user.click(screen.getByRole('button', { name: 'Save the payment method' }));
    expect(
      await screen.findByText('The payment method for your installments is updated. Visa ending 1111.'),
    ).toBeTruthy();
    await waitFor(() => expect(server.methods()).toHaveLength(1));
    const sent = server.methods()[0]?.body ?? {};
    expect(sent).toMatchObject({
      ClientId: 'link-token',
      Payment_Type: 'CC',
      authorizeCharges: true,
      token: { descriptor: 'sandbox', value: 'tok-visa' },
    });
    expect(JSON.stringify(sent)).not.toContain('4111111111111111');
    expect(sent).not.toHaveProperty('CVV');
  });
});
