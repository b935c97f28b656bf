import { expect, test } from '@playwright/test';
import { signIn } from './support/portal';

test('signs out after 5 minutes without activity', async ({ page }) => {
  await page.clock.install();
  await signIn(page);
  await page.clock.fastForward('04:00');
  // Activity in the page tells the server too, so the server's idle clock follows the person's.
  const keepAlive = page.waitForRequest(
    (r) => r.url().endsWith('/api/pay/keepalive') && r.method() === 'POST',
  );
  await page.mouse.move(200, 200);
  await page.mouse.move(220, 240);
  await page.clock.runFor(500);
  await keepAlive;
  await page.clock.fastForward('02:00');
  await expect(page).toHaveURL(/\/client-information$/);

  await page.clock.fastForward('05:01');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('You were signed out after 5 minutes without activity.')).toBeVisible();
  const answer = await page.request.get('/api/pay/get_Client');
  expect(answer.status()).toBe(401);
  await page.goto('/client-information');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Jane')).toHaveCount(0);
});
