/**
 * The frame around the screens: an unknown address, the contact-us link from the configuration,
 * and spec 1's header menu from an ordinary laptop's width. Reads only; changes nothing.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectAccessible, signIn } from './support/portal';
import { signInAsDemoAdmin, signInAsDemoAdminAnew } from './support/staff';

// playwright.config.ts starts the server with this CONTACT_URL.
const CONTACT_URL = 'https://bank.example.org/contact-us';

test('an unknown address says "Page not found" with the way home, signed out and signed in', async ({
  page,
}) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expect(page.getByText(/Coming soon/i)).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Go to sign-in' }).click();
  await expect(page).toHaveURL(/\/$/);

  await signIn(page, 'ACT10002');
  await page.goto('/client-informaton');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expect(page.getByText(/Coming soon/i)).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Go to Client Information' }).click();
  await expect(page.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible();
});

test('the contact-us link of the sign-in pages comes from CONTACT_URL', async ({ page }) => {
  for (const path of ['/', '/physician']) {
    await page.goto(path);
    await expect(page.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', CONTACT_URL);
  }
});

test("spec 1's header menu shows from 1200 px; below, the navigation is the side menu", async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 800 });
  await signIn(page, 'ACT10002');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu).toBeVisible();
  for (const label of [
    'Client Information',
    'Client Activity',
    'Stem Cell Request Form',
    'Banking and Storage Plans',
    'Payment Information',
  ]) {
    await expect(menu.getByRole('link', { name: label })).toBeVisible();
  }
  await expect(menu.getByRole('button', { name: 'Forms and Other Documents' })).toBeVisible();
  // The header's menu and the profile menu fit in the header at this width.
  const header = await page.getByRole('banner').boundingBox();
  const profile = await page.getByRole('button', { name: 'Profile menu' }).boundingBox();
  expect((profile?.x ?? 0) + (profile?.width ?? 0)).toBeLessThanOrEqual(header?.width ?? 0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1200);

  await page.setViewportSize({ width: 1199, height: 800 });
  await expect(menu).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Portal sections' })).toBeVisible();
});

test("a signed-in page opened directly paints the portal's header from the page itself, and every file it names exists", async ({
  page,
  request,
}) => {
  // The page as sent, before any script runs: the header is there, and the files it names load.
  const sent = await (await request.get('/client-information')).text();
  const named = [...sent.matchAll(/<link rel="(?:modulepreload|preload)"[^>]*href="([^"]+)"/g)].map(
    (m) => m[1],
  );
  expect(named.filter((url) => url?.startsWith('/assets/')).length).toBeGreaterThan(1);
  for (const url of named) {
    if (url === '/api/pay/session') continue;
    expect((await request.get(url as string)).status(), url).toBe(200);
  }
  await page.setViewportSize({ width: 375, height: 800 });
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/client-information');
  await expect(page.locator('.frame-placeholder').getByText('Client Portal')).toBeVisible();
  // The bank's mark is painted too, where the app's header will draw it.
  const painted = await page.locator('.frame-placeholder svg').boundingBox();
  await page.unroute('**/assets/*.js');

  // With the app loaded, the real frame has replaced it, and the session was fetched once.
  await signIn(page, 'ACT10001');
  const sessionCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/pay/session')) sessionCalls.push(r.url());
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible();
  await expect(page.locator('.frame-placeholder')).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Client Portal' })).toBeVisible();
  expect(sessionCalls).toHaveLength(1);
  const drawn = await page.getByRole('banner').locator('svg').first().boundingBox();
  expect(painted).not.toBeNull();
  expect(Math.abs((drawn?.x ?? 0) - (painted?.x ?? 0))).toBeLessThanOrEqual(1);
  expect(Math.abs((drawn?.y ?? 0) - (painted?.y ?? 0))).toBeLessThanOrEqual(1);
  expect(drawn?.width).toBe(painted?.width);
});

test("a back office page opened directly names its frame's files and the staff session, paints the back office's header, and a client page names none of them", async ({
  page,
  request,
}) => {
  const namedBy = async (address: string) => {
    const sent = await (await request.get(address)).text();
    return [...sent.matchAll(/<link rel="(?:modulepreload|preload)"[^>]*href="([^"]+)"/g)].map(
      (m) => m[1] as string,
    );
  };
  const staffFiles = await namedBy('/staff/clients/ACT10002');
  expect(staffFiles).toContain('/api/staff/session');
  expect(staffFiles.some((url) => /^\/assets\/staff-layout-[\w-]+\.js$/.test(url))).toBe(true);
  for (const url of staffFiles.filter((named) => named.startsWith('/assets/')))
    expect((await request.get(url)).status(), url).toBe(200);
  // The back office's own code (its frame, its session, its pages and queues) is no part of a client page.
  const clientFiles = await namedBy('/client-information');
  expect(clientFiles).toContain('/api/pay/session');
  expect(clientFiles.filter((url) => /staff|queue/.test(url))).toEqual([]);

  // The page as sent, before any script runs: the back office's header is there.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/staff/home');
  await expect(page.locator('.frame-placeholder').getByText('Back Office')).toBeVisible();
  const painted = await page.locator('.frame-placeholder svg').boundingBox();
  await page.unroute('**/assets/*.js');

  // Signed in and opened directly: the real frame has replaced it where it was, every file named
  // was used (the browser warns of one that was not), and the staff session was fetched once.
  const warnings: string[] = [];
  listenForPreloadWarnings(page, warnings);
  await signInAsDemoAdmin(page);
  const sessionCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/staff/session')) sessionCalls.push(r.url());
  });
  await page.goto('/staff/clients/ACT10002');
  await expect(page.getByRole('heading', { name: 'John Roe (ACT10002)', level: 1 })).toBeVisible();
  await expect(page.locator('.frame-placeholder')).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Back Office' })).toBeVisible();
  expect(sessionCalls).toHaveLength(1);
  const drawn = await page.getByRole('banner').locator('svg').first().boundingBox();
  expect(painted).not.toBeNull();
  expect(Math.abs((drawn?.x ?? 0) - (painted?.x ?? 0))).toBeLessThanOrEqual(1);
  expect(Math.abs((drawn?.y ?? 0) - (painted?.y ?? 0))).toBeLessThanOrEqual(1);
  expect(warnings).toEqual([]);
});

/**
 * Where the keyboard is, in each portal at both widths: after signing in and after a menu link,
 * on the page's main heading (read out first; the next Tab is the page's own); on a page opened by
 * its address, at the start, where the first Tab is the skip link, shown while focused, that moves
 * to the page. No preload goes unused (the browser warns of a credentials mode that differs).
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
]) {
  test(`the keyboard lands on the page's heading after signing in and after a menu link; on a page opened by its address the first Tab is the skip link; the footer names the bank (${viewport.width} px)`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize(viewport);
    const warnings: string[] = [];
    listenForPreloadWarnings(page, warnings);
    const heading = (name: string) => page.getByRole('heading', { name, level: 1 });

    // The client portal.
    await signIn(page, 'ACT10002');
    await expect(heading('Client Information')).toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await expectBankMark(page, 'Client Portal');
    await expectSkipLinkFirst(page, heading('Client Information'));
    // A menu link pressed: the new page's heading has the focus, not the menu.
    if (viewport.width >= 1200) {
      await page
        .getByRole('navigation', { name: 'Main menu' })
        .getByRole('link', { name: 'Client Activity' })
        .click();
    } else {
      await page.getByRole('button', { name: 'Toggle navigation' }).click();
      await page
        .getByRole('navigation', { name: 'Portal sections' })
        .getByRole('link', { name: 'Client Activity' })
        .click();
    }
    await expect(heading('Client Activity')).toBeFocused();
    // The bank's details at the foot of the page (demo placeholders, or the server's settings).
    const footer = page.locator('footer');
    await expect(footer.getByRole('link', { name: '(305) 555-0100' })).toHaveAttribute(
      'href',
      'tel:+13055550100',
    );
    await expect(footer.getByRole('link', { name: 'Contact ACT' })).toHaveAttribute('href', CONTACT_URL);
    await expect(footer.getByRole('link', { name: 'Privacy' })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/focus-client-${viewport.width}.png` });

    // The physician portal, in a browser of its own.
    const physician = await (await browser.newContext({ viewport })).newPage();
    listenForPreloadWarnings(physician, warnings);
    await physician.goto('/physician');
    await physician.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20002');
    await physician.getByRole('textbox', { name: 'Password' }).fill('DemoPhysician#2026');
    await physician.getByRole('button', { name: 'Sign In' }).click();
    const myClients = physician.getByRole('heading', { name: 'My Clients', level: 1 });
    await expect(myClients).toBeFocused();
    await expectBankMark(physician, 'Physician Portal');
    await expectSkipLinkFirst(physician, myClients);
    await expectAccessible(physician);
    await physician.screenshot({ path: `test-results/focus-physician-${viewport.width}.png` });

    // The back office, in a browser of its own.
    const staff = await (await browser.newContext({ viewport })).newPage();
    listenForPreloadWarnings(staff, warnings);
    // Signed in with password and code, not with a session another journey left: this is about landing.
    await signInAsDemoAdminAnew(staff);
    const staffHome = staff.getByRole('heading', { name: 'Home', level: 1 });
    await expect(staffHome).toBeFocused();
    await expectBankMark(staff, 'Back Office');
    await expectSkipLinkFirst(staff, staffHome);
    await expectAccessible(staff);
    await staff.screenshot({ path: `test-results/focus-staff-${viewport.width}.png` });

    expect(warnings).toEqual([]);
  });
}

/**
 * The bank's mark beside the portal's name in the header's link home, whole in the header: the
 * link is read by its name alone (the mark is hidden from screen readers).
 */
async function expectBankMark(page: Page, portal: string) {
  const home = page.getByRole('banner').getByRole('link', { name: portal, exact: true });
  const mark = home.locator('svg');
  await expect(mark).toBeVisible();
  await expect(mark).toHaveAttribute('aria-hidden', 'true');
  const box = await mark.boundingBox();
  expect(box?.width).toBe(28);
  expect(box?.height).toBe(28);
  const header = await page.getByRole('banner').boundingBox();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
}

for (const width of [1280, 375]) {
  test(`the sign-in pages are headed by the bank's mark and the portal's name, and it is the pages' icon (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    for (const [path, portal, title] of [
      ['/', 'Client Portal', 'Sign In'],
      ['/physician', 'Client Portal', 'Physician Sign In'],
      ['/staff', 'Back Office', 'Staff Sign In'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      const mark = page.locator('main svg').first();
      await expect(mark).toBeVisible();
      await expect(mark).toHaveAttribute('aria-hidden', 'true');
      await expect(page.getByText(portal, { exact: true }).first()).toBeVisible();
      const icon = page.locator('link[rel="icon"]');
      await expect(icon).toHaveAttribute('type', 'image/svg+xml');
      expect(await icon.getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/sign-in-mark${path.replace(/\//g, '-')}-${width}.png` });
    }
  });
}

/** The browser's warnings about preloaded files it could not use. */
function listenForPreloadWarnings(page: Page, warnings: string[]) {
  page.on('console', (message) => {
    if (/preload/i.test(message.text())) warnings.push(message.text());
  });
}

/** Reloaded, the page leaves the focus at its start: the first Tab is the skip link, and Enter goes to the page. */
async function expectSkipLinkFirst(page: Page, pageHeading: Locator) {
  await page.reload();
  await expect(pageHeading).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  // The next Tab is inside the page, past the header and the menu.
  await page.keyboard.press('Tab');
  expect(
    await page.evaluate(() => document.getElementById('main-content')?.contains(document.activeElement)),
  ).toBe(true);
}
