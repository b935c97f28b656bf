import { expect, type Page, test } from '@playwright/test';
import { fedexHolidays, shipmentDateMessages } from '../../../src/domain/carrier-calendar';
import { cellRequestMessages } from '../../../src/domain/cell-request';
import { todayFor } from '../../../src/domain/client';
import { addDays, isoToUsDate } from '../../../src/domain/dates';
import { validTuesday, weekdayFrom } from '../../../src/server/testing/dates';
import { waitForMail } from '../../support/mail';
import { DEMO_PASSWORD, expectAccessible, expectNoSidewaysScroll, signIn } from '../../support/portal';
import { testBankAccount } from '../../support/test-numbers';

/**
 * The Stem Cell Request Form. Runs first on the "sequence" portal (playwright.config.ts), in its
 * first step (1-john), with the demo accounts as seeded: Jane
 * has not signed her consent; John has, with a Visa ending 1111 on file, 10 pre-paid Longevity
 * vials (1 million cells each: they cover one vial of 10 million cells) and two years of annual
 * storage overdue. John orders twice here (his 10 Longevity vials are used for good): by FedEx with his card, his overdue years joining that one charge, then by ACT VIP with a
 * bank account entered for this order only (not kept on file). Dr. Alvarez (PHY20001) then
 * approves the FedEx request. No other journey reads John's vial requests; those reading his
 * overdue years (client-information, staff-back-office, staff-queue-tables) run before this file.
 */

const PHYSICIAN_PASSWORD = 'DemoPhysician#2026';
/** Long enough for a full page load on a machine shared by several test runs. */
const SLOW = { timeout: 60_000 };

/** signIn, waiting longer for each page: this journey loads several pages afresh. */
async function signInPatiently(page: Page, clientId: string) {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Client ID' }).fill(clientId, SLOW);
  await page.getByRole('textbox', { name: 'Password' }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/client-information$/, SLOW);
  await expect(page.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible(SLOW);
}
/** His FedEx order, $688.43, with his two overdue years of $339.81 and their 3%, $700.01. */
const JOHN_FEDEX_TOTAL = '$1,388.44';

const today = todayFor(new Date());

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
  await expect(page.getByRole('button', { name: /^(Submit|Pay )/ })).toHaveCount(0);
});

test('John orders 2 vials by FedEx with CPP: the summary, the e-mail and Client Activity agree', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'ACT10002');
  await page.goto('/stem-cell-request');
  const form = page.getByRole('form', { name: 'Stem Cell Request Form' });
  await expect(form).toBeVisible({ timeout: 30_000 });
  // His overdue annual storage does not hold the request: his card on file pays it with the order.
  await expect(
    page
      .getByRole('list', { name: 'Release checklist' })
      .getByRole('listitem')
      .filter({ hasText: 'Annual storage paid' }),
  ).toContainText('2 years of annual storage overdue ($679.62): added to the payment of the next request.');
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
  await typeShipmentDate(page, validTuesday(today, 28));
  await expect(page.getByText(shipmentDateMessages.dayAfterHoliday)).toHaveCount(0);

  // 1 vial covered by his 10 Longevity vials + $500 for the other, CPP $50, FedEx $118.38 (3% card
  // fee $20.05), and his two overdue years of annual storage $679.62 (3% card fee $20.39): one
  // total of $1,388.44.
  await expect(summary.getByRole('row', { name: /Pre-paid vials used/ })).toContainText(
    '1 (10 Longevity vials of 1 million cells)',
  );
  await expect(summary.getByRole('row', { name: /Vials charged/ })).toContainText('$500.00');
  await expect(summary).toContainText('$500.00');
  await expect(summary).toContainText('$50.00');
  await expect(summary).toContainText('$118.38');
  await expect(summary.getByRole('row', { name: /Overdue annual storage \(2 years\)/ })).toContainText(
    '$679.62',
  );
  await expect(summary.getByRole('row', { name: /Processing fee/ })).toContainText('$40.44');
  await expect(page.getByTestId('order-total')).toHaveText('$1,388.44');
  // The card on file is the default choice; another card or ACH are offered beside it.
  await expect(page.getByRole('radio', { name: 'Credit Card', exact: true })).toBeChecked();
  await expect(page.getByText('Credit card on file')).toBeVisible();
  await expect(page.getByText(/Visa .*1111/)).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Use Another Credit Card' })).not.toBeChecked();
  await page.getByRole('checkbox', { name: /I authorize ACT/ }).check();

  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/stem-cell-request-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/stem-cell-request-1280.png', fullPage: true });

  const startedAt = Date.now();
  await page.getByRole('button', { name: 'Pay $1,388.44' }).click();
  await expect(page.getByText(cellRequestMessages.submitted)).toBeVisible();
  await expect(page.getByText(/We charged \$1,388\.44/)).toBeVisible();
  await expectAccessible(page);

  const mail = await waitForMail('john.roe@example.com', /stem cell request/, startedAt, 45_000);
  expect(mail.text).toContain('Overdue annual storage (2 years): $679.62');
  expect(mail.text).toContain('Total charged: $1,388.44');
  expect(mail.text).toContain('Cancellation policy');

  // The request's page: what was ordered and paid, and its timeline.
  await page.getByRole('link', { name: 'View your request' }).click();
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  await expect(page.getByRole('row', { name: 'Overdue annual storage (2 years) $679.62' })).toBeVisible();
  await expect(page.getByRole('row', { name: 'Total charged $1,388.44' })).toBeVisible();
  await expect(
    page.getByRole('row', { name: 'Vials 2 (1 pre-paid: 10 Longevity vials of 1 million cells)' }),
  ).toBeVisible();
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
    .filter({ hasText: JOHN_FEDEX_TOTAL });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(2)).toHaveText('2');
  await expect(row.getByRole('cell').nth(4)).toHaveText('Dose Retrieval');
});

test('an ACT VIP request paid by another bank account: shipping to be confirmed, no card fee', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInPatiently(page, 'ACT10002');
  await page.goto('/stem-cell-request');
  await expect(page.getByRole('form', { name: 'Stem Cell Request Form' })).toBeVisible(SLOW);

  // His preferred shipping address is chosen by default; ACT VIP needs no carrier quote.
  await expect(page.getByRole('radio', { name: 'Preferred Shipping to Medical Professional' })).toBeChecked();
  await page.getByRole('combobox', { name: 'Sample Type' }).click();
  await page.getByRole('option', { name: 'Bone Marrow' }).click();
  await page.getByRole('radio', { name: 'Not treated for an infectious disease' }).check();
  await page.getByRole('combobox', { name: 'Number of Vials' }).click();
  await page.getByRole('option', { name: '1', exact: true }).click();
  await page.getByRole('radio', { name: 'No', exact: true }).check();
  await page.getByRole('radio', { name: 'ACT VIP' }).check();
  await expect(page.getByText(cellRequestMessages.vipNote)).toBeVisible();
  // ACT VIP has no weekday rule: a Monday four weeks out is accepted.
  await typeShipmentDate(page, weekdayFrom(addDays(today, 35), 1));
  await expect(page.getByText(shipmentDateMessages.weekday)).toHaveCount(0);

  // By his card on file: $500 + 3% = $515; shipping to be confirmed.
  const summary = page.getByTestId('order-summary');
  const total = page.getByTestId('order-total');
  await expect(summary.getByRole('row', { name: /Shipping/ })).toContainText('To be confirmed');
  await expect(summary.getByRole('row', { name: /Processing fee/ })).toContainText('$15.00');
  await expect(total).toHaveText('$515.00');

  // Another card: the saved one is set aside and the card fields ask for a new one, same total.
  await page.getByRole('checkbox', { name: 'Use Another Credit Card' }).check();
  await expect(page.getByText('Credit card on file')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Credit Card Number' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay $515.00' }).click();
  await expect(page.getByText('Please enter credit card number')).toBeVisible();
  await expect(page.getByText('Please enter billing email')).toBeVisible();
  await expect(page.getByText('Cannot be empty').first()).toBeVisible();
  await expect(total).toHaveText('$515.00');
  await page.getByRole('checkbox', { name: 'Use Another Credit Card' }).uncheck();
  await expect(page.getByText('Credit card on file')).toBeVisible();

  // ACH: none on file, so another account is entered; no processing fee.
  await page.getByRole('radio', { name: 'ACH Payment' }).check();
  await expect(page.getByText('No bank account is on file.')).toBeVisible();
  await expect(summary.getByRole('row', { name: /Processing fee/ })).toContainText('$0.00');
  await expect(total).toHaveText('$500.00');
  await page.getByRole('checkbox', { name: 'Use Another ACH' }).check();
  await page.getByRole('textbox', { name: 'Name on Account' }).fill('John Roe');
  await page.getByRole('textbox', { name: 'Account Number' }).fill(testBankAccount.accountNumber);
  await page.getByRole('textbox', { name: 'ABA Routing Number' }).fill(testBankAccount.routingNumber);
  await page.getByRole('checkbox', { name: /I authorize ACT/ }).check();
  await expectAccessible(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/stem-cell-request-vip-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  const startedAt = Date.now();
  await page.getByRole('button', { name: 'Pay $500.00' }).click();
  await expect(page.getByText(cellRequestMessages.submitted)).toBeVisible();
  await expect(page.getByText(/We charged \$500\.00/)).toBeVisible();
  await expect(page.getByText(/ACT VIP shipping price is to be confirmed/)).toBeVisible();
  const mail = await waitForMail('john.roe@example.com', /stem cell request/, startedAt, 45_000);
  expect(mail.text).toContain('Shipping (ACT VIP): to be confirmed by ACT');
  expect(mail.text).toContain('Total charged: $500.00');

  // The request's page: shipping to be confirmed, and the confirmation still ahead in the timeline.
  await page.getByRole('link', { name: 'View your request' }).click();
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  await expect(page.getByRole('row', { name: 'Shipping To be confirmed', exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: /Processing fee/ })).toContainText('$0.00');
  await expect(page.getByRole('row', { name: /Payment/ })).toContainText('Bank account ending in 6789');
  await expect(page.getByRole('row', { name: /ACT VIP price confirmed/ })).toContainText('Not yet');
  await expectAccessible(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/stem-cell-request-vip-detail-375.png', fullPage: true });
});

test("Dr. Alvarez approves John's request on Cell Requests; his request and Client Activity show it", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('/physician');
  await expect(page.getByRole('textbox', { name: 'Physician ID' })).toBeVisible(SLOW);
  await page.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20001');
  await page.getByRole('textbox', { name: 'Password' }).fill(PHYSICIAN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/my-clients$/, SLOW);
  await page
    .locator('tr[data-client="ACT10002"]')
    .getByRole('button', { name: /^Choose John/ })
    .click();
  await expect(page.getByRole('banner')).toContainText('(ACT10002)');
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Cell Requests' })
    .click();
  await expect(page.getByRole('heading', { name: 'Cell Requests', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Cell requests' });
  const fedex = table.getByRole('row').filter({ hasText: JOHN_FEDEX_TOTAL });
  await expect(fedex).toHaveCount(1);
  await expect(fedex).toContainText('FedEx');
  await expect(table.getByRole('row').filter({ hasText: 'ACT VIP' })).toHaveCount(1);
  await expectAccessible(page);
  await expect(table.getByRole('row').filter({ hasText: 'ACT VIP' })).toContainText('price to be confirmed');
  // On a phone each request is a card with its Approve button in reach.
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  const card = page
    .getByRole('list', { name: 'Cell requests' })
    .getByRole('listitem')
    .filter({ hasText: JOHN_FEDEX_TOTAL });
  await expect(card.getByRole('button', { name: /^Approve the request for/ })).toBeInViewport();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/physician-cell-requests-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await fedex.getByRole('button', { name: /^Approve the request for/ }).click();
  await expect(fedex).toContainText('Approved');
  await expect(fedex.getByRole('button')).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);

  // John sees the approval on the request's timeline and in Client Activity.
  await signInPatiently(page, 'ACT10002');
  const listed = await page.request.get('/api/pay/get_CellRequests');
  expect(listed.ok()).toBe(true);
  const { requests } = (await listed.json()) as {
    requests: { id: string; totalCents: number; shipping_method: string }[];
  };
  const request = requests.find((r) => r.shipping_method === 'FedEx' && r.totalCents === 138_844);
  expect(request).toBeDefined();
  // A direct load on a busy machine may take long before the first query leaves.
  await page.goto(`/stem-cell-request/${request?.id}`);
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible(SLOW);
  await expect(page.getByRole('row', { name: /Approved by the practitioner/ })).toContainText(
    /\d{2}\/\d{2}\/\d{4}/,
  );
  await expect(page.getByRole('row', { name: /Approved by the practitioner/ })).not.toContainText('Not yet');

  await page.goto('/client-activity');
  const row = page
    .getByRole('table', { name: 'Client Activity' })
    .getByRole('row')
    .filter({ hasText: JOHN_FEDEX_TOTAL });
  await expect(row).toHaveCount(1, SLOW);
  await expect(row.getByRole('img', { name: 'Approved' })).toBeVisible();
  // The ACT VIP request is not approved yet.
  const vip = page
    .getByRole('table', { name: 'Client Activity' })
    .getByRole('row')
    .filter({ hasText: 'by ACT VIP' });
  // Waiting for the approval is no problem: "Pending", not a red cross; the row opens its request.
  await expect(vip.getByRole('cell').nth(8)).toHaveText('Pending');
  await expect(vip.getByRole('img', { name: 'Not approved' })).toHaveCount(0);
  await expect(vip.getByRole('link', { name: /view the request of/ })).toHaveAttribute(
    'href',
    /^\/stem-cell-request\/[0-9a-f-]{36}$/,
  );
  await expectAccessible(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await expect(
    page
      .getByRole('list', { name: 'Client Activity' })
      .getByRole('listitem')
      .filter({ hasText: JOHN_FEDEX_TOTAL }),
  ).toContainText('Cell Request Approved By Practitioner');
  // On a phone too, the row opens the request's page with its timeline.
  await page
    .getByRole('list', { name: 'Client Activity' })
    .getByRole('listitem')
    .filter({ hasText: JOHN_FEDEX_TOTAL })
    .getByRole('link', { name: /view the request of/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible(SLOW);
  await expect(page.getByRole('row', { name: 'Total charged $1,388.44' })).toBeVisible();
});
