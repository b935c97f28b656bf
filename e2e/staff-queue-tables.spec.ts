/**
 * The back office's queues are tables (issue 24, point 9): sortable headers, a text filter, a
 * status filter, and each row opening its card. On "Storage Years Paid by Check" (the demo's overdue
 * years of John Roe, Leo Grant and Omar Haddad, and any year another journey left there), the demo
 * admin sorts by amount both ways, filters the overdue years and one client, finds nothing for a
 * word no row has, and opens a row on its check form, at 1280 px; then, at 375 px, where the rows
 * stack, sorts with "Sort by" and filters again. Nothing is recorded: the queue is left as it was.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

const table = (page: Page) => page.getByRole('table', { name: 'Storage years paid by check' });

/** The item rows of the table (an opened card's row has one cell only). */
function itemRows(page: Page): Locator {
  return table(page)
    .locator('tbody > tr')
    .filter({ has: page.getByRole('button', { name: /^(Open|Close) / }) });
}

/** A column's cells, top to bottom, by the column's place in the table. */
async function column(page: Page, index: number): Promise<string[]> {
  return itemRows(page).evaluateAll(
    (rows, at) => rows.map((row) => (row as HTMLTableRowElement).cells[at]?.textContent ?? ''),
    index,
  );
}

/** "$1,234.56" as cents; "11/07/2026" as "2026-11-07": what the sorted columns compare. */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);
const isoOf = (text: string) => {
  const [, month, day, year] = /(\d{2})\/(\d{2})\/(\d{4})/.exec(text) ?? [];
  return `${year}-${month}-${day}`;
};
const ascending = <T>(values: T[]) => values.every((value, i) => i === 0 || (values[i - 1] as T) <= value);
const descending = <T>(values: T[]) => values.every((value, i) => i === 0 || (values[i - 1] as T) >= value);

async function checkScreen(page: Page, name: string, width: number) {
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `test-results/staff-queue-tables/${name}-${width}.png`, fullPage: true });
}

test('staff sort and filter a queue, and open a row on its card, at 1280 and 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsDemoAdmin(page);
  await page
    .getByRole('navigation', { name: 'Back office sections' })
    .getByRole('link', { name: 'Storage Checks' })
    .click();
  await expect(page.getByRole('heading', { name: 'Storage Years Paid by Check', level: 1 })).toBeVisible();
  await expect(itemRows(page).first()).toBeVisible();
  const total = await itemRows(page).count();

  // Oldest due first, as the server sends them, and the Due header says so.
  const header = (name: string) => table(page).getByRole('columnheader', { name, exact: true });
  await expect(header('Due')).toHaveAttribute('aria-sort', 'ascending');
  expect(ascending((await column(page, 3)).map(isoOf))).toBe(true);
  await checkScreen(page, 'queue', 1280);

  // Amount due, lowest first, then highest first: the header's button, by keyboard the second time.
  await table(page).getByRole('button', { name: 'Amount due', exact: true }).click();
  await expect(header('Amount due')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header('Due')).not.toHaveAttribute('aria-sort');
  expect(ascending((await column(page, 4)).map(cents))).toBe(true);
  await table(page).getByRole('button', { name: 'Amount due', exact: true }).press('Enter');
  await expect(header('Amount due')).toHaveAttribute('aria-sort', 'descending');
  expect(descending((await column(page, 4)).map(cents))).toBe(true);

  // The overdue years, then one client's: the rows left all match, and the page says how many.
  await page.getByRole('combobox', { name: 'Status' }).selectOption('Overdue');
  for (const status of await column(page, 6)) expect(status).toBe('Overdue');
  const clientId = (await column(page, 1))[0] ?? '';
  expect(clientId).toMatch(/^ACT\d+$/);
  const filter = page.getByRole('searchbox', { name: 'Filter by client, ID or year' });
  await filter.fill(clientId.toLowerCase());
  for (const id of await column(page, 1)) expect(id).toBe(clientId);
  const shown = await itemRows(page).count();
  await expect(page.getByText(`Showing ${shown} of ${total}.`)).toBeVisible();
  await checkScreen(page, 'filtered', 1280);

  // A word no row has: said in words, and the filters clear in one click.
  await filter.fill(`${clientId} nobody-here`);
  await expect(page.getByText('Nothing here matches the filter.')).toBeVisible();
  await expect(table(page)).toHaveCount(0);
  await checkScreen(page, 'no-match', 1280);
  await page.getByRole('button', { name: 'Clear the filters' }).click();
  await expect(itemRows(page)).toHaveCount(total);
  await expect(filter).toHaveValue('');

  // A row opens its card under it, the keyboard moving into it, with the check form.
  const open = itemRows(page)
    .first()
    .getByRole('button', { name: /^Open / });
  const name = ((await open.getAttribute('aria-label')) ?? '').replace(/^Open /, '');
  await open.click();
  const close = table(page).getByRole('button', { name: `Close ${name}` });
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  const card = table(page).getByRole('article');
  await expect(card.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(card.getByRole('form', { name: /^Record the check of / })).toBeVisible();
  await checkScreen(page, 'open', 1280);

  // On a phone the rows stack, each cell with its label, and "Sort by" replaces the headers.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toBeVisible();
  await expect(card.getByRole('form', { name: /^Record the check of / })).toBeVisible();
  await checkScreen(page, 'open', 375);
  await close.click();
  await expect(table(page).getByRole('article')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Due, newest first' });
  const dues = await itemRows(page).evaluateAll((rows) =>
    rows.map((row) => (row as HTMLTableRowElement).cells[3]?.textContent ?? ''),
  );
  expect(descending(dues.map(isoOf))).toBe(true);
  await page.getByRole('combobox', { name: 'Status' }).selectOption('Overdue');
  await page.getByRole('searchbox', { name: 'Filter by client, ID or year' }).fill(clientId);
  for (const id of await column(page, 1)) expect(id).toContain(clientId);
  await checkScreen(page, 'filtered', 375);
});
