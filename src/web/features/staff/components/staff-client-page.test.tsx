import { screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEvent } from '../../../../domain/staff';
import type { StaffClientRecord } from '../../../../domain/staff-client';
import { renderInPortal } from '../../../testing/render';
import { StaffClientPage } from './staff-client-page';

const JOHN_ID = '2c7d1e4a-5b6f-4a8e-9c0d-1e2f3a4b5c6d';

function record(overrides: Partial<StaffClientRecord['client']> = {}): StaffClientRecord {
  return {
    client: {
      clientACTId: 'ACT10002',
      clientRecordId: JOHN_ID,
      firstName: 'John',
      lastName: 'Roe',
      clientDob: '11/02/1968',
      email: 'john.roe@example.com',
      phone: '4075550199',
      street: '455 Park Avenue South',
      city: 'New York',
      state: 'NY',
      zip: '10016',
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
      annualStoragePaidUntil: '2024-12-26',
      totalAnnualOverdueAmount: 679.62,
      hasOverDuePayments: true,
      longevityVialsAvailable: 1,
      freeBioInsuranceVialsAvailble: 0,
      initialProcessingFormCompleted: true,
      infectiousDiseaseFormCompleted: false,
      clientConsentFormCompleted: true,
      arbSubscribed: false,
      physicianFormAgreement: false,
      dateBankedin: '2021-10-27',
      LastBioInsurancePurchasedDate: null,
      ...overrides,
    },
    physician: null,
    forms: [
      {
        form: 'consent',
        status: 'completed',
        completedAt: '2026-03-04T15:00:00.000Z',
        pdfDocumentId: null,
        labReportDocumentId: null,
        submittedByPhysician: false,
      },
    ],
    documents: [
      {
        id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        kind: 'lab_report',
        fileName: 'John Roe lab report.pdf',
        contentType: 'application/pdf',
        sizeBytes: 900,
        createdAt: '2026-11-27T14:00:00.000Z',
      },
    ],
    paymentMethods: [],
    activity: [
      {
        Id: 'a1',
        ClientId: 'ACT10002',
        ClientName: 'John Roe',
        Dose_Amount: null,
        CloseDate: '2023-08-29',
        Type: 'Dose Retrieval Fee',
        Purchased_Plan_Name: null,
        StageName: 'Closed Won',
        Cell_Request_Approved_By_Practitioner: null,
        Amount: '1000.00',
        ReceiptId: null,
      },
    ],
    releaseReadiness: {
      items: [],
      canRequest: false,
      overdueStorage: {
        years: 2,
        amountCents: 67_962,
        addedToOrder: true,
        charges: {
          card: { amountCents: 67_962, feeCents: 2_039, totalCents: 70_001 },
          ach: { amountCents: 67_962, feeCents: 0, totalCents: 67_962 },
        },
      },
    },
    profileChanges: [],
  };
}

const auditEvent = (overrides: Partial<AuditEvent>): AuditEvent => ({
  id: 'e1',
  at: '2026-11-27T21:46:00.000Z',
  actorRole: 'staff',
  actor: 'staff@example.com',
  clientACTId: 'ACT10002',
  action: 'read-client',
  route: 'GET /api/staff/client',
  documentId: null,
  amountCents: null,
  ip: '127.0.0.1',
  ...overrides,
});

/** The back office's server as this record's page calls it: the record, its audit trail, empty lists. */
function answer(client: StaffClientRecord, events: AuditEvent[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const body =
        url.pathname === '/api/staff/client'
          ? client
          : url.pathname === '/api/staff/audit'
            ? { events }
            : { years: [], payments: [], orders: [], agreements: [] };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

function renderRecord() {
  return renderInPortal(
    <MemoryRouter initialEntries={['/staff/clients/ACT10002']}>
      <Routes>
        <Route path="/staff/clients/:id" element={<StaffClientPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("a client's record in the back office", () => {
  it('alerts to the overdue amount the server computed, at the top', async () => {
    answer(record(), []);
    renderRecord();
    const alert = await screen.findByTestId('overdue-alert');
    expect(alert.textContent).toContain('Payment overdue');
    expect(alert.textContent).toContain('$679.62 of annual storage is overdue.');
  });

  it('has no overdue alert when nothing is overdue', async () => {
    answer(record({ hasOverDuePayments: false, totalAnnualOverdueAmount: 0 }), []);
    renderRecord();
    await screen.findByRole('heading', { name: 'John Roe (ACT10002)' });
    expect(screen.queryByTestId('overdue-alert')).toBeNull();
  });

  it('shows every date as MM/DD/YYYY and every amount as $1,000.00', async () => {
    answer(record(), []);
    renderRecord();
    await screen.findByRole('heading', { name: 'John Roe (ACT10002)' });
    expect(screen.getByRole('row', { name: 'Storage paid until 12/26/2024' })).toBeTruthy();
    expect(screen.getByRole('row', { name: 'Banked in 10/27/2021' })).toBeTruthy();
    expect(screen.getByRole('row', { name: 'Overdue amount $679.62' })).toBeTruthy();
    expect(screen.getByText('Client Consent: signed 03/04/2026')).toBeTruthy();
    expect(screen.getByText(/\(1 KB, 11\/27\/2026\)/)).toBeTruthy();
    expect(screen.getByRole('row', { name: '08/29/2023 Dose Retrieval — $1,000.00' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}|\$1000\.00/);
  });

  it('writes audit rows in words with their amounts, never the raw action and route', async () => {
    answer(record(), [
      auditEvent({
        id: 'e2',
        action: 'settle-payment',
        route: 'POST /api/staff/payments/:id/settle',
        amountCents: 35_000,
      }),
      auditEvent({
        id: 'e3',
        action: 'change-payment',
        route: 'POST /api/staff/refunds',
        amountCents: 12_500,
      }),
      auditEvent({ id: 'e1' }),
    ]);
    renderRecord();
    const trail = await screen.findByTestId('audit-trail');
    const what = within(trail)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.children[2]?.textContent);
    expect(what).toEqual([
      'Settled a payment in doubt: $350.00',
      'Asked for a refund: $125.00',
      "Read the client's record",
    ]);
    expect(within(trail).getAllByRole('row')[1]?.textContent).toContain('11/27/2026 4:46 PM ET');
    expect(trail.textContent).not.toContain('/api/');
  });

  it('offers the newborn finance agreement only on a newborn’s record', async () => {
    answer(record(), []);
    const grown = renderRecord();
    await screen.findByRole('heading', { name: 'John Roe (ACT10002)' });
    expect(screen.queryByRole('form', { name: 'Send newborn finance agreement' })).toBeNull();
    grown.unmount();

    const today = new Date();
    const born = new Date(today.getTime() - 21 * 24 * 60 * 60 * 1000);
    const dob = `${String(born.getMonth() + 1).padStart(2, '0')}/${String(born.getDate()).padStart(2, '0')}/${born.getFullYear()}`;
    answer(record({ firstName: 'Mia', lastName: 'Nguyen', clientDob: dob }), []);
    renderRecord();
    await screen.findByRole('heading', { name: 'Mia Nguyen (ACT10002)' });
    expect(screen.getByRole('form', { name: 'Send newborn finance agreement' })).toBeTruthy();
  });
});
