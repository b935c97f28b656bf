import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';

const PHYSICIAN_PASSWORD = 'DemoPhysician#2026';

async function physicianSignIn(page: Page, physicianId: string) {
  await page.goto('/physician');
  await page.getByRole('textbox', { name: 'Physician ID' }).fill(physicianId);
  await page.getByRole('textbox', { name: 'Password' }).fill(PHYSICIAN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/my-clients$/);
  await expect(page.getByRole('heading', { name: 'My Clients', level: 1 })).toBeVisible();
}

/** The Client IDs the page lists, in the table on a wide screen. */
async function listedClients(page: Page) {
  await expect(page.locator('tr[data-client]').first()).toBeVisible();
  return page
    .locator('tr[data-client]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-client')));
}

test.describe('physician portal', () => {
  test('signs in from the physician page, lists only their clients, acts for one, and signs out', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Physician sign-in' }).click();
    await expect(page).toHaveURL(/\/physician$/);
    await expect(page.getByRole('heading', { name: 'Physician Sign In' })).toBeVisible();

    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Please enter Physician ID')).toBeVisible();
    await expect(page.getByText('Please enter password')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Physician ID' })).toBeFocused();

    await page.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20001');
    await page.getByRole('textbox', { name: 'Password' }).fill('not my password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Physician ID or Password not matched, Please try again.',
    );
    await expect(page).toHaveURL(/\/physician$/);

    await page.getByRole('textbox', { name: 'Password' }).fill(PHYSICIAN_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/my-clients$/);
    await expect(page.getByRole('banner').getByText('Physician Portal')).toBeVisible();
    await expect(page.getByRole('banner').getByText('No client chosen')).toBeVisible();
    // The seeded clients first (by Client ID); clients registered by other journeys may follow.
    const listed = await listedClients(page);
    expect(listed.slice(0, 4)).toEqual(['ACT10001', 'ACT10002', 'ACT10003', 'ACT10004']);
    expect(listed).not.toContain('ACT10005');

    const jane = page.locator('tr[data-client="ACT10001"]');
    await expect(jane).toContainText('Jane Doe');
    await jane.getByRole('button', { name: /^Choose Jane Doe/ }).click();
    await expect(page.getByRole('banner')).toContainText('Jane Doe (ACT10001)');
    await expect(jane).toHaveAttribute('data-chosen', 'true');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Change client' })).toHaveAttribute(
      'href',
      '/my-clients',
    );

    // A client's page is not a physician's: the gate sends them back to their clients.
    await page.goto('/client-information');
    await expect(page).toHaveURL(/\/my-clients$/);
    await expect(page.getByRole('banner')).toContainText('Jane Doe (ACT10001)');

    await page
      .getByRole('navigation', { name: 'Portal sections' })
      .getByRole('link', { name: 'Client Consent' })
      .click();
    await expect(
      page.getByRole('heading', { name: 'ACT Client Consent', exact: true, level: 1 }),
    ).toBeVisible();

    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await page.goto('/my-clients');
    await expect(page).toHaveURL(/\/$/);
  });

  test('another physician sees only their own client', async ({ page }) => {
    await physicianSignIn(page, 'PHY20002');
    expect(await listedClients(page)).toEqual(['ACT10005']);
  });

  test('the physician pages are accessible and fit a phone', async ({ page }) => {
    await page.goto('/physician');
    await expect(page.getByRole('heading', { name: 'Physician Sign In' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Forgot Your Password?' }).click();
    await expect(page).toHaveURL(/\/physician\/forgot-password$/);
    await page.getByRole('button', { name: 'Send One Time Password' }).click();
    await expect(page.getByText('Please enter Physician ID')).toBeVisible();
    await expect(page.getByText('Please enter email')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Physician Login' }).click();
    await expect(page.getByRole('link', { name: 'Client sign-in' })).toHaveAttribute('href', '/');
    await physicianSignIn(page, 'PHY20001');
    await expect(page.locator('tr[data-client]').first()).toBeVisible();
    // With a client chosen: the chosen row's mark must be readable too.
    await page
      .locator('tr[data-client="ACT10002"]')
      .getByRole('button', { name: /^Choose/ })
      .click();
    await expect(page.locator('tr[data-client="ACT10002"]')).toHaveAttribute('data-chosen', 'true');
    await expectAccessible(page);
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(page.locator('[data-client="ACT10001"]').filter({ visible: true })).toBeVisible();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
  });
});
