import { expect, type Page, test } from '@playwright/test';
import { startOwnServer } from './support/own-server';
import { DEMO_PASSWORD, expectAccessible, signIn } from './support/portal';

test('signs out after 5 minutes without activity', async ({ page }) => {
  await page.clock.install();
  await signIn(page);
  await page.clock.fastForward('03:30');
  // Activity in the page tells the server too, so the server's idle clock follows the person's.
  const keepAlive = page.waitForRequest(
    (r) => r.url().endsWith('/api/pay/keepalive') && r.method() === 'POST',
  );
  await page.mouse.move(200, 200);
  await page.mouse.move(220, 240);
  await page.clock.runFor(500);
  await keepAlive;
  await page.clock.fastForward('02:00');
  await expect(page).toHaveURL(/\/client-information$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A minute before the 5 minutes (4 minutes after the activity), the warning; nobody answers it.
  await page.clock.fastForward('02:00');
  await expect(page.getByRole('dialog', { name: 'You will be signed out soon' })).toBeVisible();
  await expect(page.getByText('you will be signed out in about a minute')).toBeVisible();
  await page.clock.fastForward('01:01');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('You were signed out after 5 minutes without activity.')).toBeVisible();
  const answer = await page.request.get('/api/pay/get_Client');
  expect(answer.status()).toBe(401);
  await page.goto('/client-information');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Jane')).toHaveCount(0);
});

/**
 * Issue 24, point 1, on a portal of its own whose idle sign-out is set to 30 seconds
 * (IDLE_SIGN_OUT_SECONDS, the setting a kiosk would use): the warning shows halfway, at 15.
 * Jane's consent there is unsigned, whatever the shared portal's journeys did to hers. On a loaded
 * machine a step can take longer than the 15 seconds before a warning: where the journey is not
 * waiting for one, a warning that comes is answered "Stay signed in", as a person at work would.
 */
test.describe('a shortened idle sign-out', () => {
  test.describe.configure({ timeout: 240_000 });
  let portal: Awaited<ReturnType<typeof startOwnServer>>;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    portal = await startOwnServer('e2e-idle', { IDLE_SIGN_OUT_SECONDS: '30' });
  });
  test.afterAll(async () => {
    await portal?.stop();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 740 },
  ]) {
    test(`at ${viewport.width} px: warned, stays signed in, then idles out and comes back to her consent with its answers`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ baseURL: portal.origin, viewport });
      const page = await context.newPage();
      const warning = page.getByRole('dialog', { name: 'You will be signed out soon' });
      const answerWarnings = () =>
        page.addLocatorHandler(warning, async () => {
          await warning.getByRole('button', { name: 'Stay signed in' }).click();
        });
      await answerWarnings();
      await signIn(page, 'ACT10001');
      // Each run starts without a draft (the other viewport's run left one).
      expect((await page.request.delete('/api/pay/drafts/consent')).status()).toBe(200);

      await page.goto('/form-document/Consent-form');
      const form = page.getByRole('form', { name: 'Client Consent Form' });
      await form.getByRole('radio', { name: 'Destroy any Tissue' }).check();
      await form.getByRole('radio', { name: 'Yes', exact: true }).check();
      await form.getByRole('textbox', { name: 'Medications you are taking' }).fill('Metformin 500 mg');
      await form.getByRole('button', { name: 'Next Page' }).click();
      await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();
      const saved = page.waitForResponse(
        (r) => r.url().endsWith('/api/pay/drafts/consent') && r.request().method() === 'PUT',
      );
      await form.getByRole('radio', { name: 'Adipose' }).check();
      expect((await saved).status()).toBe(200);
      await page.removeLocatorHandler(warning);

      // The warning: a dialog named by its title, its button focused, usable from the keyboard.
      await expect(warning).toBeVisible({ timeout: 25_000 });
      await expect(warning).toContainText('For your security, you will be signed out in about 15 seconds');
      const stay = warning.getByRole('button', { name: 'Stay signed in' });
      await expect(stay).toBeFocused();
      await expect(warning.getByRole('button', { name: 'Sign out' })).toBeVisible();
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/idle-warning-${viewport.width}.png` });
      const keptAlive = page.waitForResponse((r) => r.url().endsWith('/api/pay/keepalive'));
      await page.keyboard.press('Enter');
      expect((await keptAlive).status()).toBe(200);
      await expect(warning).toBeHidden();
      await expect(page).toHaveURL(/\/form-document\/Consent-form\?page=2$/);

      // Nobody answers the second warning: signed out at 30 seconds, told why.
      await expect(warning).toBeVisible({ timeout: 25_000 });
      await expect(page).toHaveURL(/\/$/, { timeout: 25_000 });
      await expect(
        page.getByText('You were signed out after 30 seconds without activity. Please sign in again.'),
      ).toBeVisible();
      expect((await page.request.get('/api/pay/get_Client')).status()).toBe(401);
      await expectAccessible(page);

      // Signing in again returns to the consent's page 2, with every answer as she left it.
      await answerWarnings();
      await signInAgain(page);
      await expect(page).toHaveURL(/\/form-document\/Consent-form\?page=2$/);
      await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();
      await expect(form.getByRole('radio', { name: 'Adipose' })).toBeChecked();
      await form.getByRole('button', { name: 'Previous Page' }).click();
      await expect(form.getByRole('radio', { name: 'Destroy any Tissue' })).toBeChecked();
      await expect(form.getByRole('radio', { name: 'Yes', exact: true })).toBeChecked();
      await expect(form.getByRole('textbox', { name: 'Medications you are taking' })).toHaveValue(
        'Metformin 500 mg',
      );
      await expectAccessible(page);
      await context.close();
    });
  }
});

async function signInAgain(page: Page) {
  await page.getByRole('textbox', { name: 'Client ID' }).fill('ACT10001');
  await page.getByRole('textbox', { name: 'Password' }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}
