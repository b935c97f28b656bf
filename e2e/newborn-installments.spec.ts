import { expect, type Page, test } from '@playwright/test';
import { addDays, addMonths, isoDateOf } from '../src/domain/dates';
import { NEWBORN_PAYMENT_AUTHORIZATION } from '../src/domain/newborn-agreement';
import { INSTALLMENT_METHOD_AUTHORIZATION } from '../src/domain/newborn-installments';
import { newClientByCheck, usDate } from './support/clients';
import { drawSignature } from './support/forms';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

async function fillCard(page: Page, number: string) {
  await page.getByRole('textbox', { name: 'Credit Card Number' }).fill(number);
  await page.getByRole('combobox', { name: 'Card Type' }).click();
  await page.getByRole('option', { name: 'Visa' }).click();
  await page.getByRole('textbox', { name: 'CVV' }).fill('123');
  await page.getByRole('combobox', { name: 'Expiry Month' }).click();
  await page.getByRole('option', { name: '12' }).click();
  await page.getByRole('combobox', { name: 'Expiry Year' }).click();
  await page.getByRole('option', { name: String(new Date().getFullYear() + 3) }).click();
  await page.getByRole('textbox', { name: 'Billing First Name' }).fill('Rosa');
  await page.getByRole('textbox', { name: 'Billing Last Name' }).fill('Vega');
  await page.getByRole('textbox', { name: 'Billing Email' }).fill('rosa.vega@example.com');
  await page.getByRole('textbox', { name: 'Billing Street' }).fill('2100 Coral Way');
  await page.getByRole('textbox', { name: 'Billing City' }).fill('Miami');
  await page.getByRole('textbox', { name: 'Billing State' }).fill('FL');
  await page.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33145');
}

async function changeMethod(page: Page, number: string, last4: string) {
  await page.getByRole('button', { name: 'Change the payment method' }).click();
  const form = page.getByRole('form', { name: 'Change the payment method' });
  await fillCard(page, number);
  await form.getByRole('checkbox', { name: INSTALLMENT_METHOD_AUTHORIZATION }).check();
  await form.getByRole('button', { name: 'Save the payment method' }).click();
  await expect(
    page.getByText(`The payment method for your installments is updated. Visa ending ${last4}.`),
  ).toBeVisible();
  await expect(page.getByText(`Your installments are charged to your Visa ending ${last4}.`)).toBeVisible();
}

const at = async (page: Page, width: number, name: string) => {
  await page.setViewportSize({ width, height: 900 });
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: `test-results/${name}-${width}.png`, fullPage: true });
};

/**
 * Newborn installments after signing (issue 21), on a newborn client this journey registers: the
 * main contact signs, then gives a card that declines; the billing run, limited to the client, tries
 * the first installment on its date and on days 3, 7 and 14, and it is overdue: the main contact is
 * e-mailed its amount with a link, and staff see it on the Billing page and send the link again. From
 * the link the main contact sees the schedule, gives a new card, pays the overdue installment, then
 * pays the balance off early; each once.
 */
test('an overdue installment is e-mailed and on the Billing page; its link pays it, changes the card and pays the balance off', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  const email = `rosa.${run}@example.com`;
  const clientId = await newClientByCheck(
    browser,
    { first: 'Theo', last: `Vega${run}`, email, dob: usDate(-20) },
    run,
  );
  await signInAsDemoAdmin(page);
  const since = Date.now();
  // 12 installments of $100.00 (no interest), a $250.00 deposit.
  const sent = await page.request.post('/api/staff/send_agreement_link', {
    headers: { origin: new URL(page.url()).origin },
    data: {
      clientId,
      mainContact: 'Rosa Vega',
      patientId: clientId,
      annualBankingFeeCents: 17_500,
      bioInsuranceFeeCents: 0,
      downPaymentCents: 25_000,
      initialProcessingFeeCents: 120_000,
      interestRateBasisPoints: 0,
      installments: 12,
      totalFinancedCents: 120_000,
    },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const invitation = await waitForMail(email, /Newborn Finance Agreement/, since);
  const link = /https?:\/\/\S+\/newbornfinanceagreement\/[\w.-]+/.exec(invitation.text)?.[0] as string;

  const contact = await (await browser.newContext()).newPage();
  await contact.setViewportSize({ width: 1280, height: 900 });
  await contact.goto(new URL(link).pathname);
  await fillCard(contact, '4242424242424242');
  await contact.getByRole('checkbox', { name: NEWBORN_PAYMENT_AUTHORIZATION }).check();
  await drawSignature(contact);
  await contact.getByRole('button', { name: 'Click to Confirm Signature' }).click();
  await contact.getByRole('button', { name: 'Sign and pay $257.50' }).click();
  await expect(contact.getByText('Newborn Agreement is Updated Successfully')).toBeVisible();

  // The schedule under the done notice: 12 installments due, the balance payable off now.
  const schedule = contact.getByRole('table', { name: 'Your payment schedule' });
  await expect(schedule.getByRole('row')).toHaveCount(13);
  await expect(schedule.getByRole('row').nth(1)).toContainText('$100.00Due');
  await expect(contact.getByRole('button', { name: 'Pay off $1,236.00' })).toBeVisible();
  // A card whose charges the sandbox declines, for the installments.
  await changeMethod(contact, '4000000000000341', '0341');

  // The billing run to day 14 after the first installment's date: declined four times, overdue.
  const due = addMonths(isoDateOf(new Date()), 1);
  const ranAt = Date.now();
  const ran = await page.request.post('/api/staff/billing/run', {
    headers: { origin: new URL(page.url()).origin, 'idempotency-key': `installments-${run}` },
    data: { asOf: addDays(due, 14), clients: [clientId] },
  });
  expect(ran.status(), await ran.text()).toBe(200);
  expect((await ran.json()).installments).toMatchObject({ charges: 0, declines: 4 });
  const overdueMail = await waitForMail(email, /Your newborn finance installment is overdue/, ranAt);
  expect(overdueMail.text).toContain('is overdue: $100.00 is due.');
  const payLink = /https?:\/\/\S+\/newbornfinanceagreement\/[\w.-]+/.exec(overdueMail.text)?.[0] as string;
  expect(payLink).toBeDefined();

  // Staff: the Billing page counts it and lists it in its table, with "Send payment link".
  await page.goto('/staff/billing');
  const installments = page.getByRole('region', { name: 'Newborn installments' });
  await expect(installments.getByRole('table', { name: 'Newborn installments' })).toBeVisible();
  const card = installments
    .getByRole('table', { name: 'Overdue installments' })
    .getByRole('row')
    .filter({ hasText: clientId });
  await expect(card).toContainText('Rosa Vega');
  await expect(card).toContainText('1 of 12');
  await expect(card).toContainText('$100.00');
  await expect(card).toContainText('Generic decline');
  const resentAt = Date.now();
  await card.getByRole('button', { name: /^Send payment link/ }).click();
  await expect(card.getByRole('status')).toHaveText(/Payment link e-mailed to r\*\*\*@example\.com\./);
  await waitForMail(email, /Your newborn finance installment is overdue/, resentAt);
  await card.scrollIntoViewIfNeeded();
  await at(page, 1280, 'billing-installments');
  await at(page, 375, 'billing-installments');

  // The main contact follows the e-mailed link: the first installment overdue.
  await contact.goto(new URL(payLink).pathname);
  await expect(schedule.getByRole('row').nth(1)).toContainText('Overdue');
  await expect(contact.getByRole('button', { name: 'Pay the overdue $103.00' })).toBeVisible();
  await at(contact, 375, 'agreement-account-overdue');
  await contact.setViewportSize({ width: 1280, height: 900 });
  await changeMethod(contact, '4242424242424242', '4242');
  await contact.getByRole('button', { name: 'Pay the overdue $103.00' }).dblclick();
  await expect(
    contact.getByText(/^Your overdue installments are paid\. Thank you\. We charged \$103\.00/),
  ).toBeVisible();
  await expect(schedule.getByRole('row').nth(1)).toContainText('Paid');
  await expect(contact.getByRole('button', { name: /Pay the overdue/ })).toHaveCount(0);
  await at(contact, 1280, 'agreement-account-paid');

  // The balance off early: 11 installments of principal ($1,100.00) and the card fee.
  await contact.getByRole('button', { name: 'Pay off $1,133.00' }).click();
  await expect(
    contact.getByText(/^Your agreement is paid off\. Thank you\. We charged \$1,133\.00/),
  ).toBeVisible();
  await contact.reload();
  await expect(schedule.getByRole('row').filter({ hasText: 'Paid' })).toHaveCount(12);
  await expect(contact.getByText('Nothing is owed on this agreement now.')).toBeVisible();
  await at(contact, 375, 'agreement-account-paid-off');
  const receipt = await waitForMail(email, /Receipt: your Newborn Finance Agreement is paid off/, resentAt);
  expect(receipt.text).toContain('We charged $1,133.00 to your Visa ending 4242');
});
