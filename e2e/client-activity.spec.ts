import { expect, test } from '@playwright/test';
import { signIn } from './support/portal';

test("Client Activity lists the spec columns with amounts and receipts, in the client's words", async ({
  page,
}) => {
  await signIn(page, 'ACT10002');
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Client Activity' })
    .click();
  await expect(page.getByRole('heading', { name: 'Client Activity', level: 1 })).toBeVisible();
  await expect(
    page.getByText(
      '3 weeks notice is required on Cell Request Orders if no cells are available for immediate use.',
    ),
  ).toBeVisible();

  const table = page.getByRole('table', { name: 'Client Activity' });
  await expect(table.getByRole('columnheader')).toHaveText([
    'Client ID',
    'Client Name',
    'Cell Vials Ordered',
    'Date',
    'Type',
    'Plan Purchased',
    'Amount',
    'Status',
    'Cell Request Approved By Practitioner',
    'Receipt',
  ]);

  const approved = table.getByRole('row').filter({ hasText: '08/29/2023' });
  await expect(approved.getByRole('cell').nth(4)).toHaveText('Dose Retrieval');
  await expect(approved.getByRole('cell').nth(6)).toHaveText('$1,000.00');
  await expect(approved.getByRole('cell').nth(7)).toHaveText('Shipped');
  await expect(approved.getByRole('img', { name: 'Approved' })).toBeVisible();

  const refused = table.getByRole('row').filter({ hasText: '05/18/2022' });
  await expect(refused.getByRole('img', { name: 'Not approved' })).toBeVisible();
  await expect(refused.getByRole('cell').nth(2)).toHaveText('3');

  const plan = table.getByRole('row').filter({ hasText: '5 Year Storage Plan' });
  await expect(plan.getByRole('cell').nth(4)).toHaveText('Storage Plan');
  await expect(plan.getByRole('cell').nth(2)).toHaveText('NA');
  await expect(plan.getByRole('cell').nth(7)).toHaveText('Paid');
  await expect(plan.getByRole('cell').nth(8)).toHaveText('NA');
  await expect(table.getByRole('cell', { name: /Fee/ })).toHaveCount(0);
  await expect(table.getByRole('cell', { name: 'Closed Won' })).toHaveCount(0);
  // One date format across the portal: MM/DD/YYYY.
  const bodyRows = await table.locator('tbody').getByRole('row').count();
  expect(bodyRows).toBeGreaterThan(3);
  await expect(table.getByRole('cell').filter({ hasText: /^\d{2}\/\d{2}\/\d{4}$/ })).toHaveCount(bodyRows);
});

test('on a phone, Client Activity is a card per row and nothing scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, 'ACT10002');
  await page.goto('/client-activity');
  const list = page.getByRole('list', { name: 'Client Activity' });
  const shipped = list.getByRole('listitem').filter({ hasText: '08/29/2023' });
  await expect(shipped).toContainText('Dose Retrieval');
  await expect(shipped).toContainText('$1,000.00');
  await expect(shipped).toContainText('Status:Shipped');
  await expect(page.getByRole('table', { name: 'Client Activity' })).toBeHidden();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

test("a Dose Retrieval row closed before 2021-12-01 shows NA for the practitioner's approval", async ({
  page,
}) => {
  await signIn(page, 'ACT10001');
  await page.goto('/client-activity');
  const old = page
    .getByRole('table', { name: 'Client Activity' })
    .getByRole('row')
    .filter({ hasText: '05/04/2021' });
  await expect(old.getByRole('cell').nth(4)).toHaveText('Dose Retrieval');
  await expect(old.getByRole('cell').nth(8)).toHaveText('NA');
});
