/**
 * A refund above the approval limit, approved by a second admin (issue 22). The demo admin creates
 * a second admin on Staff Accounts, who sets their own password and enrols an authenticator in a
 * browser of their own. The demo admin asks to refund $500.01 of Hannah Brooks's card payment of
 * $2,575.00 (ACT10015, seeded for this journey alone with that payment settled: a payment made
 * during a run would not settle before the sandbox's 4:00 PM Pacific batch, and a charge not
 * settled is only voided whole), one cent above the $500.00 limit: it awaits another admin, and the
 * asker has no Approve button. The second admin opens the same record, approves it, and it is
 * refunded; its receipt is on the record, and Hannah finds it on Client Activity and in her e-mail.
 * The second admin is disabled at the end.
 *
 * Each run takes $500.01 of what is left of Hannah's payment, the smallest refund that needs
 * approval, checked to be there first; nothing is left awaiting approval. So it runs again on the
 * same server (four times in all).
 */
import { readFile } from 'node:fs/promises';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { PDFDocument } from 'pdf-lib';
import { todayFor } from '../src/domain/client';
import { isoToUsDate } from '../src/domain/dates';
import { formatUsd } from '../src/domain/money';
import { pageText } from '../src/server/testing/pdf-reading';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

const HANNAH = 'ACT10015';
/** One cent above the $500.00 approval limit. */
const REFUND_CENTS = 50_001;
const AMOUNT = '$500.01';

/** Hannah's payment of $2,575.00 as the staff record's API has it before this run. */
async function hannahsPayment(page: Page) {
  const answer = await page.request.get(`/api/staff/clients/${HANNAH}/payments`);
  expect(answer.ok(), await answer.text()).toBe(true);
  const { payments } = (await answer.json()) as {
    payments: Array<{ totalCents: number; paidOn: string; refundedCents: number; leftCents: number }>;
  };
  const payment = payments.find((p) => p.totalCents === 257_500);
  if (!payment) throw new Error('Hannah has no payment of $2,575.00: the demo data is not seeded');
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

test('a refund above the limit asked by one admin is approved by another; its receipt is on the record, and the client finds it on Client Activity', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const since = Date.now();

  await signInAsDemoAdmin(page);
  const before = await hannahsPayment(page);
  if (before.leftCents < REFUND_CENTS) {
    throw new Error(
      `Only ${formatUsd(before.leftCents)} is left to refund of Hannah's payment: restart the demo server`,
    );
  }
  const secondAdmin = await createSecondAdmin(page);

  // The demo admin asks: one cent above the limit, it waits for another admin.
  await page.goto(`/staff/clients/${HANNAH}`);
  await expect(page.getByRole('heading', { name: `Hannah Brooks (${HANNAH})`, level: 1 })).toBeVisible();
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
  await other.goto(`/staff/clients/${HANNAH}`);
  await expect(other.getByRole('heading', { name: `Hannah Brooks (${HANNAH})`, level: 1 })).toBeVisible();
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

  // The receipt the client has, on the record: the staff route reads it.
  const receiptLinks = otherPayment.getByRole('link', { name: 'Download the receipt of $500.01 refunded' });
  await expect(receiptLinks).toHaveCount(refundedBefore + 1);
  const download = other.waitForEvent('download');
  await receiptLinks.last().click();
  const receipt = await download;
  expect(receipt.url()).toMatch(/\/api\/staff\/receipts\/[0-9a-f-]{36}$/);
  const text = pageText(await PDFDocument.load(await readFile((await receipt.path()) as string)), 0);
  for (const words of [
    'Refund receipt',
    `Hannah Brooks (Client ID ${HANNAH})`,
    '$500.01',
    `$2,575.00 paid on ${before.paidOn}`,
    'Visa ending in 4242',
  ]) {
    expect(text).toContain(words);
  }
  expect(text).not.toContain('Processing kit charged twice');

  // The asker sees it refunded too.
  await page.reload();
  await expect(fact(payment, 'Refunded')).toHaveText(formatUsd(before.refundedCents + REFUND_CENTS));
  await expect(refundedLines).toHaveCount(refundedBefore + 1);
  await expect(fact(payment, 'Awaiting approval')).toHaveCount(0);

  // Hannah: the refund on her Client Activity, and the e-mail.
  const hannahContext = await browser.newContext();
  const hannah = await hannahContext.newPage();
  await signIn(hannah, HANNAH);
  await hannah.goto('/client-activity');
  await expect(hannah.getByRole('heading', { name: 'Client Activity', level: 1 })).toBeVisible();
  const today = isoToUsDate(todayFor(new Date()));
  const row = hannah
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
  const mail = await waitForMail('hannah.brooks@example.com', /^Your refund$/, since);
  expect(mail.text).toContain('We refunded $500.01 of your payment of $2,575.00');
  await hannahContext.close();

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
