/**
 * Taking back a storage plan's unused part (issue 22). Dr. Alvarez registers a new client of this
 * run, who sets a password and orders the 5 Year Storage Plan with Bio-Insurance 25 vials by check
 * ($11,575.00); the demo admin records the check, then opens the client's record, sees what a
 * take-back gives to the cent (the first storage year began today: 4 years and the 25 vials,
 * $11,260.00), gives a reason and confirms. The client is told a check is on its way. Only this
 * run's new client is touched.
 */
import { expect, type Page, test } from '@playwright/test';
import { newClientByCheck, setPasswordFromWelcome, usDate } from './support/clients';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

// Letters and digits: a long run of digits would read as a card number, which no field takes.
const run = Date.now().toString(36);
const PLANS = '5 Year Storage Plan + Bio-Insurance 250 (250,000,000 cells, 25 Vials)';

const sameOrigin = (page: Page) => ({ origin: new URL(page.url()).origin, 'x-portal-client': 'web' });

async function atBothWidths(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/staff-plan-refund-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the admin takes back the unused part of a plan paid by check, seeing the refund to the cent first', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const since = Date.now();
  const person = { first: 'Ines', last: `Plan${run}`, email: `ines.plan.${run}@example.com` };
  const clientId = await newClientByCheck(browser, person, run);
  const client = await setPasswordFromWelcome(browser, person.email, 'Harbor lights at dusk 2049', since);
  const ordered = await client.request.post('/api/pay/send_StoragePlan', {
    headers: { ...sameOrigin(client), 'idempotency-key': `plan-refund-${run}` },
    data: {
      Source: 'Client Portal',
      Annual_Storage_Plan: '5 Year',
      Plan: 'Bio-Insurance Plan',
      Vials: 25,
      Tissue_Info: 'Adipose',
      PaymentMethod: 'Check',
      expectedTotalCents: 1_157_500,
    },
  });
  expect(ordered.ok(), await ordered.text()).toBe(true);
  const orderId = ((await ordered.json()) as { id: string }).id;
  await client.context().close();

  await signInAsDemoAdmin(page);
  const recorded = await page.request.post('/api/staff/record_plan_check', {
    headers: sameOrigin(page),
    data: { orderId, checkNumber: '5120', checkAmount: '11,575.00', checkDate: usDate(0) },
  });
  expect(recorded.ok(), await recorded.text()).toBe(true);

  await page.goto(`/staff/clients/${clientId}`);
  const plans = page.getByRole('list', { name: 'Plan orders' });
  const order = plans.getByRole('listitem').filter({ hasText: PLANS });
  await expect(order).toHaveCount(1);
  await order
    .getByRole('button', { name: `Refund unused part of ${PLANS}, ordered on ${usDate(0)}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Refund the unused part of a plan' });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByText(
      'Takes back 4 storage years and 25 Bio-Insurance vials and refunds those only. The client is e-mailed.',
    ),
  ).toBeVisible();
  await expect(dialog.getByText('$1,260.00', { exact: false })).toBeVisible();
  await expect(dialog.getByText('$10,000.00')).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Take back and refund $11,260.00' });
  await confirm.click();
  await expect(dialog.getByText('Please give a reason for the refund')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: /Reason/ })).toBeFocused();
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('The client moved abroad');
  await atBothWidths(page, 'form');
  await confirm.dblclick();
  await expect(
    page.getByRole('status').filter({
      hasText:
        'The unused part of the plan was taken back. It was paid by check: mail the client a check for $11,260.00.',
    }),
  ).toBeVisible();
  await expect(order).toContainText('4 storage years and 25 Bio-Insurance vials');
  await expect(order.getByRole('button', { name: /Refund unused/ })).toHaveCount(0);
  await atBothWidths(page, 'done');

  const told = await waitForMail(person.email, /Banking and Storage Plans refund/, since);
  expect(told.text).toContain('We will mail you a check for $11,260.00.');
});
