/**
 * A storage year paid by check (issue 21: "a check recorded by staff on the existing check queue
 * pays the year"). Dr. Alvarez registers a new client of this run whose sample comes with a check;
 * the demo admin records that check and the tissue's arrival (storage paid until the first
 * anniversary), then runs billing for this client only up to 20 days before it, so the year's
 * invoice goes (no method on file). On "Storage Years Paid by Check" the admin records the check
 * for the year; the client sees storage paid a year further, and has the receipt by e-mail.
 * Only this run's new client is touched (the run is limited to it: the demo's own billing day
 * does not move).
 */
import { expect, type Page, test } from '@playwright/test';
import { todayFor } from '../src/domain/client';
import { addDays, isoToUsDate } from '../src/domain/dates';
import { storageAnniversary } from '../src/domain/storage-year';
import { newClientByCheck, setPasswordFromWelcome, usDate } from './support/clients';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll, shownValue } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

const NEW_PASSWORD = 'Ledger pages in spring 2051';
const wide = { width: 1280, height: 900 };
const phone = { width: 375, height: 800 };
const slow = { timeout: 30_000 };
// Letters and digits: a long run of digits would read as a card number, which no field takes.
const run = Date.now().toString(36);

/** axe and no sideways scroll at 1280 and 375 px, with a screenshot of each to look at. */
async function checkScreen(page: Page, name: string) {
  for (const viewport of [wide, phone]) {
    await page.setViewportSize(viewport);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: `test-results/staff-storage-checks/${name}-${viewport.width}.png`,
      fullPage: true,
    });
  }
  await page.setViewportSize(wide);
}

/** The staff's answer to a call, checked. */
async function staffCall<T>(page: Page, method: 'GET' | 'POST', url: string, data?: object, key?: string) {
  const answer =
    method === 'GET'
      ? await page.request.get(url)
      : await page.request.post(url, { data, headers: key ? { 'idempotency-key': key } : {} });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as T;
}

test('staff record the check that pays a storage year, and the client sees storage paid a year further', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const since = Date.now();
  const person = { first: 'Nora', last: `Ledger${run}`, email: `nora.ledger.${run}@example.com` };
  const name = `${person.first} ${person.last}`;
  const clientId = await newClientByCheck(browser, person, run);
  const client = await setPasswordFromWelcome(browser, person.email, NEW_PASSWORD, since);

  // The sample's check and the tissue's arrival, as the other queues record them (their journeys show them).
  await signInAsDemoAdmin(page);
  const { samples } = await staffCall<{
    samples: Array<{ sampleId: string; clientActId: string; amountDueCents: number }>;
  }>(page, 'GET', '/api/staff/sample_checks');
  const sample = samples.find((s) => s.clientActId === clientId);
  if (!sample) throw new Error('the new sample is not waiting for its check');
  await staffCall(page, 'POST', '/api/staff/record_check', {
    sampleId: sample.sampleId,
    checkNumber: '20511',
    checkAmount: (sample.amountDueCents / 100).toFixed(2),
    checkDate: usDate(0),
  });
  await staffCall(page, 'POST', '/api/staff/receive_sample', {
    sampleId: sample.sampleId,
    receivedOn: usDate(0),
    vialsBanked: '6',
  });
  const banked = todayFor(new Date());
  const due = storageAnniversary(banked, 1);
  const paidUntilAfter = storageAnniversary(banked, 2);

  // Billing runs for this client only, up to 20 days before the anniversary: the invoice goes.
  const counts = await staffCall<{ notices: number }>(
    page,
    'POST',
    '/api/staff/billing/run',
    { asOf: addDays(due, -20), clients: [clientId] },
    `storage-checks-run-${run}`,
  );
  expect(counts.notices).toBe(1);
  const invoice = await waitForMail(person.email, /Your annual storage renews soon/, since);
  expect(invoice.text).toContain('No payment method is on file, so this notice is your invoice: $350.00');
  expect(invoice.text).toContain('Or pay by check.');

  // The queue: the year with its client, due date and amount.
  await page.goto('/staff/home');
  await page
    .getByRole('navigation', { name: 'Back office sections' })
    .getByRole('link', { name: 'Storage Checks' })
    .click();
  await expect(page.getByRole('heading', { name: 'Storage Years Paid by Check', level: 1 })).toBeVisible();
  // The year is a row of the queue's table; its card, with the check form, opens under it.
  await page.getByRole('button', { name: new RegExp(`^Open ${name}`) }).click();
  const year = page.getByRole('article', { name: new RegExp(name) });
  await expect(year).toContainText(clientId);
  await expect(year).toContainText(`Annual storage, storage year 1: due ${isoToUsDate(due)}`);
  await expect(year).toContainText('Amount due: $350.00');
  await expect(year).toContainText(
    `Storage paid until: ${isoToUsDate(due)}, then ${isoToUsDate(paidUntilAfter)}`,
  );

  // The check must be the year's $350.00 exactly.
  await year.getByRole('textbox', { name: 'Check number' }).fill('7301');
  await year.getByRole('textbox', { name: 'Check amount' }).fill('339.81');
  await year.getByRole('textbox', { name: 'Check date' }).fill(usDate(0));
  await year.getByRole('button', { name: 'Record check' }).click();
  await expect(year.getByText('The check must be for the amount due, $350.00.')).toBeVisible();
  await checkScreen(page, 'amount-refused');

  await year.getByRole('textbox', { name: 'Check amount' }).fill('350.00');
  await year.getByRole('button', { name: 'Record check' }).click();
  await expect(page.getByRole('status').filter({ hasText: clientId })).toContainText(
    `Check recorded. The storage year is paid and the client was e-mailed the receipt. Storage is paid until ${isoToUsDate(paidUntilAfter)}.`,
  );
  await expect(page.getByRole('article', { name: new RegExp(name) })).toHaveCount(0);
  await checkScreen(page, 'recorded');

  const receipt = await waitForMail(person.email, /Receipt: annual storage renewed/, since);
  expect(receipt.text).toContain(`We received check no. 7301 of $350.00, dated ${usDate(0)}`);
  expect(receipt.text).toContain(`Your storage is now paid until ${isoToUsDate(paidUntilAfter)}.`);

  // The client: storage paid until the second anniversary.
  await client.goto('/client-information');
  for (const viewport of [wide, phone]) {
    await client.setViewportSize(viewport);
    await expect(shownValue(client, 'Annual Storage Paid Until')).toHaveText(
      isoToUsDate(paidUntilAfter),
      slow,
    );
    await expectNoSidewaysScroll(client);
    await client.screenshot({
      path: `test-results/staff-storage-checks/client-paid-until-${viewport.width}.png`,
      fullPage: true,
    });
  }
});
