/**
 * The Billing page (storage renewals, issue 21): the demo admin runs billing ahead ("Run billing
 * as of…") for the demo clients Ivy Chen (ACT10009, paid until 20 days after the seed, a Visa
 * ending 4242 that pays) and Ben Ortiz (ACT10010, 25 days, the sandbox card ending 0341 that is
 * declined), sees Ben waiting for a retry and then overdue, and e-mails him a payment link; last,
 * waives Ben's overdue year with a reason and finds it waived on his billing schedule.
 *
 * The run moves the demo's billing cursor for good and bills every demo client. The e2e server is
 * fresh per `npm run test:e2e`; run again on the same server, the journey skips the first run (the
 * days are billed already) and checks what still holds: Ivy renewed, and Ben's year waived on his
 * schedule (no longer overdue, so neither his link nor the waiver again).
 */
import { expect, type Page, test } from '@playwright/test';
import { todayFor } from '../src/domain/client';
import { addDays, addYears, isoToUsDate } from '../src/domain/dates';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll, shownValue, signIn } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

test.describe.configure({ mode: 'serial' });

const today = todayFor(new Date());
const ivyDue = addDays(today, 20);
const benDue = addDays(today, 25);

async function lastRunDay(page: Page): Promise<string | null> {
  const answer = await page.request.get('/api/staff/billing');
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { lastRunDay: string | null }).lastRunDay;
}

/** Whether Ben's overdue year was waived already (the journey's last step, on a server run before). */
async function benWaived(page: Page): Promise<boolean> {
  const answer = await page.request.get('/api/staff/billing/clients/ACT10010');
  expect(answer.ok()).toBe(true);
  const { years } = (await answer.json()) as { years: Array<{ dueDate: string; status: string }> };
  return years.some((year) => year.dueDate === benDue && year.status === 'waived');
}

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const runLine = (page: Page) =>
  page.getByRole('status').filter({ hasText: /^(Ran \d+ days?|Nothing to run)/ });

async function runBillingTo(page: Page, asOf: string): Promise<string> {
  await page.getByRole('textbox', { name: 'Run billing as of' }).fill(isoToUsDate(asOf));
  await page.getByRole('button', { name: 'Run billing' }).click();
  await expect(runLine(page)).toBeVisible();
  return (await runLine(page).textContent()) ?? '';
}

async function checkWidths(page: Page, name: string, title: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    // Each section of the page is a table, its rows stacked on a phone; the client's billing
    // schedule is a table on a wide screen and a card per year on a phone. Either reads by its title.
    const phoneCards = width === 375 && title === 'Billing schedule';
    await expect(page.getByRole(phoneCards ? 'list' : 'table', { name: title, exact: true })).toBeVisible();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    // From the top: scrolled, a full-page shot draws the fixed header over the middle of the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/staff-billing-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the admin runs billing ahead: Ivy renewed, Ben retried then overdue and sent a payment link', async ({
  page,
}) => {
  await signInAsDemoAdmin(page);
  await page
    .getByRole('navigation', { name: 'Back office sections' })
    .getByRole('link', { name: 'Billing' })
    .click();
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByText(/^Billing day: \d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
  await expect(page.getByText(/^Last run: /)).toBeVisible();
  for (const title of [
    'Renewals due in the next 30 days',
    'Charged today',
    'Failed, waiting for a retry',
    'Overdue',
    'Recovered after a retry',
  ]) {
    await expect(page.getByRole('heading', { name: title, level: 2 })).toBeVisible();
  }

  // The server's limit, under the field; a date not after the last run is refused before sending.
  const asOfBox = page.getByRole('textbox', { name: 'Run billing as of' });
  await asOfBox.fill(isoToUsDate(addYears(today, 3)));
  await page.getByRole('button', { name: 'Run billing' }).click();
  await expect(page.getByText('The date can be at most two years ahead')).toBeVisible();
  await expect(asOfBox).toHaveAttribute('aria-invalid', 'true');

  const since = Date.now();
  const last = await lastRunDay(page);
  if (!last || last < ivyDue) {
    // Past Ben's first decline (day 25), before his first retry (day 28).
    const runs: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/staff/billing/run'))
        runs.push(request.url());
    });
    await asOfBox.fill(isoToUsDate(addDays(today, 26)));
    await page.getByRole('button', { name: 'Run billing' }).dblclick();
    await expect(runLine(page)).toBeVisible();
    expect(runs).toHaveLength(1);
    const line = (await runLine(page).textContent()) ?? '';
    expect(line).toMatch(
      new RegExp(`^Ran \\d+ days \\(\\d{2}/\\d{2}/\\d{4} to ${isoToUsDate(addDays(today, 26))}\\): `),
    );
    expect(Number(/(\d+) charges?,/.exec(line)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/(\d+) declines?,/.exec(line)?.[1])).toBeGreaterThanOrEqual(1);
    await expect(page.getByText(`Billing day: ${isoToUsDate(addDays(today, 26))}`)).toBeVisible();
    await expect(page.getByText(`Last run: ${isoToUsDate(addDays(today, 26))}`)).toBeVisible();

    const ben = section(page, 'Failed, waiting for a retry')
      .getByRole('row')
      .filter({ hasText: 'Ben Ortiz' });
    await expect(ben).toContainText('$350.00');
    await expect(ben).toContainText(isoToUsDate(benDue));
    // Retried on day 3 after the charge day.
    await expect(ben).toContainText(isoToUsDate(addDays(benDue, 3)));
    await expect(ben).toContainText('Generic decline');
    await expect(ben.getByRole('link', { name: 'ACT10010' })).toHaveAttribute(
      'href',
      '/staff/clients/ACT10010',
    );

    const receipt = await waitForMail('ivy.chen@example.com', /Receipt: annual storage renewed/, since);
    expect(receipt.text).toContain('$350.00');
    const declined = await waitForMail(
      'ben.ortiz@example.com',
      /Your annual storage payment did not go through/,
      since,
    );
    expect(declined.text).toContain('$350.00');
    await checkWidths(page, 'retrying', 'Failed, waiting for a retry');
  }

  // On past the last retry (day 14 after the charge): Ben's year is overdue.
  const after = await lastRunDay(page);
  const asOf = after && after >= addDays(today, 40) ? addDays(after, 1) : addDays(today, 40);
  expect(await runBillingTo(page, asOf)).toMatch(/^Ran \d+ days? /);
  await expect(page.getByText(`Last run: ${isoToUsDate(asOf)}`)).toBeVisible();
  await asOfBox.fill(isoToUsDate(asOf));
  await page.getByRole('button', { name: 'Run billing' }).click();
  await expect(page.getByText('The date must be after the last billing run')).toBeVisible();

  await expect(section(page, 'Failed, waiting for a retry').getByText('Ben Ortiz')).toHaveCount(0);
  if (await benWaived(page)) return;
  const overdue = section(page, 'Overdue').getByRole('row').filter({ hasText: 'Ben Ortiz' });
  await expect(overdue).toContainText('$350.00');
  await expect(overdue).toContainText(isoToUsDate(benDue));

  const linkSince = Date.now();
  await overdue.getByRole('button', { name: 'Send payment link' }).click();
  await expect(overdue.getByRole('status')).toHaveText(
    'The payment link was sent by e-mail. Sent to b***@example.com.',
  );
  const link = await waitForMail('ben.ortiz@example.com', /Update your payment information/, linkSince);
  expect(link.text).toMatch(/\/updatepaymentinformation\?t=[\w.-]+/);
  await checkWidths(page, 'overdue', 'Overdue');

  // The link opens Ben's bill: his year at the $350.00 its notice fixed, by card with no fee row
  // (the card-or-check amount carries none), $339.81 by bank account. Nothing is paid here.
  const address = /https?:\/\/\S+\/updatepaymentinformation\?t=[\w.-]+/.exec(link.text)?.[0] ?? '';
  const bill = await page.context().browser()?.newPage();
  if (!bill) throw new Error('no browser for the link');
  await bill.goto(address);
  const due = bill.getByRole('group', { name: 'Amount Due' });
  await expect(due).toContainText(`Annual storage due ${isoToUsDate(benDue)}$350.00`);
  await expect(bill.getByRole('radio', { name: 'Credit Card' })).toBeChecked();
  await expect(due).toContainText('Total charged when you save$350.00');
  await expect(due.getByText(/processing fee/)).toHaveCount(0);
  await expect(bill.getByRole('button', { name: 'Pay $350.00 and save card' })).toBeVisible();
  await bill.getByRole('radio', { name: 'ACH Payment' }).check();
  await expect(due).toContainText('Total charged when you save$339.81');
  await expect(bill.getByRole('button', { name: 'Pay $339.81 and save bank account' })).toBeVisible();
  await bill.close();
});

test('Ivy sees her storage paid a year further, until her next anniversary', async ({ page }) => {
  await signIn(page, 'ACT10009');
  await expect(shownValue(page, 'Annual Storage Paid Until')).toHaveText(isoToUsDate(addYears(ivyDue, 1)));
});

/** The modal over the page, as the screen shows it (the viewport: the modal stays where it is). */
async function checkModal(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole('dialog', { name: 'Waive or defer' })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/staff-billing-${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the admin waives Ben's overdue year with a reason, and his billing schedule shows it waived", async ({
  page,
}) => {
  await signInAsDemoAdmin(page);
  if (!(await benWaived(page))) {
    await page
      .getByRole('navigation', { name: 'Back office sections' })
      .getByRole('link', { name: 'Billing' })
      .click();
    const overdue = section(page, 'Overdue').getByRole('row').filter({ hasText: 'Ben Ortiz' });
    await overdue.getByRole('button', { name: 'Waive or defer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Waive or defer' });
    await expect(dialog).toContainText(`Ben Ortiz (ACT10010), storage year`);
    await expect(dialog).toContainText(`$350.00 due ${isoToUsDate(benDue)}.`);
    await expect(dialog.getByRole('radio', { name: 'Waive this year' })).toBeChecked();
    // No reason: the server's message under the field.
    await dialog.getByRole('button', { name: 'Waive year' }).click();
    const reason = dialog.getByRole('textbox', { name: 'Reason' });
    await expect(dialog.getByText('Please give a reason')).toBeVisible();
    await expect(reason).toHaveAttribute('aria-invalid', 'true');
    await expect(reason).toBeFocused();
    await checkModal(page, 'waive');
    // A date to defer to, shown only for a deferral; the server's limit under it.
    await dialog.getByRole('radio', { name: 'Defer the charge to' }).check();
    const chargeOn = dialog.getByRole('textbox', { name: 'Charge on' });
    await chargeOn.fill(isoToUsDate(addYears(today, 3)));
    await reason.fill('Asked to pay after surgery');
    await dialog.getByRole('button', { name: 'Defer charge' }).click();
    await expect(
      dialog.getByText('Please enter a date after today and at most two years ahead'),
    ).toBeVisible();
    await expect(chargeOn).toHaveAttribute('aria-invalid', 'true');
    await checkModal(page, 'defer');
    // Escape closes it and changes nothing.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(overdue).toBeVisible();

    await overdue.getByRole('button', { name: 'Waive or defer' }).click();
    await expect(dialog.getByRole('radio', { name: 'Waive this year' })).toBeChecked();
    await expect(dialog.getByRole('textbox', { name: 'Charge on' })).toHaveCount(0);
    await reason.fill('Goodwill after a hospital stay');
    await dialog.getByRole('button', { name: 'Waive year' }).click();
    await expect(dialog).toBeHidden();
    // Ben's row (and its button) is gone: focus goes to the answer, at the top of the page.
    const waived = page.getByRole('status').filter({ hasText: 'The year was waived.' });
    await expect(waived).toBeVisible();
    await expect(waived).toBeFocused();
    await expect(section(page, 'Overdue').getByText('Ben Ortiz')).toHaveCount(0);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/staff-billing-waived-1280.png' });
  }

  await page.goto('/staff/clients/ACT10010');
  await expect(page.getByRole('heading', { name: 'Billing schedule', level: 2 })).toBeVisible();
  const year = page
    .getByRole('table', { name: 'Billing schedule' })
    .getByRole('row')
    .filter({ hasText: isoToUsDate(benDue) });
  await expect(year.getByRole('cell', { name: 'Waived', exact: true })).toBeVisible();
  await expect(year).toContainText('$350.00');
  await expect(year).toContainText('Waived: Goodwill after a hospital stay');
  await page.getByRole('heading', { name: 'Billing schedule', level: 2 }).scrollIntoViewIfNeeded();
  await checkWidths(page, 'schedule', 'Billing schedule');
});
