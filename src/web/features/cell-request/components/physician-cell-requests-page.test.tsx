import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInPortal } from '../../../testing/render';
import { PhysicianCellRequestsPage } from './physician-cell-requests-page';

/** The physician's Cell Requests page shows the acting-for client's release checklist (issue 22). */

/** The checklist as the server answers it for a client whose consent is not signed. */
const consentMissing = {
  items: [
    {
      key: 'consent',
      label: 'Consent signed',
      done: false,
      holdsRequest: true,
      byClient: true,
      text: 'Waits for the signature on the client consent.',
      clearsOn: null,
    },
    {
      key: 'cellsReady',
      label: 'Cells banked and ready',
      done: true,
      holdsRequest: false,
      byClient: false,
      text: 'Banked on 03/02/2023; ready.',
      clearsOn: null,
    },
    {
      key: 'approval',
      label: "Practitioner's approval",
      done: false,
      holdsRequest: false,
      byClient: false,
      text: 'Waits for the request: the practitioner approves it once it is sent.',
      clearsOn: null,
    },
  ],
  canRequest: false,
  overdueStorage: {
    years: 0,
    amountCents: 0,
    addedToOrder: false,
    charges: {
      card: { amountCents: 0, feeCents: 0, totalCents: 0 },
      ach: { amountCents: 0, feeCents: 0, totalCents: 0 },
    },
  },
};

function fakeServer(readiness: { status: number; body: unknown }) {
  const calls: string[] = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      calls.push(url);
      const path = url.split('?')[0];
      if (path === '/api/pay/session') {
        return json({
          signedIn: true,
          role: 'physician',
          id: 'physician-1',
          physicianACTId: 'PHY20001',
          physicianLastName: 'Alvarez',
          actingFor: { id: 'client-1', clientACTId: 'ACT10001', name: 'Jane Doe' },
          idleTimeoutMs: 300_000,
        });
      }
      if (path === '/api/pay/get_CellRequests') return json({ requests: [] });
      if (path === '/api/pay/get_ReleaseReadiness') return json(readiness.body, readiness.status);
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return { calls };
}

function renderPage() {
  renderInPortal(
    <MemoryRouter initialEntries={['/cell-requests']}>
      <PhysicianCellRequestsPage />
    </MemoryRouter>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("the physician's Cell Requests page", () => {
  it("shows the client's release checklist from the server, without the client's own links", async () => {
    const { calls } = fakeServer({ status: 200, body: consentMissing });
    renderPage();
    const checklist = await screen.findByRole('list', { name: 'Release checklist' });
    const items = within(checklist).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Consent signedMissingWaits for the signature on the client consent.',
      'Cells banked and readyDoneBanked on 03/02/2023; ready.',
      "Practitioner's approvalWaitingWaits for the request: the practitioner approves it once it is sent.",
    ]);
    // The client signs their consent in the Client Portal: the physician's page does not send them there.
    expect(within(checklist).queryByRole('link')).toBeNull();
    expect(screen.getByText('This client has no cell requests.')).toBeTruthy();
    // The checklist of the next request: no request id, the client from the server session.
    expect(calls.filter((url) => url.startsWith('/api/pay/get_ReleaseReadiness'))).toEqual([
      '/api/pay/get_ReleaseReadiness',
    ]);
  });

  it('says so when the checklist cannot be loaded, and still lists the requests', async () => {
    fakeServer({ status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The release checklist could not be loaded. Please reload the page.',
    );
    expect(screen.getByText('This client has no cell requests.')).toBeTruthy();
  });
});
