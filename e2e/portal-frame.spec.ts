/**
 * The frame around the screens: an unknown address, the contact-us link from the configuration,
 * and spec 1's header menu from an ordinary laptop's width. Reads only; changes nothing.
 */
import { expect, test } from '@playwright/test';
import { expectAccessible, signIn } from './support/portal';

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
});

test('the keyboard lands on the page after signing in and after a menu link; a skip link comes first; the footer names the bank', async ({
  page,
}) => {
  await signIn(page, 'ACT10002');
  await expect(page.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible();
  await expect(page.locator('#main-content')).toBeFocused();
  // The skip link comes before everything in the header (the portal's name is next): shown
  // while focused, Enter moves to the page.
  await page.getByRole('banner').getByRole('link', { name: 'Client Portal' }).focus();
  await page.keyboard.press('Shift+Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  // A menu link pressed: the new page has the focus, not the menu.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Client Activity' })
    .click();
  await expect(page.getByRole('heading', { name: 'Client Activity', level: 1 })).toBeVisible();
  await expect(page.locator('#main-content')).toBeFocused();
  // The bank's details at the foot of the page (demo placeholders, or the server's settings).
  const footer = page.locator('footer');
  await expect(footer.getByRole('link', { name: '(305) 555-0100' })).toHaveAttribute(
    'href',
    'tel:+13055550100',
  );
  await expect(footer.getByRole('link', { name: 'Contact ACT' })).toHaveAttribute('href', CONTACT_URL);
  await expect(footer.getByRole('link', { name: 'Privacy' })).toBeVisible();
  await expectAccessible(page);
});
