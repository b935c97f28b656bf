import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

async function checkPhone(page: Page, name: string) {
  await expectAccessible(page);
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/staff-links-${name}-375.png`, fullPage: true });
  if (wide) await page.setViewportSize(wide);
}

test('the admin e-mails John a payment link; the link opens the public payment page identified', async ({
  page,
  browser,
}) => {
  await signInAsDemoAdmin(page);
  await page.goto('/staff/clients/ACT10002');
  await expect(page.getByRole('heading', { name: 'John Roe (ACT10002)', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Payment link' })).toBeVisible();
  const since = Date.now();
  await page.getByRole('button', { name: 'Send by e-mail' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The payment link was sent by e-mail.' }),
  ).toBeVisible();
  await checkPhone(page, 'sent');

  const mail = await waitForMail('john.roe@example.com', /Update your payment information/, since);
  const link = mail.text.match(/https?:\/\/\S+\/updatepaymentinformation\?t=[\w.-]+/)?.[0];
  expect(link, mail.text).toBeTruthy();

  // John opens it in his own browser, signed in nowhere.
  const context = await browser.newContext();
  const johnPage = await context.newPage();
  await johnPage.goto(new URL(link as string).pathname + new URL(link as string).search);
  await expect(johnPage.getByText('Client Details Successfully Confirmed')).toBeVisible();
  await expect(johnPage.getByRole('button', { name: 'Confirm Client Details' })).toHaveCount(0);
  await context.close();
});

test('the admin creates a member, who must set their own password at first sign-in; the admin searches the audit trail', async ({
  page,
  browser,
}) => {
  await signInAsDemoAdmin(page);
  const menu = page.getByRole('navigation', { name: 'Back office sections' });
  await menu.getByRole('link', { name: 'Staff Accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Staff Accounts', level: 1 })).toBeVisible();
  const email = `new.member.${Date.now()}@example.com`;
  await page.getByRole('textbox', { name: 'Name' }).fill('New Member');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  const initial = (await page.getByTestId('initial-password').textContent()) ?? '';
  expect(initial.length).toBeGreaterThan(15);
  await expect(page.getByTestId('staff-accounts').getByRole('row').filter({ hasText: email })).toBeVisible();
  await checkPhone(page, 'accounts');

  const context = await browser.newContext();
  const member = await context.newPage();
  await member.goto('/staff');
  await member.getByRole('textbox', { name: 'Email' }).fill(email);
  await member.getByRole('textbox', { name: 'Password' }).fill(initial);
  await member.getByRole('button', { name: 'Continue' }).click();
  const newPassword = member.getByRole('textbox', { name: /^New password/ });
  await expect(newPassword).toBeVisible();
  await checkPhone(member, 'new-password');
  // Until the password is changed, nothing else answers.
  expect((await member.request.get('/api/staff/enrolment')).status()).toBe(404);
  await newPassword.fill(initial);
  await member.getByRole('textbox', { name: /^Confirm new password/ }).fill(initial);
  await member.getByRole('button', { name: 'Set password' }).click();
  await expect(member.getByText('Please choose a password other than the initial one.')).toBeVisible();
  await newPassword.fill('My own passphrase 2026');
  await member.getByRole('textbox', { name: /^Confirm new password/ }).fill('My own passphrase 2026');
  await member.getByRole('button', { name: 'Set password' }).click();
  const secret = member.getByTestId('totp-secret');
  await expect(secret).toBeVisible();
  await member
    .getByRole('textbox', { name: 'Authentication code' })
    .fill(await generate({ secret: (await secret.textContent()) ?? '' }));
  await member.getByRole('button', { name: 'Confirm' }).click();
  await member.getByLabel('I have saved these codes').check();
  await member.getByRole('button', { name: 'Continue to the Back Office' }).click();
  await expect(member).toHaveURL(/\/staff\/home$/);
  // A `staff`-level member: no admin menu items, and the admin pages do not exist for them.
  const memberMenu = member.getByRole('navigation', { name: 'Back office sections' });
  await expect(memberMenu.getByRole('link', { name: 'Clients' })).toBeVisible();
  await expect(memberMenu.getByRole('link', { name: 'Staff Accounts' })).toHaveCount(0);
  await expect(memberMenu.getByRole('link', { name: 'Audit Trail' })).toHaveCount(0);
  await member.goto('/staff/admin/accounts');
  await expect(member.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  expect((await member.request.get('/api/staff/staff')).status()).toBe(404);
  await context.close();

  await menu.getByRole('link', { name: 'Audit Trail' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Trail', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Actor' }).fill('staff@example.com');
  // Dates typed as every date of the back office (MM/DD/YYYY); one that is not a day is named.
  const from = page.getByRole('textbox', { name: 'From' });
  await from.fill('02/30/2026');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Please enter a valid date')).toBeVisible();
  await from.fill('01/01/2026');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(
    page
      .getByTestId('audit-search-results')
      .getByRole('row')
      .filter({ hasText: 'Changed a staff account' })
      .first(),
  ).toBeVisible();
  await checkPhone(page, 'audit');
});
