import { type Browser, expect, test } from '@playwright/test';
import { newClientByCheck, setPasswordFromWelcome } from './support/clients';
import { shownValue, signIn } from './support/portal';

/**
 * Signing in and out, on two clients Dr. Alvarez registers for this run (no demo account is signed
 * in or out here), so these journeys run beside any other.
 */
const PASSWORD = 'Harbor#Lantern2026';
const run = Date.now().toString(36);
let avery = '';
let blake = '';

/** A client of this run, registered with a check, who set their password from the welcome e-mail. */
async function clientWithPassword(browser: Browser, first: string) {
  const since = Date.now();
  const email = `${first.toLowerCase()}.${run}@example.com`;
  const clientId = await newClientByCheck(browser, { first, last: `Signin${run}`, email }, `${run}${first}`);
  const page = await setPasswordFromWelcome(browser, email, PASSWORD, since);
  await page.context().close();
  return clientId;
}

test.beforeAll(async ({ browser }) => {
  avery = await clientWithPassword(browser, 'Avery');
  blake = await clientWithPassword(browser, 'Blake');
});

test.describe('sign-in', () => {
  test('refuses empty fields, then a wrong password, then signs in', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Please enter Client ID')).toBeVisible();
    await expect(page.getByText('Please enter password')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Client ID' })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('textbox', { name: 'Client ID' })).toBeFocused();

    await page.getByRole('textbox', { name: 'Client ID' }).fill(avery);
    await page.getByRole('textbox', { name: 'Password' }).fill('not my password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Client ID or Password not matched, Please try again.');
    await expect(page).toHaveURL(/\/$/);

    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/client-information$/);
    await expect(page.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Client Portal')).toBeVisible();
  });

  test('keeps nothing identifying in browser storage, and remembers only the Client ID when asked', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Client ID' }).fill(avery);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('checkbox', { name: 'Remember me' }).check();
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/client-information$/);
    const storage = await page.evaluate(() => ({
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      cookies: document.cookie,
    }));
    expect(storage.local).toContain(avery);
    expect(storage.local).not.toContain(PASSWORD);
    expect(storage.session).toBe('{}');
    expect(storage.cookies).toBe(''); // the session cookie is HttpOnly

    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('textbox', { name: 'Client ID' })).toHaveValue(avery);
    await expect(page.getByRole('textbox', { name: 'Password' })).toHaveValue('');

    await page.getByRole('checkbox', { name: 'Remember me' }).uncheck();
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/client-information$/);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(avery);
  });

  test('sends a signed-in visitor from the sign-in page to Client Information', async ({ page }) => {
    await signIn(page, avery, PASSWORD);
    await page.goto('/');
    await expect(page).toHaveURL(/\/client-information$/);
  });

  test('sends every portal page back to sign-in without a session', async ({ page }) => {
    const clientCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/pay/get_Client')) clientCalls.push(request.url());
    });
    for (const path of [
      '/client-information',
      '/client-activity',
      '/payment-information',
      '/form-document/Consent-form',
      '/store',
    ]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
      // Nobody was signed in: no session ended, and no portal call was made to find that out.
      await expect(page.getByText('Your session has ended. Please sign in again.')).toHaveCount(0);
    }
    expect(clientCalls).toEqual([]);
  });

  test('signs out from the profile menu, and the old session is gone on the server', async ({ page }) => {
    await signIn(page, avery, PASSWORD);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    const answer = await page.request.get('/api/pay/get_Client');
    expect(answer.status()).toBe(401);
    await page.goto('/client-information');
    await expect(page).toHaveURL(/\/$/);
  });

  test('a second browser has its own session; signing out one leaves the other', async ({
    page,
    browser,
  }) => {
    await signIn(page, avery, PASSWORD);
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, blake, PASSWORD);
    await expect(shownValue(otherPage, 'First Name')).toHaveText('Blake');
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await otherPage.reload();
    await expect(shownValue(otherPage, 'First Name')).toHaveText('Blake');
    await other.close();
  });
});

test.describe('navigation', () => {
  test('marks Forms red while consent or screening is incomplete and flags Payment Information without a card', async ({
    page,
  }) => {
    await signIn(page, avery, PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Portal sections' });
    await expect(nav.getByRole('link', { name: 'Consent Form' })).toHaveAttribute('data-incomplete', 'true');
    await expect(nav.getByRole('link', { name: /Payment Information/ })).toHaveAttribute(
      'data-flagged',
      'true',
    );
    await expect(nav.getByText('No card on file')).toBeAttached();
  });

  test('opens the ACT Store from the menu', async ({ page }) => {
    await signIn(page, avery, PASSWORD);
    await page
      .getByRole('navigation', { name: 'Portal sections' })
      .getByRole('link', { name: 'Store' })
      .click();
    await expect(page).toHaveURL(/\/store$/);
    await expect(page.getByRole('heading', { name: 'ACT Store', level: 1 })).toBeVisible();
    await page
      .getByRole('navigation', { name: 'Portal sections' })
      .getByRole('link', { name: 'Client Information' })
      .click();
    await expect(page.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible();
  });
});
