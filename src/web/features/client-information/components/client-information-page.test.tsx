import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientRecord } from '../../../../domain/client';
import { renderInPortal } from '../../../testing/render';
import { ClientInformationPage } from './client-information-page';

/** A client with no preferred clinic: the whole shipping block is empty. */
const noClinic: ClientRecord = {
  clientACTId: 'ACT70001',
  clientRecordId: 'c1',
  firstName: 'Nora',
  lastName: 'Vance',
  clientDob: '03/14/1975',
  email: 'nora@example.com',
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
  creditCardNumber: '************4242',
  annualStoragePaidUntil: '2099-01-01',
  totalAnnualOverdueAmount: 0,
  hasOverDuePayments: false,
  longevityVialsAvailable: 0,
  freeBioInsuranceVialsAvailble: 4,
  initialProcessingFormCompleted: true,
  infectiousDiseaseFormCompleted: true,
  clientConsentFormCompleted: true,
  arbSubscribed: false,
  physicianFormAgreement: false,
  dateBankedin: null,
  LastBioInsurancePurchasedDate: null,
};

/** Calls to the drafts route of Client Information: what the server keeps, and each call. */
interface DraftServer {
  kept: Record<string, unknown> | null;
  calls: string[];
}

/** The session, the record, the draft kept, and update_Client answering the record with what was sent. */
function fakeServer(record: ClientRecord, drafts: DraftServer = { kept: null, calls: [] }) {
  const posts: Array<Record<string, string>> = [];
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/pay/session')
        return json({
          signedIn: true,
          role: 'client',
          id: 'c1',
          clientACTId: record.clientACTId,
          clientLastName: record.lastName,
          idleTimeoutMs: 300_000,
        });
      if (url.startsWith('/api/pay/get_Client')) return json({ result: { listResponse: [record] } });
      if (url === '/api/pay/drafts/client-information') {
        const method = init?.method ?? 'GET';
        drafts.calls.push(method);
        if (method === 'PUT') drafts.kept = JSON.parse(String(init?.body)) as Record<string, unknown>;
        if (method === 'DELETE') drafts.kept = null;
        return json({
          draft: drafts.kept,
          savedAt: drafts.kept ? '2026-11-27T10:00:00.000Z' : null,
          deleted: true,
        });
      }
      if (url.startsWith('/api/pay/update_Client') && init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as Record<string, string>;
        posts.push(body);
        return json({
          success: true,
          message: 'Client information successfully updated.',
          client: { ...record, ...body },
        });
      }
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return posts;
}

const renderPage = () =>
  renderInPortal(
    <RouterProvider
      router={createMemoryRouter([{ path: '/client-information', element: <ClientInformationPage /> }], {
        initialEntries: ['/client-information'],
      })}
    />,
  );

const shipping = () => screen.getByRole('group', { name: 'Preferred Shipping to Medical Professional' });
const personal = () => screen.getByRole('group', { name: 'Personal Details' });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('Client Information edits each block on its own (DESIGN.md 8.27)', () => {
  it('changes the phone of a client with no preferred clinic, sending Personal Details only', async () => {
    const posts = fakeServer(noClinic);
    renderPage();
    // Shown as people read a phone number.
    expect(await screen.findByText('(305) 555-0142')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Edit Personal Details' }));
    // The clinic block stays as text: no clinic field to fill.
    expect(within(shipping()).queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
    const phone = within(personal()).getByRole('textbox', { name: /Phone/ });
    expect((phone as HTMLInputElement).value).toBe('(305) 555-0142');
    await userEvent.clear(phone);
    await userEvent.type(phone, '(305) 555-0199');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to update this information?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Client information successfully updated.')).toBeTruthy();
    expect(posts).toHaveLength(1);
    expect(Object.keys(posts[0] ?? {}).sort()).toEqual(
      [
        'city',
        'clientDob',
        'country',
        'email',
        'firstName',
        'lastName',
        'phone',
        'state',
        'street',
        'zip',
      ].sort(),
    );
    expect(posts[0]?.phone).toBe('3055550199');
  });

  it('keeps an empty clinic block optional until it is started, then asks for every field', async () => {
    const posts = fakeServer(noClinic);
    renderPage();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Edit Preferred Shipping to Medical Professional' }),
    );
    const clinic = within(shipping()).getByRole('textbox', { name: 'Clinic Name' });
    expect(clinic).toHaveProperty('required', false);
    expect(within(personal()).queryByRole('textbox')).toBeNull();

    await userEvent.type(clinic, 'Coral Gables Orthopedics');
    expect(clinic).toHaveProperty('required', true);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    for (const message of [
      'Please enter clinic contact person name',
      'Please enter shipping email',
      'Please enter phone number',
      'Please enter Street',
      'Please enter city',
      'Please select state',
      'Please enter zipcode',
      'Please enter country',
    ])
      expect(await within(shipping()).findByText(message)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posts).toHaveLength(0);
  });

  it('refuses a phone number too short and a ZIP that is not one, with clear messages', async () => {
    const posts = fakeServer(noClinic);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Personal Details' }));
    const phone = within(personal()).getByRole('textbox', { name: /Phone/ });
    await userEvent.clear(phone);
    await userEvent.type(phone, '12');
    const zip = within(personal()).getByRole('textbox', { name: /Zip Code/ });
    await userEvent.clear(zip);
    await userEvent.type(zip, 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter a 10-digit phone number')).toBeTruthy();
    expect(screen.getByText('Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)')).toBeTruthy();
    expect(posts).toHaveLength(0);
  });

  it('offers the personal state as a list of states, like the clinic’s', async () => {
    fakeServer(noClinic);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Personal Details' }));
    const state = within(personal()).getByRole('combobox', { name: /State/ });
    await waitFor(() => expect((state as HTMLInputElement).value).toBe('Florida'));
    await userEvent.click(state);
    expect(await screen.findByRole('option', { name: 'District of Columbia', hidden: true })).toBeTruthy();
  });

  it('takes a province and a postal code as text for a client living abroad, and saves them', async () => {
    const posts = fakeServer({
      ...noClinic,
      city: 'Toronto',
      state: 'Ontario',
      zip: 'M5V 2T6',
      country: 'Canada',
    });
    renderPage();
    // Shown as typed, not looked up in the list of US states.
    expect(await screen.findByText('Ontario')).toBeTruthy();
    expect(within(personal()).getByText('State / Province')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Edit Personal Details' }));
    expect(within(personal()).queryByRole('combobox', { name: /State/ })).toBeNull();
    const province = within(personal()).getByRole('textbox', { name: /State \/ Province/ });
    await userEvent.clear(province);
    await userEvent.type(province, 'Québec');
    const postalCode = within(personal()).getByRole('textbox', { name: /Postal Code/ });
    await userEvent.clear(postalCode);
    await userEvent.type(postalCode, 'H2Y 1C6');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Client information successfully updated.')).toBeTruthy();
    expect(posts[0]).toMatchObject({ state: 'Québec', zip: 'H2Y 1C6', country: 'Canada' });
  });

  it('turns the state list into a text field when the Country is changed to another country', async () => {
    fakeServer(noClinic);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Personal Details' }));
    expect(within(personal()).getByRole('combobox', { name: /State/ })).toBeTruthy();
    const country = within(personal()).getByRole('textbox', { name: /Country/ });
    await userEvent.clear(country);
    await userEvent.type(country, 'Mexico');
    expect(within(personal()).queryByRole('combobox', { name: /State/ })).toBeNull();
    expect(within(personal()).getByRole('textbox', { name: /State \/ Province/ })).toBeTruthy();
    expect(within(personal()).getByRole('textbox', { name: /Postal Code/ })).toBeTruthy();
    // The clinic's state stays a list: vials are shipped in the United States.
    await userEvent.clear(country);
    await userEvent.type(country, 'USA');
    expect(within(personal()).getByRole('combobox', { name: /State/ })).toBeTruthy();
  });

  it('shows the four read-only checkboxes of spec 1 section 2, checked as the record says', async () => {
    fakeServer({ ...noClinic, infectiousDiseaseFormCompleted: false });
    renderPage();
    const forms = await screen.findByRole('group', { name: 'Forms and Payments' });
    const box = (name: string) => within(forms).getByRole('checkbox', { name }) as HTMLInputElement;
    expect(box('Initial Sample Form').checked).toBe(true);
    expect(box('Client Consent Form').checked).toBe(true);
    expect(box('Infectious Disease Screening').checked).toBe(false);
    expect(box('Annual Storage Paid').checked).toBe(true);
    for (const name of ['Initial Sample Form', 'Client Consent Form', 'Infectious Disease Screening'])
      expect(box(name).readOnly).toBe(true);
  });

  it('opens the block the server kept a draft of, with its values, and discards the draft on Cancel', async () => {
    const drafts: DraftServer = {
      kept: { block: 'personal', values: { city: 'Somewhere Else' } },
      calls: [],
    };
    fakeServer(noClinic, drafts);
    renderPage();
    const city = await within(await screen.findByRole('group', { name: 'Personal Details' })).findByRole(
      'textbox',
      {
        name: /City/,
      },
    );
    expect((city as HTMLInputElement).value).toBe('Somewhere Else');
    // Nothing of it is in the browser's storage.
    expect(sessionStorage.length).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(drafts.calls).toContain('DELETE'));
    expect(drafts.kept).toBeNull();
    expect(await screen.findByText('Miami')).toBeTruthy();
  });

  it('keeps an edit on the server as it is typed, never in the browser', async () => {
    const drafts: DraftServer = { kept: null, calls: [] };
    fakeServer(noClinic, drafts);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Personal Details' }));
    const city = within(personal()).getByRole('textbox', { name: /City/ });
    await userEvent.clear(city);
    await userEvent.type(city, 'Tampa');
    await waitFor(() => expect(drafts.kept).toMatchObject({ block: 'personal', values: { city: 'Tampa' } }), {
      timeout: 5000,
    });
    expect(sessionStorage.length).toBe(0);
  });
});
