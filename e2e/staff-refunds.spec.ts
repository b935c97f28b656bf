/**
 * Refunds on the staff client record (issue 22): the demo admin opens Elena Marsh (ACT10012, seeded
 * for this journey with a card payment of $2,575.00 that settled ten days before the seed) and
 * refunds $125.00 of it with a reason: the button names the amount, the record shows it refunded.
 * A refund above the $500.00 approval limit waits for another admin (the asker cannot approve it)
 * and is withdrawn. Elena then finds the refund on her Client Activity with its receipt, and in her
 * e-mail with the receipt attached. Each run refunds anew and withdraws what it asked, so it runs
 * again on the same server.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { todayFor } from '../src/domain/client';
import { isoToUsDate } from '../src/domain/dates';
import { formatUsd } from '../src/domain/money';
import { pageText } from '../src/server/testing/pdf-reading';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

const ELENA = 'ACT10012';

/** What was refunded of Elena's payment before this run (a run before on the same server refunded too). */
async function refundedBefore(page: Page): Promise<{ paidOn: string; refundedCents: number }> {
  const answer = await page.request.get(`/api/staff/clients/${ELENA}/payments`);
  expect(answer.ok(), await answer.text()).toBe(true);
  const { payments } = (await answer.json()) as {
    payments: Array<{ totalCents: number; paidOn: string; refundedCents: number }>;
  };
  const payment = payments.find((p) => p.totalCents === 257_500);
  if (!payment) throw new Error('Elena has no payment of $2,575.00: the demo data is not seeded');
  return { paidOn: isoToUsDate(payment.paidOn), refundedCents: payment.refundedCents };
}

/** What a payment's card says under a term (Refunded, Awaiting approval, Left to refund). */
const fact = (payment: Locator, term: string) =>
  payment.locator(`xpath=.//dt[normalize-space()="${term}:"]/following-sibling::dd[1]`);

async function atBothWidths(page: Page, name: string, check: () => Promise<void>, part?: Locator) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await check();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    // From the top: scrolled, a full-page shot draws the fixed header over the middle of the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/staff-refunds-${name}-${width}.png`, fullPage: true });
    if (part) await part.screenshot({ path: `test-results/staff-refunds-${name}-part-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the admin refunds part of a payment on the record, and the client finds it on Client Activity with its receipt', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const since = Date.now();
  await signInAsDemoAdmin(page);
  await page.goto(`/staff/clients/${ELENA}`);
  await expect(page.getByRole('heading', { name: `Elena Marsh (${ELENA})`, level: 1 })).toBeVisible();
  const { paidOn, refundedCents } = await refundedBefore(page);
  const payments = page.getByRole('list', { name: 'Payments' });
  const payment = payments.getByRole('listitem').filter({
    hasText: `$2,575.00 paid on ${paidOn} with Visa ending in 4242 (Initial sample processing).`,
  });
  await expect(payment).toHaveCount(1);
  await expect(
    page.getByText('A refund above $500.00 is sent once an admin other than the one who asked approves it.'),
  ).toBeVisible();

  // The form: what is refunded of which payment, the refund messages on the fields, the amount on the button.
  const openForm = async () => {
    await payment.getByRole('button', { name: `Refund the payment of $2,575.00 paid on ${paidOn}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund a payment' });
    await expect(dialog).toBeVisible();
    return dialog;
  };
  let dialog = await openForm();
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(dialog.getByText('Please enter the amount to refund')).toBeVisible();
  await expect(dialog.getByText('Please give a reason for the refund')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: /Amount to refund/ })).toBeFocused();
  await dialog.getByRole('textbox', { name: /Amount to refund/ }).fill('125.00');
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('Goodwill: the collection kit arrived late');
  await atBothWidths(page, 'form', async () => {
    await expect(dialog.getByRole('button', { name: 'Refund $125.00' })).toBeVisible();
  });
  await dialog.getByRole('button', { name: 'Refund $125.00' }).dblclick();
  await expect(page.getByRole('status').filter({ hasText: '$125.00 was refunded.' })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(fact(payment, 'Refunded')).toHaveText(formatUsd(refundedCents + 12_500));
  await expect(payment.getByText('$125.00: Refunded').first()).toBeVisible();

  // Above the approval limit: recorded, nothing sent, awaiting another admin; the asker withdraws it.
  dialog = await openForm();
  await dialog.getByRole('textbox', { name: /Amount to refund/ }).fill('600.00');
  await expect(dialog.getByText('Above $500.00: it is sent once another admin approves it.')).toBeVisible();
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('Second kit returned unused');
  await dialog.getByRole('button', { name: 'Refund $600.00' }).click();
  await expect(
    page.getByRole('status').filter({
      hasText: 'The refund of $600.00 is above $500.00: it is sent once another admin approves it.',
    }),
  ).toBeVisible();
  const waiting = payment.getByRole('listitem').filter({ hasText: '$600.00: Awaiting approval' });
  await expect(
    waiting.getByText('Awaits another admin: an admin other than you approves it before it is sent.'),
  ).toBeVisible();
  await expect(waiting.getByRole('button', { name: /Approve/ })).toHaveCount(0);
  await expect(fact(payment, 'Awaiting approval')).toHaveText('$600.00');
  await atBothWidths(
    page,
    'record',
    async () => {
      await expect(payments).toBeVisible();
    },
    payments,
  );
  await waiting.getByRole('button', { name: 'Withdraw the refund of $600.00' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The refund of $600.00 was declined: nothing was sent.' }),
  ).toBeVisible();
  await expect(fact(payment, 'Awaiting approval')).toHaveCount(0);

  // The client: the refund on Client Activity, its receipt, and the e-mail with the receipt attached.
  const context = await browser.newContext();
  const client = await context.newPage();
  await signIn(client, ELENA);
  await client.goto('/client-activity');
  await expect(client.getByRole('heading', { name: 'Client Activity', level: 1 })).toBeVisible();
  const today = isoToUsDate(todayFor(new Date()));
  const row = client
    .getByRole('table', { name: 'Client Activity' })
    .getByRole('row')
    .filter({ hasText: today })
    .filter({ hasText: 'Refund' })
    // Its own amount: e2e/staff-refund-approval.spec.ts refunds Elena too, and a day's rows are oldest first.
    .filter({ hasText: '$125.00' })
    .first();
  await expect(row.getByRole('cell').nth(4)).toHaveText('Refund');
  await expect(row.getByRole('cell').nth(5)).toHaveText('Initial sample processing');
  await expect(row.getByRole('cell').nth(6)).toHaveText('$125.00');
  await expect(row.getByRole('cell').nth(7)).toHaveText('Refunded');
  const download = client.waitForEvent('download');
  await row.getByRole('link', { name: `Download the receipt of $125.00 refunded on ${today}` }).click();
  const receipt = await readFile((await (await download).path()) as string);
  const text = pageText(await PDFDocument.load(receipt), 0);
  for (const words of [
    'Refund receipt',
    'Elena Marsh (Client ID ACT10012)',
    '$125.00',
    `$2,575.00 paid on ${paidOn}`,
    'Visa ending in 4242',
  ]) {
    expect(text).toContain(words);
  }
  expect(text).not.toContain('Goodwill');
  for (const width of [1280, 375]) {
    await client.setViewportSize({ width, height: 900 });
    await expect(
      client.getByRole(width === 375 ? 'list' : 'table', { name: 'Client Activity' }),
    ).toBeVisible();
    await expectAccessible(client);
    await expectNoSidewaysScroll(client);
    await client.screenshot({
      path: `test-results/staff-refunds-client-activity-${width}.png`,
      fullPage: true,
    });
  }

  const mail = await waitForMail('elena.marsh@example.com', /^Your refund$/, since);
  expect(mail.text).toContain('We refunded $125.00 of your payment of $2,575.00');
  expect(mail.text).toContain('to your Visa ending in 4242');
  expect(mail.attachments.map((a) => a.filename)).toEqual(['refund-receipt.pdf']);
  await context.close();
});
