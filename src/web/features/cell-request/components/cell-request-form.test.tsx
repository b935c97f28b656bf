import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientRecord } from '../../../../domain/client';
import type { PaymentInfo } from '../../../../domain/payment-info';
import type { StorageCharges } from '../../../../domain/payments';
import { SHIPPED_PRICE_AMOUNTS } from '../../../../domain/price-book';
import type { ClientVialsResponse } from '../../../../domain/shipping';
import { renderInPortal } from '../../../testing/render';
import { CellRequestForm } from './cell-request-form';

// Today is Monday 2026-11-23; ACT VIP may arrive from Tuesday 12-01.
const TODAY = '2026-11-23';

const john = {
  clientACTId: 'ACT10002',
  clientRecordId: 'client-2',
  firstName: 'John',
  lastName: 'Roe',
  email: 'john.roe@example.com',
  phone: '3055550142',
  street: '1200 Brickell Avenue',
  city: 'Miami',
  state: 'FL',
  zip: '33131',
  country: 'United States',
  clinicName: 'Midtown Clinic',
  preferredAddressContactFullName: 'Maria Alvarez',
  shippingClinicEmail: 'clinic@example.com',
  preferredAddressPhone: '2125550100',
  preferredAddressStreet: '160 East 56th Street, Floor 7',
  preferredAddressCity: 'New York',
  preferredAddressState: 'NY',
  preferredAddressZip: '10022',
  preferredAddressCountry: 'United States',
} as ClientRecord;

const visaOnFile = {
  Credit_Card_Number: '************1111',
  Credit_Card_Type: 'Visa',
  Month_of_Expiry: '12',
  Year_of_Expiry: '2029',
  Credit_Card_Holder_First_Name: 'John',
  Credit_Card_Holder_Last_Name: 'Roe',
  Account_Number: null,
} as unknown as PaymentInfo;

interface Sent {
  body: Record<string, unknown>;
  key: string | undefined;
}

/** FedEx's standardized form of John's clinic address, as the offline carrier answers it. */
const SUGGESTED = {
  streetLinesToken: ['160 E 56TH ST FL 7'],
  city: 'NEW YORK',
  stateOrProvinceCode: 'NY',
  countryCode: 'US',
  postalCode: '10022-3609',
};

const oneVialCharged: ClientVialsResponse = {
  PayableAmount: 500,
  PayableAmountCents: 50_000,
  PrePaidVials: 0,
  BioInsuranceVialsUsed: 0,
  LongevityVialsUsed: 0,
  PayableVials: 1,
  EarliestShipmentDate: '2026-12-01',
};

/** The server as the form meets it: one vial at $500, ACT VIP from 12-01; the requests it receives are kept. */
function fakeServer(vialsAnswer: ClientVialsResponse = oneVialCharged) {
  const sent: Sent[] = [];
  const verified: Array<Record<string, unknown>> = [];
  const quoted: Array<Record<string, unknown>> = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).split('?')[0];
      if (path === '/api/pay/session') return json({ signedIn: true, role: 'client', id: 'client-2' });
      if (path === '/api/pay/get_Client') return json({ result: { listResponse: [john] } });
      if (path === '/api/pay/payment_config') return json({ gateway: 'sandbox', tokenizeUrl: '/tokenize' });
      if (path === '/api/pay/price_book')
        return json({ version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
      if (path === '/api/pay/get_ShipmentDates') {
        return json({ method: 'ACT VIP', earliest: '2026-12-01', dates: ['2026-12-01'], blackoutDates: [] });
      }
      if (path === '/api/pay/get_ClientVialsService') {
        return json(vialsAnswer);
      }
      if (path === '/api/pay/get_verifyAddressWithFedex') {
        const address = JSON.parse(String(init?.body)) as Record<string, unknown>;
        verified.push(address);
        const accepted = address.Street === SUGGESTED.streetLinesToken[0];
        return json({
          AddressFedExVerified: accepted,
          ...(accepted ? { message: 'Address Successfully Verified' } : {}),
          output: { resolvedAddresses: [SUGGESTED] },
        });
      }
      if (path === '/api/pay/get_FedexShipQuote') {
        quoted.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return json({
          shipping_method: 'FedEx',
          ShippingFeeCharged: 118.38,
          ShippingFeeChargedCents: 11_838,
          totalCharge: '118.38 USD',
          totalNetCharge: 98.65,
          priceConfirmedLater: false,
        });
      }
      if (path === '/api/pay/send_CellRequest') {
        const headers = new Headers(init?.headers);
        sent.push({
          body: JSON.parse(String(init?.body)) as Record<string, unknown>,
          key: headers.get('idempotency-key') ?? undefined,
        });
        return json({ error: 'FedEx is not answering.', code: 'SERVICE_UNAVAILABLE' }, 503);
      }
      throw new Error(`unexpected call ${path}`);
    }),
  );
  return { sent, verified, quoted };
}

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(`${TODAY}T15:00:00Z`));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderForm(
  overdueStorage?: { years: number; charges: StorageCharges },
  client: ClientRecord = john,
  physicianOnFile?: PaymentInfo,
  vialsAnswer?: ClientVialsResponse,
) {
  const server = { ...fakeServer(vialsAnswer), addressVerified: [] as boolean[] };
  renderInPortal(
    <MemoryRouter>
      <CellRequestForm
        client={client}
        paymentInfo={visaOnFile}
        clientId="client-2"
        today={TODAY}
        {...(overdueStorage ? { overdueStorage } : {})}
        {...(physicianOnFile ? { physician: { paymentInfo: physicianOnFile } } : {})}
        onAddressVerifiedChange={(verified) => server.addressVerified.push(verified)}
        onSubmitted={() => {}}
      />
    </MemoryRouter>,
  );
  return server;
}

describe('the Stem Cell Request Form', () => {
  it("gives the spec's messages for an empty form and sends nothing", async () => {
    const user = userEvent.setup();
    const server = renderForm();
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please select sample type')).toBeDefined();
    expect(screen.getByText('Please Select Dose')).toBeDefined();
    expect(screen.getByText('Please select Infectious Disease')).toBeDefined();
    expect(screen.getByText('Please Check')).toBeDefined();
    expect(server.sent).toHaveLength(0);
    // The annual storage note, its fee from the book in force.
    expect(screen.getByTestId('annual-storage-note').textContent).toBe(
      'Annual storage fee $350.00 by card or check ($339.81 by ACH) starting 1 year after receipt of cells; the first year is included; total owed today $0.00.',
    );
  });

  it('says its pre-paid vials are used Bio-Insurance first, one a vial, then 10 Longevity vials (1 million cells each) a vial', async () => {
    renderForm();
    expect(
      await screen.findByText(
        /\$500\.00 per vial \(10 million cells\)\. Your pre-paid vials are used first: each Bio-Insurance vial \(10 million cells\) covers one vial, then 10 Longevity vials \(1 million cells each\) cover one vial\. Fewer than 10 Longevity vials cannot cover a vial: that vial is charged, and your Longevity vials stay on your plan for later\./,
      ),
    ).toBeDefined();
  });

  it("says with no bank account on file, in the spec's words, where to store one once ACH is chosen", async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(await screen.findByRole('radio', { name: 'ACH Payment' }));
    expect(screen.getByTestId('no-ach-stored').textContent).toBe(
      'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
    );
    expect(screen.getByRole('link', { name: 'update payment information tab' }).getAttribute('href')).toBe(
      '/payment-information',
    );
    // Typing a new account in, or paying by card, needs no stored one.
    await user.click(screen.getByRole('checkbox', { name: 'Use Another ACH' }));
    expect(screen.queryByTestId('no-ach-stored')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Use Another ACH' }));
    await user.click(screen.getByRole('radio', { name: 'Credit Card' }));
    expect(screen.queryByTestId('no-ach-stored')).toBeNull();
  });

  it("shows the server's count of vials covered and the Longevity vials taken: 2 vials from 10 Longevity vials, 1 charged $500.00", async () => {
    const user = userEvent.setup();
    renderForm(undefined, john, undefined, {
      PayableAmount: 500,
      PayableAmountCents: 50_000,
      PrePaidVials: 1,
      BioInsuranceVialsUsed: 0,
      LongevityVialsUsed: 10,
      PayableVials: 1,
      EarliestShipmentDate: '2026-12-01',
    });
    await choose(user, 'Number of Vials', '2');
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('radio', { name: 'ACT VIP' }));
    // $500.00 + 3% ($15.00): one vial covered by the 10 Longevity vials, the other charged.
    await waitFor(() => expect(screen.getByTestId('order-total').textContent).toBe('$515.00'));
    const summary = screen.getByTestId('order-summary');
    expect(summary.textContent).toContain('Pre-paid vials used1 (10 Longevity vials of 1 million cells)');
    expect(summary.textContent).toContain('Vials charged$500.00');
  });

  it("asks the name of the disease once 'treated' is chosen", async () => {
    const user = userEvent.setup();
    const server = renderForm();
    await user.click(await screen.findByRole('radio', { name: /^Treated for an infectious disease/ }));
    await user.click(screen.getByRole('button', { name: /^(Submit|Pay)/ }));
    const name = await screen.findByRole('textbox', { name: /infectious disease/i });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(server.sent).toHaveLength(0);
  });

  it("says 'Please enter shipping details' when the address is verified without its city, and asks FedEx nothing", async () => {
    const user = userEvent.setup();
    const server = renderForm();
    await user.clear(await screen.findByRole('textbox', { name: 'City' }));
    await user.click(screen.getByRole('button', { name: 'Verify address' }));
    expect(await screen.findByText('Please enter shipping details')).toBeDefined();
    expect(screen.getByText('Please enter City')).toBeDefined();
    expect(server.quoted).toHaveLength(0);
  });

  it('Bypass Suggestion keeps the address as typed, unverified, and quotes it', async () => {
    const user = userEvent.setup();
    const server = renderForm();
    const street = (await screen.findByRole('textbox', { name: 'Street' })) as HTMLInputElement;
    await user.click(screen.getByRole('button', { name: 'Verify address' }));
    const dialog = await screen.findByRole('dialog', { name: 'FedEx suggests a standardized address' });
    expect(within(dialog).getByTestId('suggested-address').textContent).toBe(
      '160 E 56TH ST FL 7, NEW YORK, NY 10022-3609',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Bypass Suggestion' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(street.value).toBe('160 East 56th Street, Floor 7');
    await waitFor(() => expect(server.quoted).toHaveLength(1));
    expect(server.quoted[0]).toMatchObject({ Street: '160 East 56th Street, Floor 7', ZipCode: '10022' });
    expect(screen.queryByText('FedEx verified')).toBeNull();
    expect(screen.queryByText('Address Successfully Verified')).toBeNull();
  });

  it('Accept Suggestion fills in FedEx’s address, verified, and quotes it', async () => {
    const user = userEvent.setup();
    const server = renderForm();
    const street = (await screen.findByRole('textbox', { name: 'Street' })) as HTMLInputElement;
    await user.click(screen.getByRole('button', { name: 'Verify address' }));
    const dialog = await screen.findByRole('dialog', { name: 'FedEx suggests a standardized address' });
    await user.click(within(dialog).getByRole('button', { name: 'Accept Suggestion' }));
    expect(await screen.findByText('Address Successfully Verified')).toBeDefined();
    expect(street.value).toBe('160 E 56TH ST FL 7');
    expect(screen.getByText('FedEx verified')).toBeDefined();
    await waitFor(() => expect(server.quoted).toHaveLength(1));
    expect(server.quoted[0]).toMatchObject({ Street: '160 E 56TH ST FL 7', ZipCode: '10022-3609' });
  });

  it('tells the page (its release checklist) when the address is verified with FedEx, and when a change undoes it', async () => {
    const user = userEvent.setup();
    const server = renderForm();
    const street = await screen.findByRole('textbox', { name: 'Street' });
    expect(server.addressVerified).toEqual([false]);
    await user.click(screen.getByRole('button', { name: 'Verify address' }));
    await user.click(await screen.findByRole('button', { name: 'Accept Suggestion' }));
    expect(await screen.findByText('Address Successfully Verified')).toBeDefined();
    expect(server.addressVerified).toEqual([false, true]);
    await user.type(street, ' Suite 2');
    await waitFor(() => expect(server.addressVerified).toEqual([false, true, false]));
    expect(screen.queryByText('FedEx verified')).toBeNull();
  });

  it('asks for the shipping e-mail of the client information page when the preferred address has none', async () => {
    const user = userEvent.setup();
    const server = renderForm(undefined, { ...john, shippingClinicEmail: '' });
    await screen.findByRole('textbox', { name: 'Street' });
    await user.click(screen.getByRole('button', { name: /^(Submit|Pay)/ }));
    expect(
      await screen.findByText('Please enter valid Shipping Email from client information page.'),
    ).toBeDefined();
    expect(server.sent).toHaveLength(0);
  });

  it('names the total on its button, sends it to be checked, and retries an unanswered request under its key', async () => {
    const user = userEvent.setup();
    const server = renderForm();
    expect((await screen.findByRole('textbox', { name: 'Street' })) as HTMLInputElement).toHaveProperty(
      'value',
      '160 East 56th Street, Floor 7',
    );
    await choose(user, 'Sample Type', 'Adipose');
    await user.click(screen.getByRole('radio', { name: 'Not treated for an infectious disease' }));
    await choose(user, 'Number of Vials', '1');
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('radio', { name: 'ACT VIP' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Shipment Date' }), {
      target: { value: '12/01/2026' },
    });
    await user.click(screen.getByRole('checkbox', { name: /I authorize ACT/ }));

    // $500 for the vial, ACT VIP shipping to be confirmed, 3% by card: $515.00.
    await waitFor(() => expect(screen.getByTestId('order-total').textContent).toBe('$515.00'));
    const pay = screen.getByRole('button', { name: 'Pay $515.00' });
    await user.click(pay);
    expect(await screen.findByText('FedEx is not answering.')).toBeDefined();
    await user.click(pay);
    await waitFor(() => expect(server.sent).toHaveLength(2));
    const [first, second] = server.sent;
    expect(first?.body).toMatchObject({
      NumberOfVials: 1,
      shipping_method: 'ACT VIP',
      ShipmentDate: '2026-12-01',
      PaymentMethod: 'Credit Card',
      update_card: false,
      expectedTotalCents: 51_500,
    });
    expect(second?.key).toBe(first?.key);
    expect(second?.body).toEqual(first?.body);
  });

  it('adds overdue annual storage to the summary and the one total, with its own 3% by card', async () => {
    const user = userEvent.setup();
    // Two years billed before notices fixed their amounts, as the server prices them: by card
    // $679.62 and their own 3% ($20.39).
    const server = renderForm({
      years: 2,
      charges: {
        card: { amountCents: 67_962, feeCents: 2_039, totalCents: 70_001 },
        ach: { amountCents: 67_962, feeCents: 0, totalCents: 67_962 },
      },
    });
    await choose(user, 'Sample Type', 'Adipose');
    await user.click(screen.getByRole('radio', { name: 'Not treated for an infectious disease' }));
    await choose(user, 'Number of Vials', '1');
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('radio', { name: 'ACT VIP' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Shipment Date' }), {
      target: { value: '12/01/2026' },
    });
    await user.click(screen.getByRole('checkbox', { name: /I authorize ACT/ }));

    // $500 + 3% ($15.00) for the vial; $679.62 + 3% ($20.39) for the two years: $1,215.01.
    await waitFor(() => expect(screen.getByTestId('order-total').textContent).toBe('$1,215.01'));
    const summary = screen.getByTestId('order-summary');
    expect(summary.textContent).toContain('Overdue annual storage (2 years)$679.62');
    expect(summary.textContent).toContain('Processing fee$35.39');
    expect(screen.getByTestId('annual-storage-note').textContent).toBe(
      'Annual storage fee $350.00 by card or check ($339.81 by ACH) starting 1 year after receipt of cells; the first year is included; total owed today $679.62.',
    );
    await user.click(screen.getByRole('button', { name: 'Pay $1,215.01' }));
    await waitFor(() => expect(server.sent).toHaveLength(1));
    expect(server.sent[0]?.body).toMatchObject({ expectedTotalCents: 121_501 });
  });
});

describe("a physician's request for a client they act for (issue 23)", () => {
  const nothingOnFile = { Credit_Card_Number: null, Account_Number: null } as unknown as PaymentInfo;

  async function fillOrder(user: ReturnType<typeof userEvent.setup>) {
    await choose(user, 'Sample Type', 'Adipose');
    await user.click(screen.getByRole('radio', { name: 'Not treated for an infectious disease' }));
    await choose(user, 'Number of Vials', '1');
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('radio', { name: 'ACT VIP' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Shipment Date' }), {
      target: { value: '12/01/2026' },
    });
    await user.click(screen.getByRole('checkbox', { name: /I authorize ACT/ }));
  }

  it("pays with the client's card on file, no other card entered for the client, and names the client and the payer", async () => {
    const user = userEvent.setup();
    const server = renderForm(undefined, john, nothingOnFile);
    const who = await screen.findByRole('radiogroup', { name: 'Who pays' });
    expect(
      (
        within(who).getByRole('radio', {
          name: "The client's card or bank account on file",
        }) as HTMLInputElement
      ).checked,
    ).toBe(true);
    expect(screen.getByText('Visa ************1111')).toBeDefined();
    expect(screen.queryByRole('checkbox', { name: 'Use Another Credit Card' })).toBeNull();
    await fillOrder(user);
    await user.click(await screen.findByRole('button', { name: 'Pay $515.00' }));
    await waitFor(() => expect(server.sent).toHaveLength(1));
    expect(server.sent[0]?.body).toMatchObject({
      Client_id: 'client-2',
      PaidBy: 'client',
      PaymentMethod: 'Credit Card',
      update_card: false,
    });
  });

  it("with their own card chosen and none on file, asks for the physician's card, blank", async () => {
    const user = userEvent.setup();
    renderForm(undefined, john, nothingOnFile);
    await user.click(await screen.findByRole('radio', { name: 'My own card or bank account' }));
    expect(screen.getByText('No credit card is on file. Please enter the card to use.')).toBeDefined();
    expect(screen.queryByText('Visa ************1111')).toBeNull();
    expect(
      screen.getByRole('checkbox', { name: 'Save this credit card on file for future payments' }),
    ).toBeDefined();
  });
});
