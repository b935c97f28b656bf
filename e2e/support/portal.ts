import { expect, type Page } from '@playwright/test';
import axe from 'axe-core';

export const DEMO_PASSWORD = 'DemoClient#2026';

export async function signIn(page: Page, clientId = 'ACT10001', password = DEMO_PASSWORD) {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Client ID' }).fill(clientId);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/client-information$/);
  await expect(page.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible();
}

/** What a page shows under a label of a description list (Client Information's view mode). */
export function shownValue(page: Page, label: string) {
  return page.locator(`xpath=//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);
}

/**
 * axe finds no serious or critical violation on the page as it is now, label-content-name-mismatch
 * included. The page's transitions are let
 * finish first: a dialog still fading in has its colours part transparent, which axe reads as too
 * little contrast (a modal's button failed so, once in several runs). Endless animations (spinners)
 * are not waited for.
 *
 * axe runs in the page, put there once per document (a route change in the portal keeps it), as
 * @axe-core/playwright's legacy mode does without sending its 500 kB again for every check and
 * without the blank page its default mode opens to combine frames: the portal has no frames. On
 * this 2-core machine that took a check from about 2.3 s to 0.4 s, for the same rules and results.
 */
export async function expectAccessible(page: Page) {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((settle) => setTimeout(settle, 2_000)),
    ]),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const severe = await page.evaluate(async () => {
    const { axe: inPage } = window as unknown as { axe: typeof axe };
    // label-content-name-mismatch is experimental in axe and off unless asked for: a control whose
    // accessible name does not contain its visible words cannot be spoken to by voice control.
    const results = await inPage.run(document, {
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  });
  expect(severe).toEqual([]);
}

/**
 * Nothing on the page is wider than the screen (no sideways scrolling). Polled, because right after a
 * viewport change the layout's transitions (the navigation sliding away) are still under way; a real
 * overflow stays and fails with the elements that stick out.
 */
export async function expectNoSidewaysScroll(page: Page) {
  let widest: string[] = [];
  const settled = expect
    .poll(
      async () => {
        const seen = await page.evaluate(() => {
          const width = document.documentElement.clientWidth;
          const beyond = [...document.querySelectorAll<HTMLElement>('body *')]
            .filter((el) => el.getBoundingClientRect().right > width + 0.5)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80));
          return { overflow: document.documentElement.scrollWidth - width, widest: beyond.slice(0, 6) };
        });
        widest = seen.widest;
        return seen.overflow;
      },
      { message: 'nothing wider than the screen' },
    )
    .toBeLessThanOrEqual(0);
  await settled.catch((error: Error) => {
    throw new Error(`${error.message}\nSticking out: ${widest.join(' | ')}`);
  });
}
