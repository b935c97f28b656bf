import { expect, type Page, test } from '@playwright/test';
import { fedexHolidays, shipmentDateMessages, weekdayOf } from '../src/domain/carrier-calendar';
import { cellRequestMessages } from '../src/domain/cell-request';
import { todayFor } from '../src/domain/client';
import { addDays, isoToUsDate } from '../src/domain/dates';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll, signIn } from './support/portal';

/**
 * The Stem Cell Request Form. Runs in the first project, with the demo accounts as seeded: Jane
 * has not signed her consent; John has, with a Visa ending 1111 on file and one pre-paid
 * longevity vial. John orders once here (his vial is used for good).
 */

const today = todayFor(new Date());

function weekdayFrom(from: string, weekday: number): string {
  let date = from;
  while (weekdayOf(date) !== weekday) date = addDays(date, 1);
  return date;
}

function validTuesday(): string {
  let date = weekdayFrom(addDays(today, 28), 2);
  const holidays = new Set(fedexHolidays(Number(date.slice(0, 4))).map((h) => h.date));
  while (holidays.has(addDays(date, -1))) date = addDays(date, 7);
  return date;
}

async function typeShipmentDate(page: Page, iso: string) {
  const field = page.getByRole('textbox', { name: 'Shipment Date' });
  await field.fill(isoToUsDate(iso));
  await field.press('Tab');
}

test('a client whose consent is not signed is blocked with the spec alert', async ({ page }) => {
  await signIn(page, 'ACT10001');
  await page.goto('/stem-cell-request');
  await expect(page.getByRole('heading', { name: 'Stem Cell Request Form', level: 1 })).toBeVisible();
  await expect(page.getByText(cellRequestMessages.consentRequired)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Complete the client consent' })).toHaveAttribute(
    'href',
    '/form-document/Consent-form',
  );
  await expect(page.getByRole('button', { name: /Submit/ })).toHaveCount(0);
});

test('John orders 2 vials by FedEx with CPP: the summary, the e-mail and Client Activity agree', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'ACT10002');
  await page.goto('/stem-cell-request');
  const form = page.getByRole('form', { name: 'Stem Cell Request Form' });
  await expect(form).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);

  // Submitting empty gives the spec's messages.
  await page.getByRole('radio', { name: 'A new address' }).check();
  await page.getByRole('button', { name: /^Submit/ }).click();
  await expect(page.getByText('Please select sample type')).toBeVisible();
  await expect(page.getByText('Please Select Dose')).toBeVisible();
  await expect(page.getByText('Please enter street')).toBeVisible();
  await expectAccessible(page);

  // The preferred shipping address of the client record, verified: FedEx suggests its own form.
  await page.getByRole('radio', { name: 'Preferred Shipping to Medical Professional' }).check();
  await expect(page.getByRole('textbox', { name: 'Street' })).toHaveValue('160 East 56th Street, Floor 7');
  // The preferred address fills the fields: the messages of the empty submit go.
  await expect(page.getByText('Please enter street')).toHaveCount(0);
  await page.getByRole('button', { name: 'Verify address' }).click();
  const modal = page.getByRole('dialog', { name: 'FedEx suggests a standardized address' });
  await expect(modal).toBeVisible();
  await expectAccessible(page);
  await modal.getByRole('button', { name: 'Accept Suggestion' }).click();
  await expect(page.getByText('Address Successfully Verified')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Street' })).not.toHaveValue(
    '160 East 56th Street, Floor 7',
  );

  await page.getByRole('combobox', { name: 'Sample Type' }).click();
  await page.getByRole('option', { name: 'Adipose' }).click();
  await page.getByRole('radio', { name: 'Not treated for an infectious disease' }).check();
  await page.getByRole('combobox', { name: 'Number of Vials' }).click();
  await page.getByRole('option', { name: '2', exact: true }).click();
  await page.getByRole('radio', { name: 'Yes' }).check();

  // ACT VIP: the shipping is to be confirmed by the bank.
  await page.getByRole('radio', { name: 'ACT VIP' }).check();
  const summary = page.getByTestId('order-summary');
  await expect(summary).toContainText('To be confirmed');
  await page.getByRole('radio', { name: 'FedEx' }).check();
  await page.getByRole('button', { name: 'Verify address' }).click();
  await expect(page.getByText('Address Successfully Verified')).toBeVisible();

  // Typed dates FedEx does not deliver on are refused with the spec's messages.
  await typeShipmentDate(page, weekdayFrom(addDays(today, 28), 1));
  await expect(page.getByText(shipmentDateMessages.weekday)).toBeVisible();
  const thanksgiving = fedexHolidays(Number(today.slice(0, 4)) + 1).find((h) => h.name === 'Thanksgiving')
    ?.date as string;
  await typeShipmentDate(page, addDays(thanksgiving, 1));
  await expect(page.getByText(shipmentDateMessages.dayAfterHoliday)).toBeVisible();
  await typeShipmentDate(page, validTuesday());
  await expect(page.getByText(shipmentDateMessages.dayAfterHoliday)).toHaveCount(0);

  // 1 pre-paid longevity vial + $500, CPP $50, FedEx $118.38, 3% card fee $20.05.
  await expect(summary).toContainText('$500.00');
  await expect(summary).toContainText('$50.00');
  await expect(summary).toContainText('$118.38');
  await expect(summary).toContainText('$20.05');
  await expect(page.getByTestId('order-total')).toHaveText('$688.43');
  await expect(page.getByRole('radio', { name: /Credit Card: Visa ending in 1111/ })).toBeChecked();
  await page.getByRole('checkbox', { name: /I authorize ACT/ }).check();

  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/stem-cell-request-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/stem-cell-request-1280.png', fullPage: true });

  const startedAt = Date.now();
  await page.getByRole('button', { name: 'Submit and pay $688.43' }).click();
  await expect(page.getByText(cellRequestMessages.submitted)).toBeVisible();
  await expect(page.getByText(/We charged \$688\.43/)).toBeVisible();
  await expectAccessible(page);

  const mail = await waitForMail('john.roe@example.com', /stem cell request/, startedAt, 45_000);
  expect(mail.text).toContain('Total charged: $688.43');
  expect(mail.text).toContain('Cancellation policy');

  // The request's page: what was ordered and paid, and its timeline.
  await page.getByRole('link', { name: 'View your request' }).click();
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  await expect(page.getByText('$688.43')).toBeVisible();
  await expect(page.getByRole('row', { name: /Approved by the practitioner/ })).toContainText('Not yet');
  await expectAccessible(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/stem-cell-request-detail-375.png', fullPage: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/client-activity');
  const row = page
    .getByRole('table', { name: 'Client Activity' })
    .getByRole('row')
    .filter({ hasText: '$688.43' });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(2)).toHaveText('2');
  await expect(row.getByRole('cell').nth(4)).toHaveText('Dose Retrieval');
});
