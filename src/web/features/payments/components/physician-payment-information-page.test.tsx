import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { renderInPortal } from '../../../testing/render';
import { PhysicianPaymentInformationPage } from './physician-payment-information-page';

const nothingOnFile: PaymentInfo = {
  Id: 'p1',
  Credit_Card_Number: null,
  Credit_Card_Type: null,
  Month_of_Expiry: null,
  Year_of_Expiry: null,
  Credit_Card_Holder_First_Name: null,
  Credit_Card_Holder_Last_Name: null,
  Credit_Card_Billing_Zip_Code: null,
  Account_Number: null,
  Name_On_Account: null,
  Physician_ID: 'PHY20001',
  Physician_First_Name: 'Maria',
  Physician_Last_Name: 'Alvarez',
  Credit_Card_Number__c: null,
  Credit_Card_Type__c: null,
  Month_of_Expiry__c: null,
  Year_of_Expiry__c: null,
  Credit_Card_Holder_First_Name__c: null,
  Credit_Card_Holder_Last_Name__c: null,
  Credit_Card_Billing_Zip_Code__c: null,
  Account_Number__c: null,
  Name_on_ACH_Account__c: null,
  Total_Amount_Overdue: 0,
  overdueCharges: {
    card: { amountCents: 0, feeCents: 0, totalCents: 0 },
    ach: { amountCents: 0, feeCents: 0, totalCents: 0 },
  },
};

const visaAndBank: PaymentInfo = {
  ...nothingOnFile,
  Credit_Card_Number: '************4242',
  Credit_Card_Type: 'Visa',
  Month_of_Expiry: '12',
  Year_of_Expiry: '2031',
  Credit_Card_Holder_First_Name: 'Maria',
  Credit_Card_Holder_Last_Name: 'Alvarez',
  Account_Number: '*****6789',
  Name_On_Account: 'Maria Alvarez',
};

interface Call {
  url: string;
  body: Record<string, unknown> | null;
  headers: Record<string, string>;
}

/**
 * The server as the page meets it: get_PaymentInfo answers what is on file now; a save puts a
 * Mastercard ending in 4444 (or an account ending in 0001) on file; a removal takes it off, or
 * answers `removal` when one is given.
 */
function fakeServer(start: PaymentInfo, removal?: { status: number; body: unknown }) {
  let onFile = start;
  const calls: Call[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
      calls.push({ url, body, headers: Object.fromEntries(new Headers(init?.headers).entries()) });
      if (url === '/api/pay/get_PaymentInfo') return json(200, { result: onFile });
      if (url === '/api/pay/payment_config')
        return json(200, { gateway: 'sandbox', tokenizeUrl: '/tokenize' });
      if (url === '/tokenize') return json(200, { token: { descriptor: 'sandbox', value: 'tok-1' } });
      if (url === '/api/pay/set_PhysicianPaymentInfo') {
        onFile =
          body?.Payment_Type === 'CC'
            ? {
                ...onFile,
                Credit_Card_Number: '************4444',
                Credit_Card_Type: 'Mastercard',
                Month_of_Expiry: '12',
                Year_of_Expiry: String(body.Year_of_Expiry),
              }
            : { ...onFile, Account_Number: '*****0001', Name_On_Account: 'Maria Alvarez' };
        return json(200, {
          success: true,
          message:
            'Your payment information has been updated successfully. We are now getting the portal services ready for you!',
          page_name: 'Physician Portal Payment Info Page',
          TransactionId: null,
          amountCharged: 0,
          processingFee: 0,
        });
      }
      if (url === '/api/pay/remove_PhysicianPaymentInfo') {
        if (removal) return json(removal.status, removal.body);
        const card = body?.Payment_Type === 'CC';
        onFile = card
          ? { ...onFile, Credit_Card_Number: null, Credit_Card_Type: null }
          : { ...onFile, Account_Number: null, Name_On_Account: null };
        return json(200, {
          success: true,
          message: card ? 'Your card on file was removed.' : 'Your bank account on file was removed.',
        });
      }
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return calls;
}

function renderPage() {
  const router = createMemoryRouter(
    [{ path: '/physician/payment-information', element: <PhysicianPaymentInformationPage /> }],
    { initialEntries: ['/physician/payment-information'] },
  );
  return renderInPortal(<RouterProvider router={router} />);
}

const section = (name: string) => screen.getByRole('region', { name });
const typeInto = (name: RegExp, value: string) =>
  fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });

afterEach(() => vi.unstubAllGlobals());

describe('Physician Portal / Payment Information', () => {
  it('shows the card by brand, last 4 and expiry, and the bank account by its last 4', async () => {
    fakeServer(visaAndBank);
    renderPage();
    const card = await screen.findByRole('region', { name: 'Card on file' });
    expect(within(card).getByText('Credit Card ending in 4242')).toBeTruthy();
    expect(within(card).getByRole('img', { name: 'Visa' })).toBeTruthy();
    expect(within(card).getByText('Expires: 12 / 2031')).toBeTruthy();
    expect(within(card).getByText('Name on card: Maria Alvarez')).toBeTruthy();
    const bank = section('Bank account on file (ACH)');
    expect(within(bank).getByText('Account Number Ending in *****6789')).toBeTruthy();
    expect(within(bank).getByText('Name on account: Maria Alvarez')).toBeTruthy();
    expect(within(bank).queryByText(/routing/i)).toBeNull();
    expect(within(card).getByRole('button', { name: 'Replace card' })).toBeTruthy();
    expect(within(bank).getByRole('button', { name: 'Remove bank account' })).toBeTruthy();
  });

  it('says when nothing is on file and offers to add a card and a bank account', async () => {
    fakeServer(nothingOnFile);
    renderPage();
    const card = await screen.findByRole('region', { name: 'Card on file' });
    expect(within(card).getByText('No card on file')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Add a card' })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Remove card' })).toBeNull();
    const bank = section('Bank account on file (ACH)');
    expect(within(bank).getByText('No bank account on file')).toBeTruthy();
    expect(within(bank).getByRole('button', { name: 'Add a bank account' })).toBeTruthy();
  });

  it('replaces the card with one tokenized in the browser: the portal gets the token and the last 4 only', async () => {
    const calls = fakeServer(visaAndBank);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Replace card' }));
    const year = String(new Date().getFullYear() + 3);
    typeInto(/Credit Card Number/, '5555555555554444');
    fireEvent.change(screen.getByLabelText(/^CVV/), { target: { value: '123' } });
    await user.click(screen.getByLabelText(/^Expiry Month/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '12', hidden: true }));
    await user.click(screen.getByLabelText(/^Expiry Year/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: year, hidden: true }));
    typeInto(/Billing First Name/, 'Maria');
    typeInto(/Billing Last Name/, 'Alvarez');
    typeInto(/Billing Email/, 'maria.alvarez@example.com');
    typeInto(/Billing Street/, '1200 Brickell Avenue');
    typeInto(/Billing City/, 'Miami');
    typeInto(/Billing State/, 'FL');
    typeInto(/Zip or Postal Code/, '33131');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText(
      'Your payment information has been updated successfully. We are now getting the portal services ready for you!',
    );
    const [saved] = calls.filter((c) => c.url === '/api/pay/set_PhysicianPaymentInfo');
    expect(saved?.body).toMatchObject({
      Payment_Type: 'CC',
      token: { descriptor: 'sandbox', value: 'tok-1' },
      Credit_Card_Type: 'Mastercard',
      Year_of_Expiry: year,
    });
    expect(saved?.headers['idempotency-key']?.length).toBeGreaterThanOrEqual(8);
    expect(JSON.stringify(saved?.body)).not.toContain('5555555555554444');
    expect(saved?.body).not.toHaveProperty('CVV');
    expect(saved?.body).not.toHaveProperty('ClientSFRecordId');
    expect(await within(section('Card on file')).findByText('Credit Card ending in 4444')).toBeTruthy();
  });

  it('adds a bank account with the fields and messages of the client page', async () => {
    const calls = fakeServer(nothingOnFile);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add a bank account' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // The spec's field messages (spec 1 section 4, with DESIGN.md's spelling), as on the client's own page.
    expect(await screen.findByText('Please enter account number')).toBeTruthy();
    expect(screen.getAllByText("Field can't be empty")).toHaveLength(2);
    expect(calls.some((c) => c.url === '/api/pay/set_PhysicianPaymentInfo')).toBe(false);
    typeInto(/Name on Account/, 'Maria Alvarez');
    typeInto(/^Account Number/, '000123450001');
    typeInto(/ABA Routing Number/, '110000000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await within(section('Bank account on file (ACH)')).findByText('Account Number Ending in *****0001'),
    ).toBeTruthy();
    const [saved] = calls.filter((c) => c.url === '/api/pay/set_PhysicianPaymentInfo');
    expect(saved?.body).toMatchObject({ Payment_Type: 'ACH', ABA_Routing_Number: '110000000' });
    expect(JSON.stringify(saved?.body)).not.toContain('000123450001');
  });

  it('removes the card only after the physician confirms, and "Keep it" sends nothing', async () => {
    const calls = fakeServer(visaAndBank);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove card' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove the Visa ending in 4242?' });
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(calls.some((c) => c.url === '/api/pay/remove_PhysicianPaymentInfo')).toBe(false);
    expect(screen.getByText('Credit Card ending in 4242')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove card' }));
    await user.click(screen.getByRole('button', { name: 'Remove card' }));
    await screen.findByText('Your card on file was removed.');
    expect(await within(section('Card on file')).findByText('No card on file')).toBeTruthy();
    // The bank account stays.
    expect(
      within(section('Bank account on file (ACH)')).getByText('Account Number Ending in *****6789'),
    ).toBeTruthy();
    const removals = calls.filter((c) => c.url === '/api/pay/remove_PhysicianPaymentInfo');
    expect(removals.map((c) => c.body)).toEqual([{ Payment_Type: 'CC' }]);
  });

  it("shows the server's refusal under the confirmation and keeps the card", async () => {
    fakeServer(visaAndBank, {
      status: 409,
      body: {
        error: 'A payment with this method is still being processed. Please try again in a minute.',
        code: 'PAYMENT_IN_PROGRESS',
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove card' }));
    await user.click(screen.getByRole('button', { name: 'Remove card' }));
    const refusal = await screen.findByText(
      'A payment with this method is still being processed. Please try again in a minute.',
    );
    expect(refusal.getAttribute('role')).toBe('alert');
    await waitFor(() => expect(screen.getByText('Credit Card ending in 4242')).toBeTruthy());
  });
});
