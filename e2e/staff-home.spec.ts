import { expect, test } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

/**
 * The back office's home: a card per work queue with what waits in it. Each count reads whole
 * ("1 waiting", never "1 WAI…") beside the longest queue names, on a laptop and on a phone.
 */
test("the home page's queue cards show each count whole, at 1280 and 375 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsDemoAdmin(page);
  const home = page.getByRole('main');
  await expect(home.getByRole('link', { name: 'Storage Years Paid by Check' })).toBeVisible();
  const counts = home.getByText(/^\d+ waiting$/);
  await expect(counts.first()).toBeVisible();
  expect(await counts.count()).toBeGreaterThan(5);

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await expectNoSidewaysScroll(page);
    // A count cut short keeps its whole text in the page but not on the screen: its box is narrower
    // than what it holds. Polled: on a loaded machine the first measure can fall in the middle of
    // the layout after a resize (one full run saw every badge "cut" once, and whole when alone).
    await expect
      .poll(() =>
        counts.evaluateAll((badges) =>
          badges.filter((badge) => badge.scrollWidth > badge.clientWidth).map((badge) => badge.textContent),
        ),
      )
      .toEqual([]);
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/staff-home-${viewport.width}.png`, fullPage: true });
  }
});
