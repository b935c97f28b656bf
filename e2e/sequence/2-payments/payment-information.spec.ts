/**
 * Payment Information: the card and ACH forms, the gateway's answers, and the overdue total paid on save.
 *
 * These journeys change the demo accounts for good (there is no way to take a card off file):
 * Jane ends with a Visa ending 4242 and a bank account, Leo Grant's overdue annual storage is paid
 * (Leo, ACT10013, is seeded two years overdue like John, whose own overdue years the Stem Cell
 * Request Form journey pays with his first request).
 * Journeys that read the seeded state run on the other portal (client-information.spec.ts: "Cancel
 * puts back what was saved" expects John's Overdue and $679.62), or before this one in the sequence
 * (its folder's step, playwright.config.ts).
 * The server's data folder is emptied at each start, so every run begins from the seed.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { todayFor } from '../../../src/domain/client';
import { isoToUsDate } from '../../../src/domain/dates';
import { pageText } from '../../../src/server/testing/pdf-reading';
import { expectAccessible, expectNoSidewaysScroll, shownValue, signIn } from '../../support/portal';
import { testBankAccount, testCards } from '../../support/test-numbers';

const UPDATED =
  'Your payment information has been updated successfully. We are now getting the portal services ready for you!';
const phone = { width: 375, height: 740 };

/** Today where the bank is, as YYYY-MM-DD: the date the page and the server go by. */
const today = todayFor(new Date());
const [thisYear, thisMonth] = today.split('-').map(Number) as [number, number];
const twoDigits = (n: number) => String(n).padStart(2, '0');

interface Card {
  number: string;
  type: string;
  cvv: string;
  month: string;
  year: string;
  firstName: string;
  lastName: string;
  email: string;
  street: string;
  city: string;
  state: string;
  country: string;
  zip: string;
}

/** A card the form accepts: it has more than a year left whatever today is. */
const janesVisa: Card = {
  number: testCards.visa,
  type: 'Visa',
  cvv: '123',
  month: '12',
  year: String(thisYear + 3),
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane.doe@example.com',
  street: '1200 Brickell Avenue',
  city: 'Miami',
  state: 'FL',
  country: 'United States',
  zip: '33131',
};

async function choose(page: Page, label: string, option: string) {
  const field = page.getByRole('combobox', { name: label });
  if ((await field.inputValue()) === option) return;
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(field).toHaveValue(option);
}

async function fillCard(page: Page, card: Card) {
  await page.getByRole('textbox', { name: 'Credit Card Number' }).fill(card.number);
  await choose(page, 'Card Type', card.type);
  await page.getByRole('textbox', { name: 'CVV', exact: true }).fill(card.cvv);
  await choose(page, 'Expiry Month', card.month);
  await choose(page, 'Expiry Year', card.year);
  await page.getByRole('textbox', { name: 'Billing First Name' }).fill(card.firstName);
  await page.getByRole('textbox', { name: 'Billing Last Name' }).fill(card.lastName);
  await page.getByRole('textbox', { name: 'Billing Email' }).fill(card.email);
  await page.getByRole('textbox', { name: 'Billing Street' }).fill(card.street);
  await page.getByRole('textbox', { name: 'Billing City' }).fill(card.city);
  await page.getByRole('textbox', { name: 'Billing State' }).fill(card.state);
  await page.getByRole('textbox', { name: 'Country' }).fill(card.country);
  await page.getByRole('textbox', { name: 'Zip or Postal Code' }).fill(card.zip);
}

async function openPaymentInformation(page: Page) {
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: /^Payment Information/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Payment Information', level: 1 })).toBeVisible();
}

/** A card number as the form shows it while it is typed: 4-4-4-4. */
const grouped = (number: string) => number.replace(/(\d{4})(?=\d)/g, '$1 ');

/** Marks the page, so a later check can tell that it was never reloaded. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { notReloaded?: boolean }).notReloaded = true;
  });
}

async function expectNotReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
}

async function paymentInfoOnFile(page: Page) {
  const answer = await page.request.get('/api/pay/get_PaymentInfo');
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { result: Record<string, unknown> }).result;
}

test('the page, its card form with errors and the red overdue total pass axe and fit a phone', async ({
  page,
}) => {
  // Leo, so that the red overdue banner and the fee quote are checked too while he still owes.
  await signIn(page, 'ACT10013');
  for (const viewport of [{ width: 1280, height: 900 }, phone]) {
    await page.setViewportSize(viewport);
    await page.goto('/payment-information');
    await expect(page.getByRole('button', { name: 'Edit credit card' })).toBeVisible();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);

    // Saving pays his overdue $679.62 (by card + 3%): the button says so.
    await page.getByRole('button', { name: 'Edit credit card' }).click();
    await page.getByRole('button', { name: 'Pay $700.01 and save card' }).click();
    await expect(page.getByText('Please enter credit card number')).toBeVisible();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit ACH payment' }).click();
    await page.getByRole('button', { name: 'Pay $679.62 and save bank account' }).click();
    await expect(page.getByText('Please enter account number')).toBeVisible();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
  }
});

test('the card number is grouped as typed, its brand shown, and the card and bank editors stay open together', async ({
  page,
}) => {
  await signIn(page, 'ACT10002');
  await openPaymentInformation(page);
  await page.getByRole('button', { name: 'Edit credit card' }).click();
  const cardForm = page.getByRole('form', { name: 'Credit card' });
  const number = cardForm.getByRole('textbox', { name: 'Credit Card Number' });
  const cardType = cardForm.getByRole('combobox', { name: 'Card Type' });
  const brands: [string, string, string][] = [
    [testCards.amex, '3782 822463 10005', 'American Express'],
    [testCards.mastercard, '5555 5555 5555 4444', 'Mastercard'],
    ['6011111111111117', '6011 1111 1111 1117', 'Discover'],
    [testCards.visa, '4242 4242 4242 4242', 'Visa'],
  ];
  for (const [digits, shown, brand] of brands) {
    await number.fill('');
    await number.pressSequentially(digits);
    await expect(number).toHaveValue(shown);
    await expect(cardType).toHaveValue(brand);
    await expect(cardForm.getByRole('img', { name: brand })).toBeVisible();
  }

  // Opening the bank account's editor keeps the card's; cancelling one leaves the other as typed.
  await page.getByRole('button', { name: 'Edit ACH payment' }).click();
  const achForm = page.getByRole('form', { name: 'ACH payment' });
  await achForm.getByRole('textbox', { name: 'Name on Account' }).fill('John Roe');
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await cardForm.getByRole('button', { name: 'Cancel' }).click();
  await expect(cardForm).toHaveCount(0);
  await expect(achForm.getByRole('textbox', { name: 'Name on Account' })).toHaveValue('John Roe');
  for (const viewport of [{ width: 1280, height: 900 }, phone]) {
    await page.setViewportSize(viewport);
    await expectNoSidewaysScroll(page);
  }
  await achForm.getByRole('button', { name: 'Cancel' }).click();
  await expect(achForm).toHaveCount(0);
});

test('a card is refused until every rule holds, then saved once however often Save is clicked', async ({
  page,
}) => {
  await signIn(page, 'ACT10001');
  const nav = page.getByRole('navigation', { name: 'Portal sections' });
  await expect(nav.getByRole('link', { name: 'Payment Information No card on file' })).toBeVisible();
  await openPaymentInformation(page);
  await expect(page.getByRole('main').getByText('No card on file')).toBeVisible();
  await expect(page.getByRole('main').getByText('No bank account on file')).toBeVisible();
  // Spec 1 section 2: the section's title, and "Edit" on each method, on file or not.
  await expect(
    page.getByRole('heading', { name: 'Current Payment Method Secured For Annual Banking' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit credit card' })).toHaveText('Edit');
  await expect(page.getByRole('button', { name: 'Edit ACH payment' })).toHaveText('Edit');

  await page.getByRole('button', { name: 'Edit credit card' }).click();
  const number = page.getByRole('textbox', { name: 'Credit Card Number' });
  const save = page.getByRole('button', { name: 'Save' });
  // The billing address starts as Jane's address of record (the gateway's address check needs it).
  const addressOfRecord: [string, string][] = [
    ['Billing Street', '1200 Brickell Avenue'],
    ['Billing City', 'Miami'],
    ['Billing State', 'FL'],
    ['Zip or Postal Code', '33131'],
  ];
  for (const [label, value] of addressOfRecord) {
    await expect(page.getByRole('textbox', { name: label })).toHaveValue(value);
  }
  // Country and the address come filled in; emptied so that every required field is left blank.
  for (const label of ['Country', ...addressOfRecord.map(([label]) => label)]) {
    await page.getByRole('textbox', { name: label }).clear();
  }
  await save.click();
  const required: [Locator, string][] = [
    [number, 'Please enter credit card number'],
    [page.getByRole('combobox', { name: 'Card Type' }), 'Please select card type'],
    [page.getByRole('textbox', { name: 'CVV', exact: true }), 'Invalid CVV code'],
    [page.getByRole('combobox', { name: 'Expiry Month' }), 'Invalid credit Card Expiration Month'],
    [page.getByRole('combobox', { name: 'Expiry Year' }), 'Invalid credit Card Expiration Year'],
    [page.getByRole('textbox', { name: 'Billing First Name' }), "Field can't be empty"],
    [page.getByRole('textbox', { name: 'Billing Last Name' }), "Field can't be empty"],
    [page.getByRole('textbox', { name: 'Billing Email' }), 'Cannot be empty'],
    [page.getByRole('textbox', { name: 'Billing Street' }), "Field can't be empty"],
    [page.getByRole('textbox', { name: 'Billing City' }), "Field can't be empty"],
    [page.getByRole('textbox', { name: 'Billing State' }), "Field can't be empty"],
    [page.getByRole('textbox', { name: 'Country' }), "Field can't be empty"],
    [page.getByRole('textbox', { name: 'Zip or Postal Code' }), "Field can't be empty"],
  ];
  for (const [field, message] of required) await expect(field).toHaveAccessibleDescription(message);
  await expect(number).toBeFocused();
  // A field's error goes as soon as the field changes; the others stay until the next Save.
  await page.getByRole('textbox', { name: 'Billing City' }).fill('Miami');
  await expect(page.getByRole('textbox', { name: 'Billing City' })).not.toHaveAccessibleDescription(
    "Field can't be empty",
  );
  await expect(page.getByRole('textbox', { name: 'Billing Street' })).toHaveAccessibleDescription(
    "Field can't be empty",
  );

  const refused = async (card: Card, message: string) => {
    await fillCard(page, card);
    await save.click();
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  };
  await refused({ ...janesVisa, number: testCards.failsLuhn }, 'Invalid credit card number.');
  await refused(
    { ...janesVisa, number: testCards.mastercard },
    'The card number does not match the card type.',
  );
  await refused(
    { ...janesVisa, number: testCards.amex, type: 'American Express', cvv: '123' },
    'American Express cards have a 4-digit CVV code',
  );
  // In January no month of this year is past yet, so only this one check has nothing to try.
  if (thisMonth > 1) {
    await refused(
      { ...janesVisa, month: twoDigits(thisMonth - 1), year: String(thisYear) },
      'Something Wrong with Expiration Month',
    );
  }
  await refused(
    { ...janesVisa, month: twoDigits(thisMonth), year: String(thisYear) },
    'Please use credit card which has more than one year of expiry period remaining.',
  );
  await refused({ ...janesVisa, email: 'jane.doe@example' }, 'Invalid email.');

  const submissions: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/pay/set_PaymentInfo')) {
      submissions.push(request.url());
    }
  });
  await fillCard(page, janesVisa);
  await markPage(page);
  await save.dblclick();
  await expect(page.getByText(UPDATED)).toHaveCount(1);

  await expect(page.getByText('Credit Card ending in 4242')).toBeVisible();
  await expect(page.getByText('Name on card: Jane Doe')).toBeVisible();
  await expect(page.getByText(`Expires: 12 / ${thisYear + 3}`)).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Payment Information', exact: true })).toBeVisible();
  await expect(nav.getByText('No card on file')).toHaveCount(0);
  expect(submissions).toHaveLength(1);
  // The page showed the new card from a fresh read of the server, not from a reload.
  await expectNotReloaded(page);
  expect(await paymentInfoOnFile(page)).toMatchObject({
    Credit_Card_Number: '************4242',
    Credit_Card_Type: 'Visa',
  });
});

test('a card the gateway declines keeps the form filled and leaves the card on file as it was; on a phone the decline is under Save, in view and focused', async ({
  page,
}) => {
  await signIn(page, 'ACT10001');
  await openPaymentInformation(page);
  await page.setViewportSize({ width: 375, height: 740 });
  const onFile = page.getByText(/^Credit Card ending in /);
  const before = await onFile.textContent();
  const numberBefore = (await paymentInfoOnFile(page)).Credit_Card_Number;

  await page.getByRole('button', { name: 'Edit credit card' }).click();
  await fillCard(page, { ...janesVisa, number: testCards.declinedForInsufficientFunds });
  await page.getByRole('button', { name: 'Save' }).click();
  const decline = page.getByRole('form', { name: 'Credit card' }).getByRole('alert');
  await expect(decline).toContainText('insufficient funds');
  await expect(decline).toBeInViewport();
  await expect(page.locator(':focus')).toContainText('insufficient funds');
  // Under the button that caused it, where the eye is.
  const saveBox = await page.getByRole('button', { name: 'Save' }).boundingBox();
  const declineBox = await decline.boundingBox();
  expect(declineBox?.y ?? 0).toBeGreaterThan(saveBox?.y ?? Number.POSITIVE_INFINITY);
  // The form keeps what was typed.
  await expect(page.getByRole('textbox', { name: 'Credit Card Number' })).toHaveValue(
    grouped(testCards.declinedForInsufficientFunds),
  );
  await expect(page.getByText(UPDATED)).toHaveCount(0);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(onFile).toHaveText(before ?? '');
  await page.reload();
  await expect(onFile).toHaveText(before ?? '');
  expect((await paymentInfoOnFile(page)).Credit_Card_Number).toBe(numberBefore);
});

test('a bank account is refused with a wrong ABA routing number, then saved by ACH', async ({ page }) => {
  await signIn(page, 'ACT10001');
  await openPaymentInformation(page);
  await page.getByRole('button', { name: 'Edit ACH payment' }).click();
  await page.getByRole('textbox', { name: 'Name on Account' }).fill('Jane Doe');
  await page.getByRole('textbox', { name: 'Account Number' }).fill(testBankAccount.accountNumber);
  const routing = page.getByRole('textbox', { name: 'ABA Routing Number' });
  await routing.fill(testBankAccount.badRoutingNumber);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(routing).toHaveAccessibleDescription('Invalid ABA routing number');

  await routing.fill(testBankAccount.routingNumber);
  await markPage(page);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(UPDATED)).toBeVisible();
  await expect(page.getByText(/We charged/)).toHaveCount(0);
  await expect(page.getByText('Account Number Ending in *****6789')).toBeVisible();
  await expectNotReloaded(page);
  await expect(page.getByText('Name on account: Jane Doe')).toBeVisible();
  // Spec 1 section 2 shows the account's ending and the name only: no routing number.
  await expect(page.getByText(testBankAccount.routingNumber)).toHaveCount(0);
});

test('saving a card pays the overdue annual storage with the 3% fee and clears the overdue marks', async ({
  page,
  browser,
}) => {
  // The e-mailed link's public page shows Leo the same bill before he pays: $679.62 + 3% = $700.01.
  const linkContext = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const linkPage = await linkContext.newPage();
  await linkPage.goto('/updatepaymentinformation');
  await linkPage.getByRole('radio', { name: 'Client ID and Last Name' }).check();
  await linkPage.getByRole('textbox', { name: 'Client ID' }).fill('ACT10013');
  await linkPage.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Grant');
  await linkPage.getByRole('button', { name: 'Confirm Client Details' }).click();
  const due = linkPage.getByRole('group', { name: 'Amount Due' });
  // Two overdue years of $339.81 each ($679.62).
  await expect(due.getByText('$339.81')).toHaveCount(2);
  await expect(due).toContainText('Card processing fee (3%)$20.39');
  await expect(due).toContainText('Total charged when you save$700.01');
  await expect(linkPage.getByRole('button', { name: 'Pay $700.01 and save card' })).toBeVisible();
  await linkContext.close();

  await signIn(page, 'ACT10013');
  await openPaymentInformation(page);
  await expect(page.getByRole('alert')).toHaveText(
    'Total Amount Overdue = $679.62 (this amount is the sum of all annual storage overdue payments)',
  );
  await page.getByRole('button', { name: 'Edit credit card' }).click();
  await expect(page.getByText('$679.62 + $20.39 card processing fee (3%) = $700.01')).toBeVisible();

  await fillCard(page, {
    ...janesVisa,
    number: testCards.otherVisa,
    firstName: 'Leo',
    lastName: 'Grant',
    email: 'leo.grant@example.com',
    zip: '33131',
  });
  await markPage(page);
  await page.getByRole('button', { name: 'Pay $700.01 and save card' }).click();
  await expect(page.getByText(UPDATED)).toBeVisible();
  await expect(page.getByText(/We charged \$700\.01/)).toBeVisible();
  await expect(page.getByText('Name on card: Leo Grant')).toBeVisible();
  await expect(page.getByText(/Total Amount Overdue/)).toHaveCount(0);
  await expectNotReloaded(page);

  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Client Activity' })
    .click();
  // The day the payment was recorded, read now: a run that crosses midnight in New York (the journeys
  // start minutes before) would otherwise look for the day before.
  const usToday = isoToUsDate(todayFor(new Date()));
  const paid = page
    .getByRole('table', { name: 'Client Activity' })
    .getByRole('row')
    .filter({ hasText: usToday })
    .filter({ hasText: 'Annual Storage' });
  await expect(paid).toHaveCount(1);
  await expect(paid.getByRole('cell').nth(4)).toHaveText('Annual Storage');
  await expect(paid.getByRole('cell').nth(6)).toHaveText('$700.01');
  await expect(paid.getByRole('cell').nth(7)).toHaveText('Paid');
  // The receipt is a PDF the server draws from the ledger: the total and the card's last 4.
  const download = page.waitForEvent('download');
  await paid.getByRole('link', { name: `Download the receipt of $700.01 paid on ${usToday}` }).click();
  const receipt = await readFile((await (await download).path()) as string);
  const text = pageText(await PDFDocument.load(receipt), 0);
  expect(text).toContain('$700.01');
  expect(text).toContain(`ending in ${testCards.otherVisa.slice(-4)}`);

  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Client Information' })
    .click();
  await expect(shownValue(page, 'Annual Storage Paid Until')).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
  await expect(page.getByRole('checkbox', { name: 'Annual Storage Paid' })).toBeChecked();
  await expect(page.getByText(/Total Amount Overdue/)).toHaveCount(0);
  await expect(page.getByText(/overdue annual storage fee/)).toHaveCount(0);
});
