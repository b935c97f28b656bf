import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { addMonths, isoDateOf, isoToUsDate } from '../../../src/domain/dates';
import { formatUsd } from '../../../src/domain/money';
import {
  newbornAgreementMessages as m,
  monthlyPaymentCents,
  NEWBORN_PAYMENT_AUTHORIZATION,
} from '../../../src/domain/newborn-agreement';
import { DEMO_NEWBORN_AGREEMENT_ID, DEMO_NEWBORN_FIGURES as f } from '../../../src/server/db/seed-newborn';
import { createAgreementLinkToken } from '../../../src/server/lib/link-tokens';
import { countRequests, drawSignature, expectSignedPdf } from '../../support/forms';
import { waitForMail } from '../../support/mail';
import { expectAccessible, expectNoSidewaysScroll } from '../../support/portal';
import { signInAsDemoAdmin } from '../../support/staff';

// The e2e server signs links with this key (playwright.config.ts sets LINK_SECRET).
const E2E_LINK_SECRET = 'e2e-link-secret-with-at-least-32-characters';

async function fillCard(page: Page, number = '4242424242424242') {
  await page.getByRole('textbox', { name: 'Credit Card Number' }).fill(number);
  await page.getByRole('combobox', { name: 'Card Type' }).click();
  await page.getByRole('option', { name: 'Visa' }).click();
  await page.getByRole('textbox', { name: 'CVV' }).fill('123');
  await page.getByRole('combobox', { name: 'Expiry Month' }).click();
  await page.getByRole('option', { name: '12' }).click();
  await page.getByRole('combobox', { name: 'Expiry Year' }).click();
  await page.getByRole('option', { name: String(new Date().getFullYear() + 3) }).click();
  await page.getByRole('textbox', { name: 'Billing First Name' }).fill('Linh');
  await page.getByRole('textbox', { name: 'Billing Last Name' }).fill('Nguyen');
  await page.getByRole('textbox', { name: 'Billing Email' }).fill('linh.nguyen@example.com');
  await page.getByRole('textbox', { name: 'Billing Street' }).fill('2100 Coral Way');
  await page.getByRole('textbox', { name: 'Billing City' }).fill('Miami');
  await page.getByRole('textbox', { name: 'Billing State' }).fill('FL');
  await page.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33145');
}

/**
 * The newborn finance agreement (spec 3; issues 10 and 21): Linh Nguyen, the main contact of Mia Nguyen
 * (ACT10020, seeded for this journey alone), opens the link sent to her, reads the plan and its
 * payment schedule, gives a card and the authorization, signs it on her phone and pays the deposit
 * ($250.00 and the 3% card fee) once; she receives the signed PDF with the schedule and the
 * receipt; the link then shows the agreement completed.
 */
test('the newborn finance agreement is signed once from its link with a card: the schedule, the deposit charged, the signed PDF e-mailed', async ({
  page,
}) => {
  const monthly = formatUsd(
    monthlyPaymentCents(f.totalFinancedCents, f.interestRateBasisPoints, f.installments),
  );
  expect(monthly).toBe('$229.80');

  // No link, or a link not made by the bank: nothing is shown.
  await page.goto('/newbornfinanceagreement');
  await expect(page.getByRole('heading', { name: 'Newborn Finance Agreement', level: 1 })).toBeVisible();
  const badLink = page.getByRole('alert');
  // The spec's sentence, then what happened and whom to ask for a new link.
  await expect(badLink).toContainText('Client id is not valid');
  await expect(badLink).toContainText('ask the bank for a new one and it will be e-mailed to you.');
  await expect(badLink).toContainText('Call (305) 555-0100 or write to ACT.');
  const link = createAgreementLinkToken(
    Buffer.from(E2E_LINK_SECRET, 'utf8'),
    DEMO_NEWBORN_AGREEMENT_ID,
    new Date(),
  );
  await page.goto(`/newbornfinanceagreement/${link.slice(0, -2)}xx`);
  await expect(page.getByRole('alert')).toContainText('Client id is not valid');
  await expect(page.getByText('Linh Nguyen')).toHaveCount(0);

  await page.goto(`/newbornfinanceagreement/${link}`);
  const figures = page.getByRole('table');
  for (const [label, value] of [
    ['Main contact', 'Linh Nguyen'],
    ['Patient ID', 'ACT10020'],
    ['Annual banking fee', '$175.00'],
    ['Bio-Insurance fee', '$250.00'],
    ['Down payment', '$250.00'],
    ['Initial processing fee', '$2,495.00'],
    ['Interest rate', '6%'],
    ['Number of installments', '12'],
    ['Total amount financed', '$2,670.00'],
    ['Monthly payment', monthly],
  ]) {
    await expect(figures.getByRole('row', { name: `${label} ${value}` })).toBeVisible();
  }
  await expect(
    page.getByText('An initial non-refundable deposit of $250.00 is due at signup.'),
  ).toBeVisible();
  await expect(page.getByText('Payments made by credit card add a 3% card processing fee.')).toBeVisible();

  // The schedule, as it falls when signed today: 12 installments from one month after the deposit.
  const today = isoDateOf(new Date());
  const schedule = page.getByTestId('payment-schedule');
  await expect(page.getByRole('heading', { name: 'Payment schedule' })).toBeVisible();
  await expect(schedule.getByRole('columnheader')).toHaveText([
    'Date',
    'Payment',
    'Interest',
    'Principal',
    'Balance',
  ]);
  await expect(schedule.getByRole('row')).toHaveCount(13);
  await expect(schedule.getByRole('row').nth(1)).toHaveText(
    `${isoToUsDate(addMonths(today, 1))}$229.80$13.35$216.45$2,453.55`,
  );
  await expect(schedule.getByRole('row').nth(12)).toContainText(isoToUsDate(addMonths(today, 12)));
  await expect(schedule.getByRole('row').nth(12)).toContainText('$0.00');

  // The button names what it takes: $250.00 and the 3% card fee; by ACH the deposit alone.
  const pay = page.getByRole('button', { name: 'Sign and pay $257.50' });
  await expect(pay).toBeVisible();
  await page.getByRole('radio', { name: 'ACH Payment' }).check();
  await expect(page.getByRole('button', { name: 'Sign and pay $250.00' })).toBeVisible();
  await page.getByRole('radio', { name: 'Credit Card' }).check();
  await expect(pay).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  // A reload before signing opens the same agreement from the link in the address (issue 24).
  await page.reload();
  await expect(figures.getByRole('row', { name: 'Main contact Linh Nguyen' })).toBeVisible();
  await expect(figures.getByRole('row', { name: 'Down payment $250.00' })).toBeVisible();
  await expect(pay).toBeVisible();

  // On a phone: no sideways scrolling; signing with nothing given is refused, field by field.
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await pay.click();
  await expect(page.getByText(m.signature)).toBeVisible();
  await expect(page.getByText(m.authorize)).toBeVisible();
  await fillCard(page);
  await page.getByRole('checkbox', { name: NEWBORN_PAYMENT_AUTHORIZATION }).check();
  await expect(page.getByText(m.authorize)).toHaveCount(0);
  await drawSignature(page);
  await page.getByRole('button', { name: 'Click to Confirm Signature' }).click();
  await expect(page.getByText(m.signatureAccepted)).toBeVisible();
  await expect(page.getByText(m.signature)).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/newborn-agreement-375.png', fullPage: true });

  const since = Date.now();
  const posts = countRequests(page, 'set_Client_Agreement_service');
  await pay.dblclick();
  await expect(page.getByText(m.completed)).toBeVisible();
  await expect(page.getByTestId('deposit-charged')).toContainText('We charged the deposit of $257.50');
  expect(posts()).toBe(1);
  // The done page says where the signed copy went and offers it, with the deposit's receipt.
  const done = page.getByRole('status');
  await expect(done).toContainText(
    'Your signed agreement, with the payment schedule, was e-mailed to the main contact. You can also download a copy here.',
  );
  await expect(done.getByRole('link', { name: 'Download the signed agreement' })).toBeVisible();
  await expect(done.getByRole('link', { name: 'Download the deposit receipt' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/newborn-agreement-done-375.png', fullPage: true });
  // A reload after paying shows the agreement signed, not the form.
  await page.reload();
  await expect(page.getByText(m.completed)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download the deposit receipt' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Sign/ })).toHaveCount(0);

  // The signed copy and the receipt, e-mailed to the main contact: the plan's figures, the terms,
  // the schedule, the authorization, the signature and the certificate page.
  const mail = await waitForMail('linh.nguyen@example.com', /Newborn Finance Agreement/, since);
  expect(mail.text).toContain('We charged the deposit of $257.50 to your Visa ending 4242.');
  expect(mail.text).toContain(`the first of $229.80 on ${isoToUsDate(addMonths(today, 1))}`);
  expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
    ['Newborn finance agreement ACT10020.pdf', 'application/pdf'],
    ['receipt.pdf', 'application/pdf'],
  ]);
  await expectSignedPdf(mail.attachments[0]?.content as Buffer, [
    'Newborn Finance Agreement',
    'Linh Nguyen',
    'ACT10020',
    '$2,495.00',
    '$2,670.00',
    `Monthly payment`,
    monthly,
    'non-refundable deposit of $250',
    'late charge of $50',
    'Payment schedule',
    isoToUsDate(addMonths(today, 1)),
    'Payment method: Visa ending 4242.',
  ]);

  // A second visit of the link: the agreement is completed, and cannot be signed again.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/newbornfinanceagreement/${link}`);
  await expect(page.getByText(m.completed)).toBeVisible();
  await expect(page.getByRole('button', { name: /Sign/ })).toHaveCount(0);
  const [signedCopy] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download the signed agreement' }).click(),
  ]);
  await expectSignedPdf(await readFile((await signedCopy.path()) as string), [
    'Newborn Finance Agreement',
    'Linh Nguyen',
    'ACT10020',
  ]);
  const [receipt] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download the deposit receipt' }).click(),
  ]);
  expect(receipt.suggestedFilename()).toMatch(/^receipt-ACT10020-.+\.pdf$/);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/newborn-agreement-done-1280.png', fullPage: true });
  const again = await page.request.post('/api/pay/set_Client_Agreement_service', {
    headers: { origin: new URL(page.url()).origin, 'idempotency-key': `agreement-again-${Date.now()}` },
    data: {
      ClientId: link,
      signatureData: 'data:image/png;base64,iVBORw0KGgo=',
      NBAgreementCompleted: true,
      authorizeCharges: true,
      Payment_Type: 'ACH',
      token: { descriptor: 'sandbox', value: 'unused' },
      Name_On_Account: 'Linh Nguyen',
      ABA_Routing_Number: '110000000',
    },
  });
  expect(again.status()).toBe(409);
});

/**
 * A month later (issue 21): the billing run, as of the first installment's date and limited to Mia,
 * reminds Linh 3 days before and charges the installment to the card kept at signing, with its
 * receipt; staff see the schedule with the installment paid on Mia's record.
 */
test('the billing run a month later charges the first installment, and staff see it on the client record', async ({
  page,
}) => {
  const today = isoDateOf(new Date());
  const due = addMonths(today, 1);
  await signInAsDemoAdmin(page);
  const since = Date.now();
  const run = await page.request.post('/api/staff/billing/run', {
    headers: { origin: new URL(page.url()).origin, 'idempotency-key': `newborn-run-${Date.now()}` },
    data: { asOf: due, clients: ['ACT10020'] },
  });
  expect(run.status(), await run.text()).toBe(200);
  expect((await run.json()).installments).toMatchObject({ reminders: 1, charges: 1, declines: 0 });

  const reminder = await waitForMail(
    'linh.nguyen@example.com',
    /Reminder: your newborn finance installment/,
    since,
  );
  expect(reminder.text).toContain(`On ${isoToUsDate(due)} we will charge $236.69 to your Visa ending 4242`);
  // $229.80 and the 3% card fee.
  const receipt = await waitForMail(
    'linh.nguyen@example.com',
    /Receipt: your newborn finance installment/,
    since,
  );
  expect(receipt.text).toContain('We charged $236.69 to your Visa ending 4242 for installment 1 of 12');
  expect(receipt.attachments.map((a) => a.filename)).toEqual(['receipt.pdf']);

  await page.goto('/staff/clients/ACT10020');
  const section = page.getByRole('region', { name: 'Newborn finance agreements' });
  await expect(section).toContainText('deposit $257.50 paid');
  const rows = section.getByTestId('newborn-installments').getByRole('row');
  await expect(rows).toHaveCount(13);
  await expect(rows.nth(1)).toContainText(`Paid ${isoToUsDate(due)} ($236.69)`);
  await expect(rows.nth(2)).toContainText('Due');
  await expectAccessible(page);
});
