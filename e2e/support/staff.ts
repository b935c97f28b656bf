import { expect, type Page } from '@playwright/test';
import { generate } from 'otplib';

/** The demo admin of the README. */
export const DEMO_ADMIN = {
  email: 'staff@example.com',
  password: 'DemoStaff#2026',
  totpSecret: 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD',
} as const;

/**
 * The demo admin signs in at /staff. Every staff journey signs in as the demo admin, a TOTP code is
 * good once, and the server takes the next 30-second step's code one step early: so an earlier
 * journey may have spent this step's code and the next one's. Each try reads the server's answer
 * (not a message left on the page by the try before); after the current and the next step's code
 * are both refused, the next step is waited for, and its next code is one nobody can have spent.
 */
export async function signInAsDemoAdmin(page: Page) {
  await page.goto('/staff');
  await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_ADMIN.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  const codeBox = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(codeBox).toBeVisible();
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt === 2) await page.waitForTimeout(30_000);
    const epoch = Math.floor(Date.now() / 1000) + (attempt % 2) * 30;
    await codeBox.fill(await generate({ secret: DEMO_ADMIN.totpSecret, epoch }));
    const [answer] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith('/api/staff/verify_totp') && r.request().method() === 'POST',
      ),
      page.getByRole('button', { name: 'Verify' }).click(),
    ]);
    if (answer.ok()) {
      await expect(page).toHaveURL(/\/staff\/home$/);
      return;
    }
  }
  throw new Error('the demo admin could not sign in');
}
