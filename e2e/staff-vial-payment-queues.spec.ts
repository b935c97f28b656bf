import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

/**
 * The back office's work queues. Grace Park (ACT10007, seeded at start in demo mode for this
 * queue only; no other journey uses her) ordered one vial by ACT VIP: the demo admin confirms
 * its price (charged once to her Visa on file) and marks it shipped with a tracking number, and
 * Grace sees both on the request's timeline.
 */

const TRACKING = '7712 3456 7890';

async function checkScreen(page: Page, name: string) {
  await expectAccessible(page);
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  // The shell's navigation slides away on a phone: measure once the layout has settled.
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/staff-queues-${name}-375.png`, fullPage: true });
  if (wide) await page.setViewportSize(wide);
}

test('staff confirm a VIP price, record the approval and ship by courier; the client sees it on the timeline', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signInAsDemoAdmin(page);
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const vialCard = page.getByTestId('queue-vial-requests');
  await expect(vialCard).toContainText(/[1-9]\d* waiting/);
  await expect(page.getByTestId('queue-payments-in-doubt')).toContainText(/\d+ waiting/);
  await checkScreen(page, 'home');

  await vialCard.getByRole('link', { name: 'Vial Requests', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Vial Requests', level: 1, exact: true })).toBeVisible();
  // Her request is a row of the queue's table; its card, with the actions, opens under it.
  await page.getByRole('button', { name: /^Open Grace Park \(ACT10007\)/ }).click();
  const grace = page.getByRole('region', { name: /Grace Park \(ACT10007\)/ });
  await expect(grace).toBeVisible();
  await checkScreen(page, 'vial-requests');

  // A wrong price is refused next to its button; then $150.00 is confirmed with a double click.
  const confirm = grace.getByRole('button', { name: 'Confirm price and charge' });
  await grace.getByRole('textbox', { name: /ACT VIP price/ }).fill('abc');
  await confirm.click();
  await expect(grace.getByRole('alert')).toHaveText('Enter the price in dollars, e.g. 150.00');
  await grace.getByRole('textbox', { name: /ACT VIP price/ }).fill('150');
  // The button names what will be charged: $150.00 and the 3% card fee.
  await expect(confirm).toHaveText('Confirm price and charge $154.50');
  await confirm.dblclick();
  await expect(grace.getByRole('status')).toHaveText('The ACT VIP price was confirmed and charged.');
  await expect(grace.getByRole('row', { name: /ACT VIP price/ })).toContainText('$150.00, confirmed');
  await expect(confirm).toHaveCount(0);

  // Nothing ships before the practitioner's approval: refused, then recorded and shipped by the courier.
  await grace.getByRole('textbox', { name: 'Courier' }).fill('MedCourier');
  await grace.getByRole('textbox', { name: 'Reference' }).fill(TRACKING);
  await grace.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(grace.getByRole('alert')).toHaveText(
    'The practitioner has not approved this request yet: it cannot ship.',
  );
  await grace.getByRole('button', { name: 'Record practitioner approval' }).click();
  await expect(grace.getByRole('status')).toHaveText("The practitioner's approval was recorded.");
  await grace.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(grace.getByRole('status')).toHaveText('The request was marked shipped.');
  await expect(grace.getByRole('row', { name: /Shipped/ })).toContainText(
    `MedCourier, reference ${TRACKING}`,
  );
  await expect(grace.getByRole('button', { name: 'Mark delivered' })).toBeVisible();
  await checkScreen(page, 'vial-requests-shipped');

  // One charge for the double click: $150.00 plus the 3% card fee.
  const queue = await page.request.get('/api/staff/queues/vial-requests');
  const request = (
    (await queue.json()) as { requests: Array<{ id: string; clientActId: string; vipPriceCents: number }> }
  ).requests.find((r) => r.clientActId === 'ACT10007');
  expect(request?.vipPriceCents).toBe(15_000);

  await page.goto('/staff/home');
  await page
    .getByTestId('queue-payments-in-doubt')
    .getByRole('link', { name: 'Payments in Doubt', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Payments in Doubt', level: 1, exact: true })).toBeVisible();
  // Grace's errored attempt never reached the gateway: looked up, it is settled as failed.
  await page.getByRole('button', { name: /^Open \$515\.00 from Grace Park \(ACT10007\)/ }).click();
  const errored = page.getByRole('region', { name: /\$515\.00 from Grace Park \(ACT10007\)/ });
  await expect(errored).toBeVisible();
  await checkScreen(page, 'payments-in-doubt');
  await errored.getByRole('button', { name: 'Look up and settle' }).click();
  await expect(errored.getByRole('status')).toHaveText(
    'The gateway has no approved charge: it is settled as failed, nothing was charged.',
  );

  // Grace sees the confirmed price and the tracking number on her request's timeline.
  const context = await browser.newContext();
  const client = await context.newPage();
  await signIn(client, 'ACT10007');
  await client.goto(`/stem-cell-request/${request?.id}`);
  await expect(client.getByRole('row', { name: /^Shipped/ })).toContainText(
    `MedCourier, reference ${TRACKING}`,
  );
  await expect(client.getByRole('row', { name: /^ACT VIP price confirmed/ })).not.toContainText('Not yet');
  await expect(client.getByRole('row', { name: /^Shipping \$150\.00/ })).toBeVisible();
  await expectAccessible(client);
  await context.close();
});
