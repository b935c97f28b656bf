import { expect, test } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';

const phone = { width: 375, height: 740 };

test.describe('accessibility and phone width', () => {
  test('sign-in and password recovery', async ({ page }) => {
    for (const viewport of [{ width: 1280, height: 900 }, phone]) {
      await page.setViewportSize(viewport);
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
      await expectAccessible(page);
      await expectNoSidewaysScroll(page);
      await page.goto('/forgot-password');
      await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
      await expectAccessible(page);
      await expectNoSidewaysScroll(page);
    }
  });

  test('Client Information, in view and edit mode with errors, and Client Activity', async ({ page }) => {
    await signIn(page, 'ACT10002');
    for (const viewport of [{ width: 1280, height: 900 }, phone]) {
      await page.setViewportSize(viewport);
      await page.goto('/client-information');
      await expect(page.getByRole('button', { name: 'Edit Personal Details' })).toBeVisible();
      await expectAccessible(page);
      await expectNoSidewaysScroll(page);
      await page.getByRole('button', { name: 'Edit Preferred Shipping to Medical Professional' }).click();
      await page.getByRole('textbox', { name: 'Clinic Name' }).fill('');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Please enter clinic name')).toBeVisible();
      await expectAccessible(page);
      await expectNoSidewaysScroll(page);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.goto('/client-activity');
      // A table on a desktop, a list of cards on a phone.
      await expect(
        page.getByRole(viewport === phone ? 'list' : 'table', { name: 'Client Activity' }),
      ).toBeVisible();
      await expectAccessible(page);
      await expectNoSidewaysScroll(page);
    }
  });

  test('on a phone the navigation opens from the menu button and works by keyboard', async ({ page }) => {
    await page.setViewportSize(phone);
    await signIn(page, 'ACT10001');
    const toggle = page.getByRole('button', { name: 'Toggle navigation' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const nav = page.getByRole('navigation', { name: 'Portal sections' });
    await expect(nav.getByRole('link', { name: 'Client Activity' })).toBeVisible();
    await nav.getByRole('link', { name: 'Client Activity' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Client Activity', level: 1 })).toBeVisible();
  });
});
