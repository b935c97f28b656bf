import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientRecord } from '../../../../domain/client';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { SHIPPED_PRICE_AMOUNTS } from '../../../../domain/price-book';
import { renderInPortal } from '../../../testing/render';
import { StorePage } from './store-page';

// Today is Monday 2026-11-23: the store's earliest arrival is Thursday 11-26 (Thanksgiving), and
// staff black out Wednesday 12-02.
const TODAY = new Date('2026-11-23T15:00:00Z');
const BLACKOUT = '2026-12-02';

const nothingOnFile = Object.fromEntries(
  [
    'Credit_Card_Number',
    'Credit_Card_Type',
    'Month_of_Expiry',
    'Year_of_Expiry',
    'Credit_Card_Holder_First_Name',
    'Credit_Card_Holder_Last_Name',
    'Credit_Card_Billing_Zip_Code',
    'Account_Number',
    'Name_On_Account',
    'ABA_Routing_Number',
    'Physician_ID',
    'Physician_First_Name',
    'Physician_Last_Name',
  ].map((field) => [field, null]),
) as unknown as PaymentInfo;

const john: ClientRecord = {
  clientACTId: 'ACT10002',
  clientRecordId: 'client-2',
  firstName: 'John',
  lastName: 'Roe',
  clientDob: '01/01/1980',
  email: 'john.roe@example.com',
  phone: '3055550142',
  street: '1200 Brickell Avenue',
  city: 'Miami',
  state: 'FL',
  zip: '33131',
  country: 'United States',
  clinicName: '',
  preferredAddressContactFullName: '',
  shippingClinicEmail: '',
  preferredAddressPhone: '',
  preferredAddressStreet: '',
  preferredAddressCity: '',
  preferredAddressState: '',
  preferredAddressZip: '',
  preferredAddressCountry: '',
  creditCardNumber: null,
  annualStoragePaidUntil: null,
  totalAnnualOverdueAmount: 0,
  hasOverDuePayments: false,
  longevityVialsAvailable: 0,
  freeBioInsuranceVialsAvailble: 0,
  initialProcessingFormCompleted: true,
  infectiousDiseaseFormCompleted: true,
  clientConsentFormCompleted: true,
  arbSubscribed: false,
  physicianFormAgreement: true,
  dateBankedin: null,
  LastBioInsurancePurchasedDate: null,
};

const clientSession = {
  signedIn: true,
  role: 'client',
  id: 'client-2',
  clientACTId: 'ACT10002',
  clientLastName: 'Roe',
  idleTimeoutMs: 900_000,
};
const physicianSession = {
  signedIn: true,
  role: 'physician',
  id: 'physician-1',
  physicianACTId: 'PHY20001',
  physicianLastName: 'Alvarez',
  actingFor: { id: 'client-2', clientACTId: 'ACT10002', name: 'John Roe' },
  idleTimeoutMs: 900_000,
};

/** The server as the store page meets it; the orders it receives are kept to inspect. */
function fakeServer(session: object, client: ClientRecord = john) {
  const orders: unknown[] = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const path = url.split('?')[0];
      if (path === '/api/pay/session') return json(session);
      if (path === '/api/pay/get_Client') return json({ result: { listResponse: [client] } });
      if (path === '/api/pay/get_PaymentInfo') return json({ result: nothingOnFile });
      if (path === '/api/pay/payment_config') return json({ gateway: 'sandbox', tokenizeUrl: '/tokenize' });
      if (path === '/api/pay/price_book')
        return json({ version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
      if (path === '/api/pay/get_ShipmentDates') {
        return json({ method: 'FedEx', earliest: '2026-11-26', dates: [], blackoutDates: [BLACKOUT] });
      }
      if (path === '/api/pay/get_StoreOrders') return json({ orders: [] });
      if (path === '/api/pay/send_CP_StoreRequest') {
        orders.push(init?.body);
        return json({ error: 'not expected' }, 500);
      }
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return { orders };
}

async function renderStore(session: object = clientSession, client: ClientRecord = john) {
  const server = fakeServer(session, client);
  renderInPortal(
    <MemoryRouter>
      <StorePage />
    </MemoryRouter>,
  );
  const date = await screen.findByRole('textbox', { name: /Shipment Arrival Date/ });
  await waitFor(() => expect((date as HTMLInputElement).disabled).toBe(false));
  return { server, date: date as HTMLInputElement };
}

const typeDate = (field: HTMLInputElement, text: string) =>
  fireEvent.change(field, { target: { value: text } });

/** The message under a field, read as a person reads it. */
const errorUnder = (field: HTMLElement) => {
  const id = field
    .getAttribute('aria-describedby')
    ?.split(' ')
    .find((part) => part.includes('error'));
  return id ? document.getElementById(id)?.textContent : undefined;
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(TODAY);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the store arrival date', () => {
  it('shows the store sentence at once for a date too soon and for a staff blackout date', async () => {
    const { date } = await renderStore();
    for (const text of ['11/24/2026', '11/25/2026', '12/02/2026']) {
      typeDate(date, text);
      await waitFor(() =>
        expect(errorUnder(date)).toBe(
          'Please contact ACT directly by phone or email for this store order date.',
        ),
      );
      expect(date.value).toBe(text);
    }
    typeDate(date, '12/01/2026');
    await waitFor(() => expect(errorUnder(date)).toBeUndefined());
  });

  it("says 'Invalid date' at once for a date that is not one, keeps the text, and says it again on Submit", async () => {
    const user = userEvent.setup();
    const { date, server } = await renderStore();
    typeDate(date, '02/30/2027');
    await waitFor(() => expect(errorUnder(date)).toBe('Invalid date'));
    fireEvent.blur(date);
    expect(date.value).toBe('02/30/2027');
    typeDate(date, '01/04/2050');
    await waitFor(() => expect(errorUnder(date)).toBe('Invalid date'));
    typeDate(date, '02/30/2027');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(errorUnder(date)).toBe('Invalid date'));
    expect(server.orders).toHaveLength(0);
  });

  it("gives FedEx's words for a Monday and the day after Thanksgiving", async () => {
    const { date } = await renderStore();
    typeDate(date, '11/30/2026');
    await waitFor(() =>
      expect(errorUnder(date)).toBe(
        'FedEx does not deliver on Sunday and Monday. Please choose a different date from Tuesday to Saturday for shipment arrival',
      ),
    );
    typeDate(date, '11/27/2026');
    await waitFor(() =>
      expect(errorUnder(date)).toBe(
        'FedEx does not deliver on the day after a holiday. Please choose a different date from the day after a holiday for shipment arrival.',
      ),
    );
  });

  it('does not offer the staff blackout date in the calendar, nor a date too soon', async () => {
    const { date } = await renderStore();
    fireEvent.focus(date);
    const day = (name: string) => {
      const button = document.querySelector(`[data-dates-dropdown] button[aria-label="${name}"]`);
      if (!button) {
        const shown = [...document.querySelectorAll('[data-dates-dropdown] button[aria-label]')];
        throw new Error(`no day ${name}: ${shown.map((b) => b.getAttribute('aria-label')).join(', ')}`);
      }
      return button as HTMLButtonElement;
    };
    await waitFor(() => expect(day('2 December 2026').disabled).toBe(true));
    expect(day('25 November 2026').disabled).toBe(true);
    expect(day('28 November 2026').disabled).toBe(false);
    expect(day('1 December 2026').disabled).toBe(false);
    expect(day('3 December 2026').disabled).toBe(false);
  });
});

describe('the store order', () => {
  it("asks a new card for its billing e-mail: 'Please enter billing email', and sends nothing", async () => {
    const user = userEvent.setup();
    const { server } = await renderStore();
    await user.click(screen.getByRole('radio', { name: 'Credit Card' }));
    expect(
      screen.getByRole('checkbox', { name: 'Save this credit card on file for future payments' }),
    ).toBeDefined();
    // One bottle by card, $225.00 + 3%: the button names what it takes.
    await user.click(screen.getByRole('button', { name: 'Pay $231.75' }));
    expect(await screen.findByText('Please enter billing email')).toBeDefined();
    expect(screen.getByText('Please enter CVV')).toBeDefined();
    expect(screen.getByText('Please enter Shipment Date')).toBeDefined();
    expect(server.orders).toHaveLength(0);
  });

  it('takes a card 8 months from expiry when it is used once, and asks for more than a year when it is saved', async () => {
    const user = userEvent.setup();
    const { server } = await renderStore();
    await user.click(screen.getByRole('radio', { name: 'Credit Card' }));
    const type = (label: RegExp, value: string) =>
      fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
    type(/^Credit Card Number/, '4111111111111111');
    fireEvent.change(screen.getByLabelText(/^CVV/), { target: { value: '123' } });
    // Seen on 2026-11-23, a card through 07/2027 has about 8 months left.
    await user.click(screen.getByLabelText(/^Expiry Month/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '07', hidden: true }));
    const year = screen.getByLabelText(/^Expiry Year/, { selector: 'input' });
    await user.click(year);
    await user.click(await screen.findByRole('option', { name: '2027', hidden: true }));
    type(/^Billing First Name/, 'John');
    type(/^Billing Last Name/, 'Roe');
    type(/^Billing Email/, 'john.roe@example.com');
    type(/^Billing Street/, '1200 Brickell Avenue');
    type(/^Billing City/, 'Miami');
    type(/^Billing State/, 'FL');
    // The shipping address asks for a country too; the card's comes after it.
    const cardCountry = screen.getAllByRole('textbox', { name: /^Country/ }).at(-1) as HTMLElement;
    fireEvent.change(cardCountry, { target: { value: 'United States' } });
    type(/^Zip or Postal Code/, '33131');

    const oneYear = 'Please use credit card which has more than one year of expiry period remaining.';
    await user.click(screen.getByRole('button', { name: 'Pay $231.75' }));
    // The form was checked (the arrival date is still missing), and the card passed.
    expect(await screen.findByText('Please enter Shipment Date')).toBeDefined();
    expect(errorUnder(year)).toBeUndefined();
    expect(screen.queryByText(oneYear)).toBeNull();

    await user.click(
      screen.getByRole('checkbox', { name: 'Save this credit card on file for future payments' }),
    );
    await user.click(screen.getByRole('button', { name: 'Pay $231.75' }));
    await waitFor(() => expect(errorUnder(year)).toBe(oneYear));
    expect(server.orders).toHaveLength(0);
  });

  it("offers 'Saved Addresses For Future' and gives the store's CVV messages: empty, then not 3 digits", async () => {
    const user = userEvent.setup();
    const { server } = await renderStore();
    const keep = screen.getByRole('checkbox', { name: 'Saved Addresses For Future' }) as HTMLInputElement;
    expect(keep.checked).toBe(false);
    await user.click(keep);
    expect(keep.checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Credit Card' }));
    await user.click(screen.getByRole('button', { name: 'Pay $231.75' }));
    const cvv = screen.getByLabelText(/^CVV/);
    await waitFor(() => expect(errorUnder(cvv)).toBe('Please enter CVV'));
    fireEvent.change(cvv, { target: { value: '12' } });
    await user.click(screen.getByRole('button', { name: 'Pay $231.75' }));
    await waitFor(() => expect(errorUnder(cvv)).toBe('Invalid CVV code'));
    expect(server.orders).toHaveLength(0);
  });

  it('offers ACH with its own save box, and says where to store an ACH when none is on file', async () => {
    const user = userEvent.setup();
    await renderStore();
    await user.click(screen.getByRole('radio', { name: 'ACH Payment' }));
    expect(screen.getByTestId('no-ach-stored').textContent).toBe(
      'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
    );
    expect(screen.getByRole('link', { name: 'update payment information tab' }).getAttribute('href')).toBe(
      '/payment-information',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Use Another ACH' }));
    expect(screen.getByRole('checkbox', { name: 'Save this ACH on file for future payments' })).toBeDefined();
  });

  it("links a physician with no ACH stored to the physician's update payment information tab (spec 3 section 2)", async () => {
    const user = userEvent.setup();
    await renderStore(physicianSession);
    await user.click(screen.getByRole('radio', { name: 'ACH Payment' }));
    expect(screen.getByTestId('no-ach-stored').textContent).toBe(
      'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
    );
    expect(screen.getByRole('link', { name: 'update payment information tab' }).getAttribute('href')).toBe(
      '/physician/payment-information',
    );
  });

  it('lets a physician pay by card or by ACH', async () => {
    const user = userEvent.setup();
    await renderStore(physicianSession);
    expect(screen.getByRole('radio', { name: 'Credit Card' })).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'ACH Payment' }));
    await user.click(screen.getByRole('checkbox', { name: 'Use Another ACH' }));
    expect(screen.getByRole('checkbox', { name: 'Save this ACH on file for future payments' })).toBeDefined();
  });

  it("ships with the bank's phone when the client has none on file (spec 3)", async () => {
    await renderStore(clientSession, { ...john, phone: '' });
    expect((screen.getByRole('textbox', { name: /Shipping Phone/ }) as HTMLInputElement).value).toMatch(
      /^(\(305\) 555-0100|3055550100)$/,
    );
  });

  it('prices 10 bottles at $225 and 11 at $200 a bottle, whether the plus or the minus got there (DESIGN.md 8.5)', async () => {
    const user = userEvent.setup();
    await renderStore();
    const quantity = screen.getByRole('textbox', { name: 'Quantity' }) as HTMLInputElement;
    const more = screen.getByRole('button', { name: 'One bottle more' });
    const less = screen.getByRole('button', { name: 'One bottle less' });
    /** The serum line of the order summary, as a person reads it: quantity and amount. */
    const serumLine = () => {
      const row = within(screen.getByTestId('order-summary')).getByText('Stem Cell Face Serum').closest('tr');
      return Array.from(row?.querySelectorAll('td') ?? [])
        .slice(1)
        .map((cell) => cell.textContent);
    };
    fireEvent.change(quantity, { target: { value: '9' } });
    await user.click(more);
    expect(quantity.value).toBe('10');
    expect(serumLine()).toEqual(['10', '$2,250.00']);
    await user.click(more);
    expect(serumLine()).toEqual(['11', '$2,200.00']);
    await user.click(more);
    expect(serumLine()).toEqual(['12', '$2,400.00']);
    await user.click(less);
    expect(serumLine()).toEqual(['11', '$2,200.00']);
    await user.click(less);
    expect(quantity.value).toBe('10');
    expect(serumLine()).toEqual(['10', '$2,250.00']);
  });

  it('takes the minus down to 0 bottles, and then the serum leaves the summary', async () => {
    const user = userEvent.setup();
    await renderStore();
    const quantity = screen.getByRole('textbox', { name: 'Quantity' }) as HTMLInputElement;
    fireEvent.change(quantity, { target: { value: '1' } });
    await user.click(screen.getByRole('button', { name: 'One bottle less' }));
    expect(quantity.value).toBe('0');
    expect(within(screen.getByTestId('order-summary')).queryByText('Stem Cell Face Serum')).toBeNull();
    expect(screen.getByRole('button', { name: 'One bottle less' })).toHaveProperty('disabled', true);
  });

  it('says at once that more than 99 bottles cannot be ordered, and the plus stops at 99', async () => {
    const user = userEvent.setup();
    const { server } = await renderStore();
    const quantity = screen.getByRole('textbox', { name: 'Quantity' });
    fireEvent.change(quantity, { target: { value: '150' } });
    expect(
      await screen.findByText(
        'Please choose at most 99 bottles. For a larger order, please contact ACT directly by phone or email.',
      ),
    ).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(server.orders).toHaveLength(0);
    fireEvent.change(quantity, { target: { value: '99' } });
    expect(
      screen.queryByText(
        'Please choose at most 99 bottles. For a larger order, please contact ACT directly by phone or email.',
      ),
    ).toBeNull();
    expect((screen.getByRole('button', { name: 'One bottle more' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.change(quantity, { target: { value: '0' } });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please choose at least one bottle')).toBeDefined();
  });
});

describe('the store of a physician who has chosen no client', () => {
  it('says no client is chosen and offers to choose one that comes back here, never a spinner', async () => {
    const server = fakeServer({ ...physicianSession, actingFor: null });
    renderInPortal(
      <MemoryRouter>
        <StorePage />
      </MemoryRouter>,
    );
    const notice = await screen.findByTestId('no-client-chosen');
    expect(notice.textContent).toContain('No client chosen');
    expect(within(notice).getByRole('link', { name: 'Choose a client' }).getAttribute('href')).toBe(
      '/my-clients?next=%2Fstore',
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByLabelText('Loading')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(server.orders).toHaveLength(0);
  });
});
