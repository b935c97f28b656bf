import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientRecord } from '../../../../domain/client';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { renderInPortal } from '../../../testing/render';
import { StemCellRequestPage } from './stem-cell-request-page';

/** What holds the Stem Cell Request Form before it is shown (spec 3 section 2). */

const john = {
  clientACTId: 'ACT10002',
  clientRecordId: 'client-2',
  firstName: 'John',
  lastName: 'Roe',
  clientConsentFormCompleted: true,
} as ClientRecord;

const nothingOnFile = { Credit_Card_Number: null, Account_Number: null } as unknown as PaymentInfo;

function fakeServer(client: ClientRecord, paymentInfo: PaymentInfo) {
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = String(input).split('?')[0];
      if (path === '/api/pay/session') return json({ signedIn: true, role: 'client', id: 'client-2' });
      if (path === '/api/pay/get_Client') return json({ result: { listResponse: [client] } });
      if (path === '/api/pay/get_PaymentInfo') return json({ result: paymentInfo });
      if (path === '/api/pay/get_ReleaseReadiness') {
        return json({
          items: [],
          canRequest: true,
          overdueStorage: {
            years: 0,
            amountCents: 0,
            addedToOrder: false,
            charges: {
              card: { amountCents: 0, feeCents: 0, totalCents: 0 },
              ach: { amountCents: 0, feeCents: 0, totalCents: 0 },
            },
          },
        });
      }
      throw new Error(`unexpected call ${path}`);
    }),
  );
}

function renderPage() {
  renderInPortal(
    <MemoryRouter initialEntries={['/stem-cell-request']}>
      <StemCellRequestPage />
    </MemoryRouter>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the Stem Cell Request Form, before it is shown', () => {
  it("blocks ordering with the spec's alert while the consent is not complete, linking to it", async () => {
    fakeServer({ ...john, clientConsentFormCompleted: false }, nothingOnFile);
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Alert! Please complete the client consent before ordering vials!!.');
    expect(screen.getByRole('link', { name: 'Complete the client consent' }).getAttribute('href')).toBe(
      '/form-document/Consent-form',
    );
    expect(screen.queryByRole('form', { name: 'Stem Cell Request Form' })).toBeNull();
  });

  it('asks a client with no payment information on file to update it before ordering vials', async () => {
    fakeServer(john, nothingOnFile);
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Please update your payment information before ordering vials: no credit card or bank account is on file.',
    );
    expect(screen.getByRole('link', { name: 'Update payment information' }).getAttribute('href')).toBe(
      '/payment-information',
    );
    expect(screen.queryByRole('form', { name: 'Stem Cell Request Form' })).toBeNull();
  });
});
