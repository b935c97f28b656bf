import { expect, test } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

/** A Tuesday about 300 days ahead: far past any date another journey picks. */
function farTuesday(): { iso: string; us: string } {
  const date = new Date(Date.now() + 300 * 86_400_000);
  while (date.getUTCDay() !== 2) date.setUTCDate(date.getUTCDate() + 1);
  const iso = date.toISOString().slice(0, 10);
  return { iso, us: `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` };
}

test('the admin closes a day on the Shipping Calendar, then opens it again', async ({ page }) => {
  await signInAsDemoAdmin(page);
  await page
    .getByRole('navigation', { name: 'Back office sections' })
    .getByRole('link', { name: 'Shipping Calendar' })
    .click();
  await expect(page.getByRole('heading', { name: 'Shipping Calendar', level: 1 })).toBeVisible();
  await expect(page.getByTestId('fedex-holidays')).toContainText('Thanksgiving');

  const dateBox = page.getByLabel('Blackout date');
  // Typed as every date of the back office: MM/DD/YYYY.
  await dateBox.fill('13/45/2030');
  await page.getByRole('button', { name: 'Add date' }).click();
  await expect(page.getByText('Please enter a real date as MM/DD/YYYY.')).toBeVisible();
  await dateBox.fill('01/07/2020');
  await page.getByRole('button', { name: 'Add date' }).click();
  await expect(page.getByText('Please choose today or a later date.')).toBeVisible();

  const day = farTuesday();
  await dateBox.fill(day.us);
  await page.getByRole('button', { name: 'Add date' }).click();
  const list = page.getByTestId('blackout-dates');
  await expect(list).toContainText(`${day.us} (Tuesday)`);
  await expect(page.getByText('Please choose today or a later date.')).toHaveCount(0);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/staff-calendar-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/staff-calendar-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  const dates = await page.request.get('/api/staff/blackout_dates');
  expect((await dates.json()).dates).toContain(day.iso);
  await page.getByRole('button', { name: `Remove ${day.us}` }).click();
  await expect(page.getByRole('button', { name: `Remove ${day.us}` })).toHaveCount(0);
  expect((await (await page.request.get('/api/staff/blackout_dates')).json()).dates).not.toContain(day.iso);
});
