import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { SHIPPED_PRICE_AMOUNTS } from '../../../../domain/price-book';
import { renderInPortal } from '../../../testing/render';
import { DiseaseForm } from './disease-form';

const jane = {
  clientACTId: 'ACT10001',
  clientRecordId: 'client-1',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane.doe@example.com',
  street: '1200 Brickell Avenue',
  city: 'Miami',
  state: 'FL',
  zip: '33131',
  country: 'United States',
};

const visaOnFile = {
  Credit_Card_Number: '************1111',
  Credit_Card_Type: 'Visa',
  Account_Number: null,
} as unknown as PaymentInfo;

/** The server as the form meets it; the submissions it receives are kept. */
function fakeServer() {
  const sent: Array<{ body: Record<string, unknown>; key: string | null }> = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).split('?')[0];
      if (path === '/api/pay/session') return json({ signedIn: true, role: 'client', id: 'client-1' });
      if (path === '/api/pay/get_Client') return json({ result: { listResponse: [jane] } });
      if (path === '/api/pay/get_PaymentInfo') return json({ result: visaOnFile });
      if (path === '/api/pay/payment_config') return json({ gateway: 'sandbox', tokenizeUrl: '/tokenize' });
      if (path === '/api/pay/price_book')
        return json({ version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
      if (path === '/api/pay/set_DiseaseData') {
        sent.push({
          body: JSON.parse(String(init?.body)) as Record<string, unknown>,
          key: new Headers(init?.headers).get('idempotency-key'),
        });
        return json({ error: 'The card was declined.', code: 'PAYMENT_DECLINED' }, 402);
      }
      throw new Error(`unexpected call ${path}`);
    }),
  );
  return { sent };
}

beforeEach(() => fakeServer());
afterEach(() => vi.unstubAllGlobals());

function renderForm() {
  renderInPortal(
    <MemoryRouter>
      <DiseaseForm variant={{ kind: 'client', onSubmitted: () => {} }} />
    </MemoryRouter>,
  );
  return screen.findByRole('form', { name: 'Infectious Disease Form' });
}

describe('the Infectious Disease Form', () => {
  it("asks for an option and the terms with the spec's words, and says Submit while nothing is to pay", async () => {
    const user = userEvent.setup();
    const form = await renderForm();
    const submit = within(form).getByRole('button', { name: 'Submit' });
    await waitFor(() => expect((submit as HTMLButtonElement).disabled).toBe(false));
    await user.click(submit);
    expect(await within(form).findByText('Please Select', { exact: true })).toBeDefined();
    expect(within(form).getByText('Please Check')).toBeDefined();
  });

  it('White Glove Labs: the button names what is charged, one total, no card fee by ACH, and the key is new after a decline', async () => {
    const user = userEvent.setup();
    const { sent } = fakeServer();
    const form = await renderForm();
    await user.click(within(form).getByRole('combobox', { name: 'Submission Option' }));
    await user.click(await screen.findByRole('option', { name: 'White Glove Labs', hidden: true }));
    await waitFor(() =>
      expect(within(form).getByRole('textbox', { name: 'First Name' })).toHaveProperty('value', 'Jane'),
    );

    // The card on file by default: $399.00 + 3% = $410.97.
    await waitFor(() =>
      expect(within(form).getByRole('radio', { name: 'Credit Card' })).toHaveProperty('checked', true),
    );
    expect(within(form).getByText('Credit card processing fee (3%): $11.97')).toBeDefined();
    expect(within(form).getByRole('button', { name: 'Pay $410.97' })).toBeDefined();

    await user.click(within(form).getByRole('radio', { name: 'ACH Payment' }));
    expect(within(form).getByRole('button', { name: 'Pay $399.00' })).toBeDefined();
    expect(within(form).queryByText(/^Credit card processing fee/)).toBeNull();
    expect(
      within(form)
        .getAllByText(/Total/)
        .map((line) => line.textContent),
    ).toEqual(['Total: $399.00']);

    await user.click(within(form).getByRole('radio', { name: 'Credit Card' }));
    await user.click(within(form).getByRole('checkbox', { name: /I agree/ }));
    const pay = within(form).getByRole('button', { name: 'Pay $410.97' });
    await user.click(pay);
    expect(await within(form).findByText('The card was declined.')).toBeDefined();
    await user.click(pay);
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[0]?.body).toMatchObject({
      submissionOption: 'White Glove Labs',
      PaymentMethod: 'Credit Card',
      update_card: false,
      FirstName: 'Jane',
      expectedTotalCents: 41_097,
    });
    expect(sent[1]?.key).not.toBe(sent[0]?.key);
  });
});
