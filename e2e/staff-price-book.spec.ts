import { expect, test } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

/**
 * The admin schedules a new price for a vial a year ahead (so no other journey meets it), sees what
 * changes before adding it, then withdraws it before it takes effect. Orders keep the prices in force.
 */
test('the admin schedules a price change on the Price Book, then withdraws it', async ({ page }) => {
  const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  const nextYearUs = `${nextYear.slice(5, 7)}/${nextYear.slice(8, 10)}/${nextYear.slice(0, 4)}`;

  await signInAsDemoAdmin(page);
  await page
    .getByRole('navigation', { name: 'Back office sections' })
    .getByRole('link', { name: 'Price Book' })
    .click();
  await expect(page.getByRole('heading', { name: 'Price Book', level: 1 })).toBeVisible();
  const versions = page.getByTestId('price-versions');
  await expect(versions.getByRole('row').nth(1)).toContainText('In force');
  await expect(page.getByText('No price changes yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add version' })).toBeDisabled();
  await expectAccessible(page);

  // Slips are named at their fields (the server's limits, checked on the page too); nothing is sent.
  const vial = page.getByRole('textbox', { name: 'Vial of 10 million cells' });
  await expect(vial).toHaveValue('500.00');
  await vial.fill('5x0');
  const cpp = page.getByRole('textbox', { name: 'Cell Protection Plan, per vial' });
  await cpp.fill('150000.00');
  await page.getByRole('button', { name: 'Add version' }).click();
  await expect(page.getByText('Enter an amount in dollars and cents, such as 500.00')).toBeVisible();
  await expect(page.getByText('At most $100,000.00')).toBeVisible();
  await expect(vial).toBeFocused();
  await cpp.fill('26.00');
  await expect(page.getByText('At most $100,000.00')).toHaveCount(0);

  // What changes is in view before it is added.
  await vial.fill('550.00');
  // Typed as every date of the back office, MM/DD/YYYY.
  await page.getByRole('textbox', { name: 'Takes effect on' }).fill(nextYearUs);
  await page.getByRole('button', { name: 'Add version' }).click();
  await expect(page.getByText('Say in a few words why the prices change')).toBeVisible();
  await page.getByRole('textbox', { name: 'Reason' }).fill('Laboratory costs for next year');
  await expect(page.getByText(`2 prices change from ${nextYearUs}:`)).toBeVisible();
  await expect(page.getByText('Vial of 10 million cells: $500.00 → $550.00')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Add version' }).click();
  const added = page.getByRole('status').filter({ hasText: /^Version \d+ takes effect on/ });
  await expect(added).toContainText(nextYearUs);
  const version = Number((await added.textContent())?.match(/Version (\d+)/)?.[1]);
  const row = versions.getByRole('row').filter({ hasText: 'Laboratory costs for next year' });
  await expect(row).toContainText('Scheduled');
  await expect(row).toContainText('Cell Protection Plan, per vial: $25.00 → $26.00');

  // Still in force today, for the pages and the orders.
  const inForce = await (await page.request.get('/api/pay/price_book')).json();
  expect(inForce.amounts.vialPrice).toBe(50_000);

  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/staff-price-book-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/staff-price-book-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: `Withdraw version ${version}` }).click();
  await expect(row).toContainText('Withdrawn');
  await expect(page.getByRole('button', { name: `Withdraw version ${version}` })).toHaveCount(0);
});
