/**
 * Cancelling a vial request (issue 22): Noah Patel (ACT10011, seeded for this journey: consent
 * signed, a Visa ending 4242 on file, one pre-paid Bio-Insurance vial) orders 3 vials, 1 of them
 * pre-paid, for delivery four weeks out, then cancels from the request's page well before the
 * cutoff: the page names what comes back before he confirms, the button names the refund, and
 * after it the request reads cancelled, the vial is back and Client Activity shows the refund
 * with its receipt.
 * Each run orders anew, so it runs again on the same server.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { todayFor } from '../src/domain/client';
import { isoToUsDate } from '../src/domain/dates';
import { formatUsd } from '../src/domain/money';
import { pageText } from '../src/server/testing/pdf-reading';
import { waitForMail } from './support/mail';
import { orderVials } from './support/orders';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';

const NOAH = 'ACT10011';

test('a client cancels a request before the cutoff: everything refunded, the pre-paid vial back, the refund on Client Activity with its receipt', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const since = Date.now();
  await signIn(page, NOAH);
  const { id, totalCents } = await orderVials(page, { NumberOfVials: 3, CPP: 'Yes' });
  const total = formatUsd(totalCents);

  await page.goto(`/stem-cell-request/${id}`);
  const card = page
    .getByRole('heading', { name: 'Cancel this request' })
    .locator('xpath=ancestor::div[contains(@class,"mantine-Card-root")]');
  await expect(page.getByRole('heading', { name: 'Cancel this request' })).toBeVisible();
  await expect(card).toContainText(
    /Cancel by 2:00 PM Eastern on \d{2}\/\d{2}\/\d{4} and everything you paid is refunded\./,
  );
  await expect(card).toContainText(`${total} is refunded to the account you paid with.`);
  await expect(card).toContainText('Your 1 pre-paid vial is given back to your plan.');
  await expectAccessible(page);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/cancel-request-before-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Asked once more, with the amount on the button; "Keep the request" backs out.
  await card.getByRole('button', { name: 'Cancel this request' }).click();
  await expect(card.getByText('Cancel this request? This cannot be undone.')).toBeVisible();
  await card.getByRole('button', { name: 'Keep the request' }).click();
  await expect(card.getByRole('button', { name: `Cancel and refund ${total}` })).toHaveCount(0);
  await card.getByRole('button', { name: 'Cancel this request' }).click();
  await card.getByRole('button', { name: `Cancel and refund ${total}` }).dblclick();

  const done = page.getByRole('status').filter({ hasText: /^Cancelled on/ });
  await expect(done).toBeVisible();
  await expect(done).toContainText(`${total} was refunded to the account you paid with.`);
  await expect(done).toContainText('1 pre-paid vial given back to your plan.');
  await expect(page.getByRole('row', { name: /^Cancelled \d{2}\/\d{2}\/\d{4}$/ })).toBeVisible();
  await expectAccessible(page);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/cancel-request-after-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // A reload reads the same from the server.
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: /^Cancelled on/ })).toBeVisible();

  const mail = await waitForMail('noah.patel@example.com', /^Your stem cell request is cancelled$/, since);
  expect(mail.text).toContain(`${total} is refunded to the account you paid with.`);

  await done.getByRole('link', { name: 'See it on Client Activity' }).click();
  await expect(page.getByRole('heading', { name: 'Client Activity', level: 1 })).toBeVisible();
  // The refund's row, with its receipt: the whole amount, cancelled before it settled.
  const today = isoToUsDate(todayFor(new Date()));
  const row = page
    .getByRole('table', { name: 'Client Activity' })
    .getByRole('row')
    .filter({ hasText: 'Refund' })
    .filter({ hasText: total })
    .first();
  await expect(row.getByRole('cell').nth(7)).toHaveText('Voided');
  const download = page.waitForEvent('download');
  await row.getByRole('link', { name: `Download the receipt of ${total} refunded on ${today}` }).click();
  const receipt = await readFile((await (await download).path()) as string);
  const text = pageText(await PDFDocument.load(receipt), 0);
  for (const words of [
    'Void receipt',
    'Noah Patel (Client ID ACT10011)',
    `Amount voided\n${total}`,
    'Vial request cancelled before the deadline: everything refunded',
  ])
    expect(text).toContain(words);
});
