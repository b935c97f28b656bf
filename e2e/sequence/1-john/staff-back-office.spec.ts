import { type Browser, expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { expectAccessible, expectNoSidewaysScroll } from '../../support/portal';
import { enterDemoAdminCode } from '../../support/staff';

// The demo admin of the README (its TOTP code: support/staff.ts; `npm run totp` prints it).
const ADMIN_EMAIL = 'staff@example.com';
const ADMIN_PASSWORD = 'DemoStaff#2026';

/** Checks a screen as it is: axe, then no sideways scroll on a 375 px phone, then back to wide. */
async function checkScreen(page: Page, name: string) {
  await expectAccessible(page);
  const wide = page.viewportSize();
  await page.screenshot({ path: `test-results/staff-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  // The shell's navigation slides away on a phone: measure once the layout has settled.
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/staff-${name}-375.png`, fullPage: true });
  if (wide) await page.setViewportSize(wide);
}

async function signInAsAdmin(page: Page) {
  await page.goto('/staff');
  await expect(page.getByRole('heading', { name: 'Staff Sign In' })).toBeVisible();
  await checkScreen(page, 'sign-in');
  await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  const codeBox = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(codeBox).toBeVisible();
  await checkScreen(page, 'second-factor');
  // The shared step bookkeeping: a code's time step is good once, for every journey.
  await enterDemoAdminCode(page);
  await expect(page.getByRole('banner').getByText('Back Office')).toBeVisible();
}

async function newMemberSignsIn(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/staff');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  // Created by an admin: their own password first (the client password rules), then enrolment.
  await page.getByRole('textbox', { name: /^New password/ }).fill(`${password}-own`);
  await page.getByRole('textbox', { name: /^Confirm new password/ }).fill(`${password}-own`);
  await page.getByRole('button', { name: 'Set password' }).click();
  const secret = page.getByTestId('totp-secret');
  await expect(secret).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code of the authenticator key' })).toBeVisible();
  await checkScreen(page, 'enrolment');
  const code = await generate({ secret: (await secret.textContent()) ?? '' });
  await page.getByRole('textbox', { name: 'Authentication code' }).fill(code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Recovery Codes' })).toBeVisible();
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await checkScreen(page, 'recovery-codes');
  const continueButton = page.getByRole('button', { name: 'Continue to the Back Office' });
  await expect(continueButton).toBeDisabled();
  await page.getByLabel('I have saved these codes').check();
  await continueButton.click();
  await expect(page).toHaveURL(/\/staff\/home$/);
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await context.close();
}

test.describe('back office', () => {
  test('the demo admin signs in with TOTP, finds John, downloads his document and sees the download in the audit trail; a new member enrols', async ({
    page,
    browser,
  }) => {
    await signInAsAdmin(page);
    await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
    await checkScreen(page, 'home');

    await page
      .getByRole('navigation', { name: 'Back office sections' })
      .getByRole('link', { name: 'Clients' })
      .click();
    await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
    await page.getByRole('textbox', { name: 'Client ID, name, email or date of birth' }).fill('John');
    await page.getByRole('button', { name: 'Search' }).click();
    const john = page.getByRole('link', { name: 'ACT10002' });
    await expect(john).toBeVisible();
    await checkScreen(page, 'clients');
    await john.click();

    await expect(page.getByRole('heading', { name: 'John Roe (ACT10002)', level: 1 })).toBeVisible();
    const document = page.getByRole('link', { name: /Lab report: John Roe lab report\.pdf/ });
    await expect(document).toBeVisible();
    // His two overdue years, as the server counts them, at the top of his record.
    await expect(page.getByTestId('overdue-alert')).toContainText(
      'Payment overdue$679.62 of annual storage is overdue.',
    );
    await expect(page.getByRole('row', { name: /^Storage paid until \d{2}\/\d{2}\/\d{4}$/ })).toBeVisible();
    await expect(page.getByRole('row', { name: 'Overdue amount $679.62' })).toBeVisible();
    await expect(
      page.getByRole('row', { name: /^\d{2}\/\d{2}\/\d{4} Dose Retrieval — \$1,000\.00$/ }),
    ).toBeVisible();
    await expect(page.locator('main')).not.toContainText(/\d{4}-\d{2}-\d{2}|\$\d{4}/);
    // A man of 58 is no newborn: no newborn finance agreement to send.
    await expect(page.getByRole('form', { name: 'Send newborn finance agreement' })).toHaveCount(0);
    await checkScreen(page, 'client');
    const [download] = await Promise.all([page.waitForEvent('download'), document.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);

    await page.reload();
    const trail = page.getByTestId('audit-trail');
    await expect(trail.getByRole('row').filter({ hasText: 'Downloaded a document' }).first()).toContainText(
      ADMIN_EMAIL,
    );
    await expect(
      trail.getByRole('row').filter({ hasText: "Read the client's record" }).first(),
    ).toContainText('staff');
    await expect(trail).not.toContainText('/api/');
    await expect(trail.getByRole('row').nth(1)).toContainText(/\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M ET/);

    // Mia Nguyen, three weeks old: her record offers the newborn finance agreement.
    await page.goto('/staff/clients/ACT10020');
    await expect(page.getByRole('heading', { name: 'Mia Nguyen (ACT10020)', level: 1 })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Send newborn finance agreement' })).toBeVisible();
    await expect(page.getByTestId('overdue-alert')).toHaveCount(0);

    // A member created on Staff Accounts: the one-time password has its copy button.
    await page.goto('/staff/admin/accounts');
    await page.getByRole('textbox', { name: 'Name' }).fill('Copy Tester');
    await page
      .getByRole('textbox', { name: 'Email' })
      .fill(`copy.tester.${Date.now().toString(36)}@example.com`);
    await page.getByRole('button', { name: 'Create account' }).click();
    const oneTime = page.getByTestId('initial-password');
    await expect(oneTime).toBeVisible();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy password' }).click();
    await expect(page.getByRole('button', { name: 'Password copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await oneTime.textContent());
    await checkScreen(page, 'account-created');

    // The admin creates an account (the API answers its initial password, once); the member enrols.
    // Base 36: a run of 13 digits from the clock can pass the Luhn check and be refused as a card number.
    const created = await page.request.post('/api/staff/create_staff', {
      data: {
        email: `new.member.${Date.now().toString(36)}@example.com`,
        name: 'New Member',
        level: 'staff',
      },
    });
    expect(created.status()).toBe(200);
    const { staff, initialPassword } = (await created.json()) as {
      staff: { email: string };
      initialPassword: string;
    };
    await newMemberSignsIn(browser, staff.email, initialPassword);
  });
});
