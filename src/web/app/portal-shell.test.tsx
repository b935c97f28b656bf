import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef, useState } from 'react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderInPortal } from '../testing/render';
import { PortalShell } from './portal-shell';

/** A page whose heading comes after its data, as a page that waits for its record. */
function LatePage() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 20);
    return () => clearTimeout(timer);
  }, []);
  return loaded ? <h1>Client Activity</h1> : <p>Loading</p>;
}

/** A page that shows a heading while it loads, then another heading element with its data. */
function ReplacedHeadingPage() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 20);
    return () => clearTimeout(timer);
  }, []);
  return loaded ? (
    <section>
      <h1>Storage Plans</h1>
      <p>Loaded</p>
    </section>
  ) : (
    <h1>Storage Plans</h1>
  );
}

/** A page that puts the focus on its own first field. */
function FieldPage() {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <>
      <h1>Payment Information</h1>
      <label>
        Card number
        <input ref={field} />
      </label>
    </>
  );
}

function portal(initialPath: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <h1>Sign In</h1> },
      {
        element: (
          <PortalShell
            title="Client Portal"
            home="/client-information"
            navOpen={false}
            toggleNav={() => {}}
            headerEnd={null}
            navbar={
              <nav aria-label="Portal sections">
                <Link to="/client-information">Client Information</Link>
                <Link to="/client-activity">Client Activity</Link>
                <Link to="/payment-information">Payment Information</Link>
                <Link to="/plans">Storage Plans</Link>
              </nav>
            }
          />
        ),
        children: [
          { path: '/client-information', element: <h1>Client Information</h1> },
          { path: '/client-activity', element: <LatePage /> },
          { path: '/payment-information', element: <FieldPage /> },
          { path: '/plans', element: <ReplacedHeadingPage /> },
        ],
      },
    ],
    { initialEntries: [initialPath] },
  );
  renderInPortal(<RouterProvider router={router} />);
  return router;
}

// In this order: the first page of the document is the one opened by its address.
describe('where the keyboard is in the portal', () => {
  it('on a page opened by its address, leaves the focus at the start: the first Tab is the skip link', async () => {
    portal('/client-information');
    await screen.findByRole('heading', { name: 'Client Information', level: 1 });
    expect(document.activeElement).toBe(document.body);
    await userEvent.setup().tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Skip to main content' }));
    expect(screen.getByRole('link', { name: 'Skip to main content' }).getAttribute('href')).toBe(
      '#main-content',
    );
  });

  it("after signing in and after each menu link, puts the focus on the page's main heading", async () => {
    // Signing in is a navigation to the portal, not a page opened by its address.
    const router = portal('/');
    await act(() => router.navigate('/client-information'));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { name: 'Client Information', level: 1 }),
      ),
    );

    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Client Activity' }));
    // The heading comes with the page's data: the focus waits on the page, then moves to it.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Client Activity', level: 1 })),
    );

    // A heading replaced by another as the data comes: the focus follows it, not left on the page.
    await user.click(screen.getByRole('link', { name: 'Storage Plans' }));
    await screen.findByText('Loaded');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Storage Plans', level: 1 })),
    );

    // A page that focuses its own field keeps it.
    await user.click(screen.getByRole('link', { name: 'Payment Information' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Card number' })),
    );
  });
});
