import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SHIPPED_PRICE_AMOUNTS } from '../../../../domain/price-book';
import { renderInPortal } from '../../../testing/render';
import { PriceBookPage } from './price-book-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The demo admin, the shipped version in force on 11/26/2026, and what the page posts. */
function fakeServer() {
  const posts: Array<{ url: string; body: Record<string, unknown> }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/staff/session') {
        return json({
          stage: 'signed-in',
          idleTimeoutMs: 900_000,
          staff: {
            id: 's1',
            email: 'staff@example.com',
            name: 'Demo Admin',
            level: 'admin',
            enrolled: true,
            disabledAt: null,
          },
        });
      }
      if (url === '/api/staff/price_versions') {
        return json({
          today: '2026-11-26',
          versions: [
            {
              version: 0,
              effectiveOn: null,
              note: 'As shipped',
              createdBy: null,
              createdAt: null,
              withdrawnAt: null,
              approvedBy: null,
              state: 'in force',
              amounts: SHIPPED_PRICE_AMOUNTS,
            },
          ],
        });
      }
      if (init?.method === 'POST') {
        posts.push({ url, body: JSON.parse(String(init.body)) });
        return json({ today: '2026-11-26', versions: [], version: 1, awaitingApproval: false });
      }
      return json({ error: 'Not found', code: 'NOT_FOUND' }, 404);
    }),
  );
  return posts;
}

afterEach(() => vi.unstubAllGlobals());

describe('the Price Book', () => {
  it('takes the date a version takes effect typed as MM/DD/YYYY, like every date of the back office', async () => {
    const posts = fakeServer();
    renderInPortal(
      <MemoryRouter>
        <PriceBookPage />
      </MemoryRouter>,
    );
    const date = await screen.findByRole('textbox', { name: 'Takes effect on' });
    // A text field with the bank's format, not the browser's own date field; today to start with.
    expect((date as HTMLInputElement).type).toBe('text');
    expect(date.getAttribute('placeholder')).toBe('MM/DD/YYYY');
    expect((date as HTMLInputElement).value).toBe('11/26/2026');

    const user = userEvent.setup();
    const vial = screen.getByRole('textbox', { name: /^Vial of 10 million cells/ });
    await user.clear(vial);
    await user.type(vial, '550.00');
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'Laboratory costs for next year');
    await user.clear(date);
    await user.type(date, '2027-01-15');
    await user.click(screen.getByRole('button', { name: 'Add version' }));
    expect(await screen.findByText('Enter the date as MM/DD/YYYY')).toBeTruthy();
    expect(document.activeElement).toBe(date);
    expect(posts).toHaveLength(0);

    await user.clear(date);
    await user.type(date, '11/25/2026');
    await user.click(screen.getByRole('button', { name: 'Add version' }));
    expect(
      await screen.findByText(
        'The prices cannot take effect before today: an order already placed keeps its price',
      ),
    ).toBeTruthy();
    expect(posts).toHaveLength(0);

    await user.clear(date);
    await user.type(date, '01/15/2027');
    expect(screen.getByText(/from 01\/15\/2027/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add version' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]?.url).toBe('/api/staff/create_price_version');
    expect(posts[0]?.body).toMatchObject({
      effectiveOn: '2027-01-15',
      note: 'Laboratory costs for next year',
    });
  });
});
