import fs from 'node:fs';
import path from 'node:path';
import { MemoryRouter, matchPath, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInPortal } from '../testing/render';
import { portalTitleOf } from './pending-frame';
import { PAGE_FRAMES, PRELOADED_PAGES } from './preloaded-pages';
import { StaffLayout } from './staff-layout';

/** The frame a page opens in, found for an address as the router finds its route. */
function frameOf(address: string) {
  const entry = PRELOADED_PAGES.find(([pattern]) =>
    matchPath({ path: pattern, caseSensitive: false }, address),
  );
  return entry ? PAGE_FRAMES[entry[2]] : undefined;
}

/** Every signed-in address of the back office (the staff part of the route table). */
const BACK_OFFICE_ADDRESSES = [
  '/staff/home',
  '/staff/clients',
  '/staff/clients/ACT10002',
  '/staff/queues/checks',
  '/staff/queues/samples-to-receive',
  '/staff/queues/lab-reports',
  '/staff/queues/vial-requests',
  '/staff/queues/payments-in-doubt',
  '/staff/queues/plan-checks',
  '/staff/queues/storage-checks',
  '/staff/queues/store-orders',
  '/staff/billing',
  '/staff/admin/accounts',
  '/staff/admin/audit',
  '/staff/admin/calendar',
  '/staff/admin/prices',
];

afterEach(() => vi.unstubAllGlobals());

describe('the pages whose code the server names in the page it sends', () => {
  it("names every signed-in page of the back office with the back office's frame, header and staff session", () => {
    for (const address of BACK_OFFICE_ADDRESSES) {
      const frame = frameOf(address);
      expect(frame, address).toBeDefined();
      expect(frame?.modules, address).toContain('app/staff-layout.tsx');
      expect(frame?.firstCall, address).toBe('/api/staff/session');
      expect(portalTitleOf(address), address).toBe('Back Office');
    }
    // A work queue's page loads the queue page it opens inside.
    expect(frameOf('/staff/queues/vial-requests')?.modules).toContain(
      'features/staff/components/staff-queue-page.tsx',
    );
    // The staff sign-in page is a public page: nothing of the back office is named for it.
    expect(frameOf('/staff')).toBeUndefined();
    expect(portalTitleOf('/staff')).toBeNull();
  });

  it("names a client page with the client portal's frame and session, and nothing of the back office", () => {
    const frame = frameOf('/client-information');
    expect(frame?.firstCall).toBe('/api/pay/session');
    expect(frame?.modules).not.toContain('app/staff-layout.tsx');
    expect(portalTitleOf('/client-information')).toBe('Client Portal');
    expect(portalTitleOf('/my-clients')).toBe('Physician Portal');
  });

  it('names modules that exist', () => {
    const web = path.resolve(import.meta.dirname, '..');
    const modules = new Set([
      ...PRELOADED_PAGES.map(([, module]) => module),
      ...Object.values(PAGE_FRAMES).flatMap((frame) => frame.modules),
    ]);
    for (const module of modules) expect(fs.existsSync(path.join(web, module)), module).toBe(true);
  });
});

describe('the back office while its session loads', () => {
  it('keeps the header the server painted, so nothing moves when the frame replaces it', () => {
    // The staff session has not answered yet.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    renderInPortal(
      <MemoryRouter initialEntries={['/staff/home']}>
        <Routes>
          <Route element={<StaffLayout />}>
            <Route path="/staff/home" element={<h1>Home</h1>} />
          </Route>
        </Routes>
      </MemoryRouter>,
    );
    expect(document.querySelector('.frame-placeholder header')?.textContent).toBe('Back Office');
  });
});
