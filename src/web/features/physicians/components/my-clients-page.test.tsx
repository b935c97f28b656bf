import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PhysicianClient } from '../../../../domain/physician';
import { renderInPortal } from '../../../testing/render';
import { MyClientsPage } from './my-clients-page';

const client = (over: Partial<PhysicianClient> & Pick<PhysicianClient, 'id' | 'clientACTId' | 'name'>) => ({
  firstName: over.name.split(' ')[0] ?? '',
  lastName: over.name.split(' ')[1] ?? '',
  dateOfBirth: '1975-03-14',
  initialProcessingPaid: true,
  consentSigned: false,
  screeningDone: false,
  storagePaidUntil: null,
  dateBankedIn: null,
  documents: [],
  ...over,
});

const jane = client({ id: 'client-1', clientACTId: 'ACT10001', name: 'Jane Doe' });
const john = client({
  id: 'client-2',
  clientACTId: 'ACT10002',
  name: 'John Roe',
  consentSigned: true,
});

/** The server as My Clients meets it: the session names whom the physician acts for once chosen. */
function fakeServer(actingFor: { id: string; clientACTId: string; name: string } | null = null) {
  const chosen: string[] = [];
  let acting = actingFor;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).split('?')[0];
      if (path === '/api/pay/session') {
        return json({
          signedIn: true,
          role: 'physician',
          id: 'physician-1',
          physicianACTId: 'PHY20001',
          physicianLastName: 'Alvarez',
          actingFor: acting,
          idleTimeoutMs: 300_000,
        });
      }
      if (path === '/api/pay/get_PhysicianClients') return json({ clients: [jane, john] });
      if (path === '/api/pay/set_ActingClient') {
        const { clientId } = JSON.parse(String(init?.body)) as { clientId: string };
        chosen.push(clientId);
        const found = [jane, john].find((c) => c.id === clientId);
        if (!found) return json({ error: 'Not found', code: 'NOT_FOUND' }, 404);
        acting = { id: found.id, clientACTId: found.clientACTId, name: found.name };
        return json({ actingFor: acting });
      }
      throw new Error(`unexpected call ${String(input)}`);
    }),
  );
  return { chosen };
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

function renderPage(url = '/my-clients') {
  renderInPortal(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/my-clients" element={<MyClientsPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

/** The wide screen's row of a client (jsdom renders the table and the phone's cards alike). */
const rowOf = async (clientACTId: string) => {
  await screen.findAllByText(clientACTId);
  const row = document.querySelector(`tr[data-client="${clientACTId}"]`);
  if (!(row instanceof HTMLElement)) throw new Error(`no row for ${clientACTId}`);
  return within(row);
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('My Clients', () => {
  it('confirms the choice in words, with the pages it leads on to, and moves the focus there', async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    renderPage();
    const row = await rowOf('ACT10001');
    expect(screen.queryByText(/You are acting for/)).toBeNull();

    await user.click(row.getByRole('button', { name: 'Choose Jane Doe (ACT10001)' }));

    const confirmation = await screen.findByTestId('acting-for-confirmation');
    expect(confirmation.textContent).toContain('You are acting for Jane Doe (ACT10001).');
    await waitFor(() => expect(document.activeElement).toBe(confirmation));
    expect(within(confirmation).getByRole('link', { name: 'Client Consent' }).getAttribute('href')).toBe(
      '/client-consent',
    );
    expect(within(confirmation).getByRole('link', { name: 'Store' }).getAttribute('href')).toBe('/store');
    expect(server.chosen).toEqual(['client-1']);
    expect(row.getByText('Chosen')).toBeTruthy();
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it('goes back to the page that sent the physician to choose', async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    renderPage('/my-clients?next=%2Fstore');
    expect(await screen.findByText('Choose the client you act for to go on to Store.')).toBeTruthy();
    const row = await rowOf('ACT10002');
    await user.click(row.getByRole('button', { name: 'Choose John Roe (ACT10002)' }));
    expect((await screen.findByTestId('where')).textContent).toContain('/store');
    expect(server.chosen).toEqual(['client-2']);
  });

  it('follows no next page outside the pages for a client', async () => {
    const user = userEvent.setup();
    fakeServer();
    renderPage('/my-clients?next=https%3A%2F%2Fevil.example%2F');
    const row = await rowOf('ACT10001');
    expect(screen.queryByText(/to go on to/)).toBeNull();
    await user.click(row.getByRole('button', { name: 'Choose Jane Doe (ACT10001)' }));
    await screen.findByTestId('acting-for-confirmation');
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it("a row's Screening chooses its client, then opens the screening form", async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    renderPage();
    const row = await rowOf('ACT10001');
    await user.click(row.getByRole('button', { name: 'Screening for Jane Doe (ACT10001)' }));
    expect((await screen.findByTestId('where')).textContent).toContain('/infectious-disease');
    expect(server.chosen).toEqual(['client-1']);
  });

  it("a row's actions for the client already chosen open the form without choosing again", async () => {
    const user = userEvent.setup();
    const server = fakeServer({ id: 'client-2', clientACTId: 'ACT10002', name: 'John Roe' });
    renderPage();
    const row = await rowOf('ACT10002');
    await user.click(row.getByRole('button', { name: 'Order serum for John Roe (ACT10002)' }));
    expect((await screen.findByTestId('where')).textContent).toContain('/store');
    expect(server.chosen).toEqual([]);
  });

  it('offers Sign consent only while the consent is to sign', async () => {
    fakeServer();
    renderPage();
    const janeRow = await rowOf('ACT10001');
    const johnRow = await rowOf('ACT10002');
    expect(janeRow.getByRole('button', { name: 'Sign consent for Jane Doe (ACT10001)' })).toBeTruthy();
    expect(johnRow.queryByRole('button', { name: /^Sign consent/ })).toBeNull();
    expect(johnRow.getByRole('button', { name: 'Screening for John Roe (ACT10002)' })).toBeTruthy();
  });

  it('stays on the list and says why when the server refuses the client', async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    renderPage();
    const row = await rowOf('ACT10001');
    // Between the list and the click, the link to the client was removed on the server.
    vi.mocked(fetch).mockImplementationOnce(
      async () =>
        new Response(JSON.stringify({ error: 'The client was not found.', code: 'NOT_FOUND' }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    );
    await user.click(row.getByRole('button', { name: 'Sign consent for Jane Doe (ACT10001)' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The client was not found.');
    expect(screen.queryByTestId('where')).toBeNull();
    expect(server.chosen).toEqual([]);
  });
});
