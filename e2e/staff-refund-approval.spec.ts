/**
 * A refund above the approval limit, approved by a second admin (issue 22). The demo admin creates
 * a second admin on Staff Accounts, who sets their own password and enrols an authenticator in a
 * browser of their own. The demo admin asks to refund $500.01 of Elena Marsh's card payment of
 * $2,575.00 (ACT10012, seeded settled: a payment made during a run would not settle before the
 * sandbox's 4:00 PM Pacific batch, and a charge not settled is only voided whole), one cent above
 * the $500.00 limit: it awaits another admin, and the asker has no Approve button. The second admin
 * opens the same record, approves it, and it is refunded; Elena finds it on Client Activity and in
 * her e-mail. The second admin is disabled at the end.
 *
 * Elena is shared with e2e/staff-refunds.spec.ts: each run of this journey takes $500.01 of what is
 * left, the smallest refund that needs approval, checked to be there first; nothing is left
 * awaiting approval. So it runs again on the same server, before or after that journey.
 */
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { todayFor } from '../src/domain/client';
import { isoToUsDate } from '../src/domain/dates';
import { formatUsd } from '../src/domain/money';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

const ELENA = 'ACT10012';
/** One cent above the $500.00 approval limit. */
const REFUND_CENTS = 50_001;
const AMOUNT = '$500.01';

/** Elena's payment of $2,575.00 as the staff record's API has it before this run. */
async function elenasPayment(page: Page) {
  const answer = await page.request.get(`/api/staff/clients/${ELENA}/payments`);
  expect(answer.ok(), await answer.text()).toBe(true);
  const { payments } = (await answer.json()) as {
    payments: Array<{ totalCents: number; paidOn: string; refundedCents: number; leftCents: number }>;
  };
  const payment = payments.find((p) => p.totalCents === 257_500);
  if (!payment) throw new Error('Elena has no payment of $2,575.00: the demo data is not seeded');
  return { ...payment, paidOn: isoToUsDate(payment.paidOn) };
}

/** What a payment's card says under a term (Refunded, Awaiting approval, Left to refund). */
const fact = (payment: Locator, term: string) =>
  payment.locator(`xpath=.//dt[normalize-space()="${term}:"]/following-sibling::dd[1]`);

/** The demo admin creates an admin account on Staff Accounts: its e-mail and initial password. */
async function createSecondAdmin(page: Page) {
  await page
    .getByRole('navigation', { name: 'Back office sections' })
    .getByRole('link', { name: 'Staff Accounts' })
    .click();
  await expect(page.getByRole('heading', { name: 'Staff Accounts', level: 1 })).toBeVisible();
  // Base 36: a run of 13 digits from the clock can pass the Luhn check and be refused as a card number.
  const email = `second.admin.${Date.now().toString(36)}@example.com`;
  await page.getByRole('textbox', { name: 'Name' }).fill('Second Admin');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('combobox', { name: 'Level' }).click();
  await page.getByRole('option', { name: 'Admin', exact: true }).click();
  await page.getByRole('button', { name: 'Create account' }).click();
  const initialPassword = (await page.getByTestId('initial-password').textContent()) ?? '';
  expect(initialPassword.length).toBeGreaterThan(15);
  await expect(page.getByTestId('staff-accounts').getByRole('row').filter({ hasText: email })).toContainText(
    'admin',
  );
  return { email, initialPassword };
}

/** The new admin's first sign-in, in a browser of their own: own password, authenticator, recovery codes. */
async function secondAdminSignsIn(browser: Browser, account: { email: string; initialPassword: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/staff');
  await page.getByRole('textbox', { name: 'Email' }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(account.initialPassword);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: /^New password/ }).fill('Second admin passphrase 2026');
  await page.getByRole('textbox', { name: /^Confirm new password/ }).fill('Second admin passphrase 2026');
  await page.getByRole('button', { name: 'Set password' }).click();
  const secret = page.getByTestId('totp-secret');
  await expect(secret).toBeVisible();
  await page
    .getByRole('textbox', { name: 'Authentication code' })
    .fill(await generate({ secret: (await secret.textContent()) ?? '' }));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByLabel('I have saved these codes').check();
  await page.getByRole('button', { name: 'Continue to the Back Office' }).click();
  await expect(page).toHaveURL(/\/staff\/home$/);
  return { context, page };
}

test('a refund above the limit asked by one admin is approved by another, and the client finds it on Client Activity', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const since = Date.now();

  await signInAsDemoAdmin(page);
  const before = await elenasPayment(page);
  if (before.leftCents < REFUND_CENTS) {
    throw new Error(
      `Only ${formatUsd(before.leftCents)} is left to refund of Elena's payment: restart the demo server`,
    );
  }
  const secondAdmin = await createSecondAdmin(page);

  // The demo admin asks: one cent above the limit, it waits for another admin.
  await page.goto(`/staff/clients/${ELENA}`);
  await expect(page.getByRole('heading', { name: `Elena Marsh (${ELENA})`, level: 1 })).toBeVisible();
  const paymentOf = (on: Page) =>
    on
      .getByRole('list', { name: 'Payments' })
      .getByRole('listitem')
      .filter({
        hasText: `$2,575.00 paid on ${before.paidOn} with Visa ending in 4242 (Initial sample processing).`,
      });
  const payment = paymentOf(page);
  await expect(payment).toHaveCount(1);
  await expect(
    page.getByText('A refund above $500.00 is sent once an admin other than the one who asked approves it.'),
  ).toBeVisible();
  await payment
    .getByRole('button', { name: `Refund the payment of $2,575.00 paid on ${before.paidOn}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Refund a payment' });
  await dialog.getByRole('textbox', { name: /Amount to refund/ }).fill('500.01');
  await expect(dialog.getByText('Above $500.00: it is sent once another admin approves it.')).toBeVisible();
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('Processing kit charged twice');
  await dialog.getByRole('button', { name: 'Refund $500.01' }).click();
  await expect(
    page.getByRole('status').filter({
      hasText: 'The refund of $500.01 is above $500.00: it is sent once another admin approves it.',
    }),
  ).toBeVisible();
  const waitingFor = (on: Locator) =>
    on.getByRole('listitem').filter({ hasText: '$500.01: Awaiting approval' });
  await expect(waitingFor(payment)).toHaveCount(1);
  await expect(
    waitingFor(payment).getByText(
      'Awaits another admin: an admin other than you approves it before it is sent.',
    ),
  ).toBeVisible();
  await expect(waitingFor(payment).getByRole('button', { name: /Approve/ })).toHaveCount(0);
  await expect(fact(payment, 'Awaiting approval')).toHaveText(AMOUNT);
  await expect(fact(payment, 'Refunded')).toHaveText(formatUsd(before.refundedCents));
  const refundedLines = payment.getByRole('listitem').filter({ hasText: '$500.01: Refunded' });
  const refundedBefore = await refundedLines.count();

  // The second admin, in their own browser, finds it on the same record and approves it.
  const second = await secondAdminSignsIn(browser, secondAdmin);
  const other = second.page;
  await other.goto(`/staff/clients/${ELENA}`);
  await expect(other.getByRole('heading', { name: `Elena Marsh (${ELENA})`, level: 1 })).toBeVisible();
  const otherPayment = paymentOf(other);
  const waiting = waitingFor(otherPayment);
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText('asked by Demo Admin. Reason: Processing kit charged twice');
  await expect(fact(otherPayment, 'Awaiting approval')).toHaveText(AMOUNT);
  const approve = waiting.getByRole('button', { name: 'Approve and refund $500.01' });
  for (const width of [1280, 375]) {
    await other.setViewportSize({ width, height: 900 });
    await expect(approve).toBeVisible();
    await expect(waiting.getByRole('button', { name: 'Decline the refund of $500.01' })).toBeVisible();
    await expectAccessible(other);
    await expectNoSidewaysScroll(other);
    // From the top: scrolled, a full-page shot draws the fixed header over the middle of the page.
    await other.evaluate(() => window.scrollTo(0, 0));
    await other.screenshot({ path: `test-results/staff-refund-approval-${width}.png`, fullPage: true });
    await otherPayment.screenshot({ path: `test-results/staff-refund-approval-payment-${width}.png` });
  }
  await other.setViewportSize({ width: 1280, height: 900 });
  await approve.dblclick();
  await expect(other.getByRole('status').filter({ hasText: '$500.01 was refunded.' })).toBeVisible();
  await expect(waiting).toHaveCount(0);
  await expect(fact(otherPayment, 'Awaiting approval')).toHaveCount(0);
  await expect(fact(otherPayment, 'Refunded')).toHaveText(formatUsd(before.refundedCents + REFUND_CENTS));
  await expect(otherPayment.getByRole('listitem').filter({ hasText: '$500.01: Refunded' })).toHaveCount(
    refundedBefore + 1,
  );

  // The asker sees it refunded too.
  await page.reload();
  await expect(fact(payment, 'Refunded')).toHaveText(formatUsd(before.refundedCents + REFUND_CENTS));
  await expect(refundedLines).toHaveCount(refundedBefore + 1);
  await expect(fact(payment, 'Awaiting approval')).toHaveCount(0);

  // Elena: the refund on her Client Activity, and the e-mail.
  const elenaContext = await browser.newContext();
  const elena = await elenaContext.newPage();
  await signIn(elena, ELENA);
  await elena.goto('/client-activity');
  await expect(elena.getByRole('heading', { name: 'Client Activity', level: 1 })).toBeVisible();
  const today = isoToUsDate(todayFor(new Date()));
  const row = elena
    .getByRole('table', { name: 'Client Activity' })
    .getByRole('row')
    .filter({ hasText: today })
    .filter({ hasText: 'Refund' })
    .filter({ hasText: AMOUNT })
    .first();
  await expect(row.getByRole('cell').nth(4)).toHaveText('Refund');
  await expect(row.getByRole('cell').nth(5)).toHaveText('Initial sample processing');
  await expect(row.getByRole('cell').nth(6)).toHaveText(AMOUNT);
  await expect(row.getByRole('cell').nth(7)).toHaveText('Refunded');
  await expect(
    row.getByRole('link', { name: `Download the receipt of ${AMOUNT} refunded on ${today}` }),
  ).toBeVisible();
  const mail = await waitForMail('elena.marsh@example.com', /^Your refund$/, since);
  expect(mail.text).toContain('We refunded $500.01 of your payment of $2,575.00');
  await elenaContext.close();

  // The second admin was for this run only: disabled, their session ends.
  await page.goto('/staff/admin/accounts');
  await page.getByRole('button', { name: `Disable ${secondAdmin.email}` }).click();
  await expect(
    page.getByTestId('staff-accounts').getByRole('row').filter({ hasText: secondAdmin.email }),
  ).toContainText('Disabled');
  await other.reload();
  await expect(other.getByRole('heading', { name: 'Staff Sign In' })).toBeVisible();
  await second.context.close();
});
