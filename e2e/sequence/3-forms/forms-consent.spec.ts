/**
 * The Client Consent Form, signed once by Jane (ACT10001). Runs in the sequence's forms step, after
 * the payment journeys: Jane then has the card they saved on file, and the page shows it by default.
 */
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { consentMessages } from '../../../src/domain/consent-form';
import { countRequests, drawSignature, expectSignedPdf } from '../../support/forms';
import { waitForMail } from '../../support/mail';
import { expectAccessible, expectNoSidewaysScroll, signIn } from '../../support/portal';
import { testCards } from '../../support/test-numbers';

/** Opens the consent, answers page 1 the short way (destroy the tissue, no medications) and goes on to page 2. */
async function openConsentAtPageTwo(page: Page) {
  await page.goto('/form-document/Consent-form');
  const form = page.getByRole('form', { name: 'Client Consent Form' });
  await form.getByRole('radio', { name: 'Destroy any Tissue' }).check();
  await form.getByRole('radio', { name: 'No', exact: true }).check();
  await form.getByRole('button', { name: 'Next Page' }).click();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();
  return form;
}

const SUBMITTED =
  'Please check your email for order confirmation. We are now getting the portal services ready for you!';

test("on a phone, Back, Forward and a reload keep the consent's answers (Jane, who signs it in the next journey)", async ({
  page,
}) => {
  await signIn(page, 'ACT10001');
  await page.setViewportSize({ width: 375, height: 740 });
  const form = await openConsentAtPageTwo(page);
  await expect(page).toHaveURL(/\/form-document\/Consent-form\?page=2$/);
  await expectNoSidewaysScroll(page);

  await page.goBack();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 1 of 2' })).toBeVisible();
  await expect(form.getByRole('radio', { name: 'Destroy any Tissue' })).toBeChecked();
  await expect(form.getByRole('radio', { name: 'No', exact: true })).toBeChecked();
  await page.goForward();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();

  await form.getByRole('radio', { name: 'Adipose' }).check();
  page.once('dialog', (dialog) => void dialog.accept());
  await page.reload();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();
  await expect(form.getByRole('radio', { name: 'Adipose' })).toBeChecked();
  await form.getByRole('button', { name: 'Previous Page' }).click();
  await expect(form.getByRole('radio', { name: 'Destroy any Tissue' })).toBeChecked();
  // The answers were kept as her draft on the server (issue 24), which would open the next
  // journey's consent with them: it starts afresh.
  expect((await page.request.delete('/api/pay/drafts/consent')).status()).toBe(200);
});

test('Jane signs her consent: page-1 refusals, the Addendum individual, an unsigned submit refused, the signature accepted, the PDF e-mailed and downloadable', async ({
  page,
}) => {
  const startedAt = Date.now();
  await signIn(page, 'ACT10001');
  const nav = page.getByRole('navigation', { name: 'Portal sections' });
  await expect(nav.getByRole('link', { name: 'Consent Form' })).toHaveAttribute('data-incomplete', 'true');
  await nav.getByRole('link', { name: 'Consent Form' }).click();
  await expect(page).toHaveURL(/\/form-document\/Consent-form$/);
  await expect(page.getByRole('heading', { name: 'Forms and Other Documents', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Client Consent Form' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('link', { name: /Update payment information/i })).toHaveAttribute(
    'href',
    '/payment-information',
  );
  const form = page.getByRole('form', { name: 'Client Consent Form' });
  await expect(form.getByText('Governing law and courts')).toBeVisible();
  await expect(form.getByText(/Miami-Dade County/).first()).toBeVisible();
  await expectAccessible(page);

  // Page 1 is refused until both questions are answered.
  await form.getByRole('button', { name: 'Next Page' }).click();
  await expect(form.getByText('Please Select One')).toHaveCount(2);
  await expect(form.getByRole('radio', { name: 'Destroy any Tissue' })).toBeFocused();

  // Releasing to an individual needs the individual.
  await form.getByRole('radio', { name: 'Release any Tissue to the following individual' }).check();
  await form.getByRole('radio', { name: 'Yes', exact: true }).check();
  await form.getByRole('button', { name: 'Next Page' }).click();
  await expect(form.getByText('Cannot be empty')).toHaveCount(6);
  await form.getByRole('textbox', { name: 'Name' }).fill('Robert Doe');
  await form.getByRole('textbox', { name: 'Date of Birth' }).fill('02/30/1990');
  await form.getByRole('textbox', { name: 'Address' }).fill('1200 Brickell Avenue, Miami, FL 33131');
  await form.getByRole('textbox', { name: 'Phone' }).fill('305-555-O199');
  await form.getByRole('textbox', { name: 'Relationship' }).fill('Brother');
  await form.getByRole('textbox', { name: 'Medications you are taking' }).fill('Atorvastatin 10 mg daily');
  await form.getByRole('button', { name: 'Next Page' }).click();
  await expect(form.getByText('Invalid date')).toBeVisible();
  await expect(form.getByText('Please insert only number')).toBeVisible();
  await form.getByRole('textbox', { name: 'Date of Birth' }).fill('04/18/1971');
  await form.getByRole('textbox', { name: 'Phone' }).fill('3055550199');
  await form.getByRole('button', { name: 'Next Page' }).click();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();

  // Back and forth keeps the answers.
  await form.getByRole('button', { name: 'Previous Page' }).click();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Robert Doe');
  await form.getByRole('button', { name: 'Next Page' }).click();
  // The page is in the address: Back shows page 1 with its answers, Forward page 2 again.
  await expect(page).toHaveURL(/\/form-document\/Consent-form\?page=2$/);
  await page.goBack();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 1 of 2' })).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Robert Doe');
  await page.goForward();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();

  // A look at the other tab loses nothing. Back from it shows the consent's page 2 again.
  const consentTab = page.getByRole('tab', { name: 'Client Consent Form' });
  const diseaseTab = page.getByRole('tab', { name: 'Infectious Disease Form' });
  await diseaseTab.click();
  await expect(page).toHaveURL(/\/form-document\/Infectious-disease$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/form-document\/Consent-form\?page=2$/);
  await expect(consentTab).toHaveAttribute('aria-selected', 'true');
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();
  // A round trip through the tabs leaves no step behind: Back then undoes the consent's last page
  // move (page 1, its answers kept), never the other tab; Forward shows page 2 again. A double
  // click on the tab is one switch.
  await diseaseTab.click();
  await expect(page).toHaveURL(/\/form-document\/Infectious-disease$/);
  await consentTab.dblclick();
  await expect(page).toHaveURL(/\/form-document\/Consent-form\?page=2$/);
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/form-document\/Consent-form\?page=1$/);
  await expect(consentTab).toHaveAttribute('aria-selected', 'true');
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 1 of 2' })).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Robert Doe');
  await page.goForward();
  await expect(page).toHaveURL(/\/form-document\/Consent-form\?page=2$/);
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();

  // A reload asks first, then keeps the answers of both pages for the session.
  await form.getByRole('radio', { name: 'Adipose' }).check();
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();
  expect(asked).toEqual(['beforeunload']);
  await expect(form.getByRole('radio', { name: 'Adipose' })).toBeChecked();
  await form.getByRole('button', { name: 'Previous Page' }).click();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Robert Doe');
  await expect(form.getByRole('textbox', { name: 'Relationship' })).toHaveValue('Brother');
  await expect(form.getByRole('textbox', { name: 'Medications you are taking' })).toHaveValue(
    'Atorvastatin 10 mg daily',
  );
  await form.getByRole('button', { name: 'Next Page' }).click();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();

  // Leaving for another page asks first; staying keeps the form as it was.
  await nav.getByRole('link', { name: 'Client Activity' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave this page?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(/\/form-document\/Consent-form\?page=2$/);
  await expect(form.getByRole('radio', { name: 'Adipose' })).toBeChecked();

  // Page 2: the physician, the client, the saved card shown by default, $0.00 today.
  await expect(form.getByText('PHY20001')).toBeVisible();
  await expect(form.getByText('Alvarez')).toBeVisible();
  await expect(form.getByText(/ACT10001/).first()).toBeVisible();
  await form.getByRole('radio', { name: 'Adipose' }).check();
  await expect(form.getByRole('radio', { name: 'Credit Card', exact: true })).toBeChecked();
  await expect(form.getByText(/^(Visa|Mastercard|American Express|Discover) \*{12}\d{4}$/)).toBeVisible();
  await expect(form.getByText('Total owed today: $0.00')).toBeVisible();
  await expect(form.getByText(/your card is charged \$350\.00 each year/)).toBeVisible();

  // Without the agreement box and an accepted signature, nothing is sent.
  const consentCalls = countRequests(page, '/api/pay/send_ConsentData');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Please Check')).toBeVisible();
  await expect(form.getByText('Please sign and click on Accept.').first()).toBeVisible();
  expect(consentCalls()).toBe(0);

  // Accept on an empty pad is refused; a drawn signature is accepted; drawing again takes it back.
  await form.getByRole('checkbox', { name: /I have read and agree/ }).check();
  await form.getByRole('button', { name: 'Clear' }).click();
  await form.getByRole('button', { name: 'Accept' }).click();
  await expect(form.getByText('Please sign and click on Accept.').first()).toBeVisible();
  await drawSignature(page);
  await form.getByRole('button', { name: 'Accept' }).click();
  await expect(form.getByText('Signature accepted successfully.')).toBeVisible();
  await drawSignature(page);
  await expect(form.getByText('Signature accepted successfully.')).toBeHidden();
  await form.getByRole('button', { name: 'Accept' }).click();
  await expect(form.getByText('Signature accepted successfully.')).toBeVisible();

  // A double click sends one submission.
  await form.getByRole('button', { name: 'Submit' }).dblclick();
  await expect(page.getByText(SUBMITTED)).toBeVisible();
  await expect(
    page.getByText(
      'Your consent is signed and saved. The signed agreement is below, and a copy is on its way to you by e-mail.',
    ),
  ).toBeVisible();
  expect(consentCalls()).toBe(1);
  // Each form reads where it stands: the consent done, the screening still to do, and only the
  // screening's link red.
  await expect(page.getByRole('tab', { name: 'Client Consent Form' })).toContainText('Done');
  await expect(page.getByRole('tab', { name: 'Infectious Disease Form' })).toContainText('To do');
  await expect(nav.getByRole('link', { name: 'Consent Form' })).not.toHaveAttribute(
    'data-incomplete',
    'true',
  );
  await expect(nav.getByRole('link', { name: 'Infectious Disease' })).toHaveAttribute(
    'data-incomplete',
    'true',
  );

  // The signed agreement arrives over SMTP as a PDF, and the same PDF downloads from the page.
  const mail = await waitForMail('jane.doe@example.com', /signed consent agreement/, startedAt);
  const attached = mail.attachments.find((a) => a.contentType === 'application/pdf');
  expect(attached, 'the e-mail carries the signed PDF').toBeDefined();
  const emailed = attached?.content ?? Buffer.alloc(0);
  await expectSignedPdf(emailed, [
    'Client Consent and Service Agreement',
    'Robert Doe',
    'Atorvastatin 10 mg daily',
    'Certificate of signature',
    'Jane Doe (Client ID ACT10001)',
    'SHA-256 of the text signed',
  ]);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download signed agreement (PDF)' }).click();
  const downloaded = fs.readFileSync((await (await download).path()) as string);
  expect(downloaded.equals(emailed)).toBe(true);

  // After a reload the form stays signed; the navigation no longer marks the consent as missing.
  await page.reload();
  await expect(page.getByText('You have already completed this form. Thank you.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download signed agreement (PDF)' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Client Consent Form' })).toHaveCount(0);
});

// Ana's consent is left unsigned here: forms-physician-consent.spec.ts (next in this folder) has Dr. Alvarez submit it for her in the clinic, with a new card kept on her file.
test('on a phone Ana fills her consent with a new Mastercard: the spec messages, a 500 x 100 pad, the page fits the screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page, 'ACT10003');
  const form = await openConsentAtPageTwo(page);
  await form.getByRole('radio', { name: 'Bone-Marrow' }).check();
  await form.getByRole('radio', { name: 'Credit Card', exact: true }).check();

  // No card is on file, so the card form is open; the spec's consent messages come first.
  await form.getByRole('checkbox', { name: /I have read and agree/ }).check();
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Please enter credit card number')).toBeVisible();
  await expect(form.getByText('Please enter first name')).toBeVisible();

  await form.getByRole('textbox', { name: 'Credit Card Number' }).fill(testCards.mastercard);
  await form.getByRole('combobox', { name: 'Card Type' }).click();
  await page.getByRole('option', { name: 'Mastercard', exact: true }).click();
  await form.getByRole('textbox', { name: 'CVV', exact: true }).fill('123');
  await form.getByRole('combobox', { name: 'Expiry Month' }).click();
  await page.getByRole('option', { name: '12', exact: true }).click();
  await form.getByRole('combobox', { name: 'Expiry Year' }).click();
  await page.getByRole('option', { name: String(new Date().getFullYear() + 3), exact: true }).click();
  await form.getByRole('textbox', { name: 'Billing First Name' }).fill('Ana');
  await form.getByRole('textbox', { name: 'Billing Last Name' }).fill('Lima');
  await form.getByRole('textbox', { name: 'Billing Email' }).fill('ana.lima@example.com');
  await form.getByRole('textbox', { name: 'Billing Street' }).fill('4000 Ponce de Leon Boulevard');
  await form.getByRole('textbox', { name: 'Billing City' }).fill('Coral Gables');
  await form.getByRole('textbox', { name: 'Billing State' }).fill('FL');
  await form.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33134');
  const keep = form.getByRole('checkbox', { name: 'Save this card on file for future payments' });
  await expect(keep).toBeChecked();
  // Ana has nothing on file: a card not kept could not pay the annual fee, and the page says so.
  await keep.uncheck();
  await expect(form.getByTestId('annual-fee-problem')).toHaveText(consentMessages.annualFeeNeedsCardOnFile);
  await keep.check();
  await expect(form.getByTestId('annual-fee-problem')).toHaveCount(0);

  const canvas = page.locator('[data-testid="signature-canvas"]:visible');
  const box = await canvas.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(375);
  expect(Math.round((box?.width ?? 0) / (box?.height ?? 1))).toBe(5);
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);

  await drawSignature(page);
  await form.getByRole('button', { name: 'Accept' }).click();
  await expect(form.getByText('Signature accepted successfully.')).toBeVisible();
  await expectNoSidewaysScroll(page);

  // What a reload would keep is the server's draft: the answers, never the card or the signature;
  // nothing is left in the tab's storage.
  await expect
    .poll(async () => JSON.stringify(await (await page.request.get('/api/pay/drafts/consent')).json()))
    .toContain('Destroy any Tissue');
  const kept = JSON.stringify(await (await page.request.get('/api/pay/drafts/consent')).json());
  expect(await page.evaluate(() => Object.values(sessionStorage).join('\n'))).not.toContain(
    'Destroy any Tissue',
  );
  expect(kept.replace(/\D/g, '')).not.toContain(testCards.mastercard);
  expect(kept).not.toContain('data:image');
});
