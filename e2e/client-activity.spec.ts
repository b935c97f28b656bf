import { expect, test } from '@playwright/test';
import { signIn } from './support/portal';

test('Client Activity lists the eight columns with the spec rules', async ({ page }) => {
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
    'Status',
    'Cell Request Approved By Practitioner',
  ]);

  const approved = table.getByRole('row').filter({ hasText: '08-29-2023' });
  await expect(approved.getByRole('cell').nth(4)).toHaveText('Dose Retrieval');
  await expect(approved.getByRole('img', { name: 'Approved' })).toBeVisible();

  const refused = table.getByRole('row').filter({ hasText: '05-18-2022' });
  await expect(refused.getByRole('img', { name: 'Not approved' })).toBeVisible();
  await expect(refused.getByRole('cell').nth(2)).toHaveText('3');

  const plan = table.getByRole('row').filter({ hasText: '5 Year Storage Plan' });
  await expect(plan.getByRole('cell').nth(4)).toHaveText('Storage Plan');
  await expect(plan.getByRole('cell').nth(2)).toHaveText('NA');
  await expect(plan.getByRole('cell').nth(7)).toHaveText('NA');
  await expect(table.getByRole('cell', { name: /Fee/ })).toHaveCount(0);
  for (const date of await table
    .getByRole('cell')
    .filter({ hasText: /^\d{2}-\d{2}-\d{4}$/ })
    .allTextContents()) {
    expect(date).toMatch(/^\d{2}-\d{2}-\d{4}$/);
  }
});

test("a Dose Retrieval row closed before 2021-12-01 shows NA for the practitioner's approval", async ({
  page,
}) => {
  await signIn(page, 'ACT10001');
  await page.goto('/client-activity');
  const old = page
    .getByRole('table', { name: 'Client Activity' })
    .getByRole('row')
    .filter({ hasText: '05-04-2021' });
  await expect(old.getByRole('cell').nth(4)).toHaveText('Dose Retrieval');
  await expect(old.getByRole('cell').nth(7)).toHaveText('NA');
});
