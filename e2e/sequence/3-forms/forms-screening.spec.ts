/**
 * The Infectious Disease Form, each route by a different client (a form is submitted once):
 * Jane pays White Glove Labs with the Visa the payment journeys left on file (this file runs after
 * forms-consent.spec.ts, so her consent is signed and both forms end done); Ana uploads a lab report
 * after two refused files; Sam, whose initial processing is not paid, signs a waiver.
 */
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { countRequests, drawSignature, expectSignedPdf } from '../../support/forms';
import { waitForMail } from '../../support/mail';
import { expectAccessible, expectNoSidewaysScroll, signIn } from '../../support/portal';

const SUBMITTED = 'Please check your email for order confirmation';
const SAVED =
  'Your infectious disease screening form is submitted and saved. Your submission is below, and a copy is on its way to you by e-mail.';
const COMPLETED = 'You have already completed this form. Thank you';

async function openScreening(page: Page) {
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Infectious Disease' })
    .click();
  await expect(page).toHaveURL(/\/form-document\/Infectious-disease$/);
  await expect(page.getByRole('tab', { name: 'Infectious Disease Form' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  return page.getByRole('form', { name: 'Infectious Disease Form' });
}

async function chooseOption(page: Page, option: string) {
  await page.getByRole('combobox', { name: 'Submission Option' }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function labReportPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Sunshine Diagnostics: infectious disease panel, all results negative', {
    x: 50,
    y: 700,
    size: 12,
    font,
  });
  return Buffer.from(await doc.save());
}

test('Jane pays White Glove Labs with her saved card, for the amount the server computed', async ({
  page,
}) => {
  const startedAt = Date.now();
  await signIn(page, 'ACT10001');
  const form = await openScreening(page);
  await expect(form.getByText(/14 days/).first()).toBeVisible();
  await expect(form.getByRole('table')).toContainText('Local Lab');

  // Submit with nothing chosen: the option and the terms are asked for.
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Please Select', { exact: true })).toBeVisible();
  await expect(form.getByText('Please Check')).toBeVisible();

  await chooseOption(page, 'White Glove Labs');
  await expect(form.getByRole('textbox', { name: 'First Name' })).toHaveValue('Jane');
  await expect(form.getByRole('radio', { name: 'Credit Card', exact: true })).toBeChecked();
  await form.getByRole('radio', { name: 'ACH Payment', exact: true }).check();
  await expect(form.getByText(/Total: \$399\.00/)).toBeVisible();
  await form.getByRole('radio', { name: 'Credit Card', exact: true }).check();
  // The card the payment journeys left on file, shown by its last 4 digits only.
  const onFile = form.getByText(/^(Visa|Mastercard|American Express|Discover) \*{12}\d{4}$/);
  await expect(onFile).toBeVisible();
  const last4 = ((await onFile.textContent()) ?? '').slice(-4);
  await expect(form.getByText(/White Glove Labs fee: \$399\.00$/)).toBeVisible();
  await expect(form.getByText(/processing fee \(3%\): \$11\.97/)).toBeVisible();
  await expect(form.getByText(/Total: \$410\.97/)).toBeVisible();
  await expectAccessible(page);

  await form
    .getByRole('checkbox', { name: 'I agree to the Infectious Disease Terms and Conditions' })
    .check();
  const calls = countRequests(page, '/api/pay/set_DiseaseData');
  await form.getByRole('button', { name: 'Pay $410.97' }).dblclick();
  await expect(page.getByText(SUBMITTED, { exact: true })).toBeVisible();
  expect(calls()).toBe(1);

  const mail = await waitForMail('jane.doe@example.com', /infectious disease screening form/, startedAt);
  expect(mail.text).toContain('We charged $410.97 for White Glove Labs');
  const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf')?.content;
  await expectSignedPdf(
    pdf ?? Buffer.alloc(0),
    ['White Glove Labs', `ending in ${last4}`, 'Certificate of signature'],
    {
      signature: false,
    },
  );

  // The charge is in Client Activity; with consent signed too, Forms is no longer marked red.
  const nav = page.getByRole('navigation', { name: 'Portal sections' });
  await expect(nav.getByRole('link', { name: 'Consent Form' })).not.toHaveAttribute(
    'data-incomplete',
    'true',
  );
  await expect(nav.getByRole('link', { name: 'Infectious Disease' })).not.toHaveAttribute(
    'data-incomplete',
    'true',
  );
  await nav.getByRole('link', { name: 'Client Activity' }).click();
  await expect(page.getByRole('row', { name: /White Glove Labs/ })).toContainText('$410.97');

  await page.goto('/form-document/Infectious-disease');
  await expect(page.getByText(COMPLETED, { exact: true })).toBeVisible();
  await expect(page.getByText('Submission option: White Glove Labs')).toBeVisible();
});

test('Ana uploads her lab report: a text file named .pdf and a 600 KB file are refused, a real PDF is kept', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page, 'ACT10003');
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  const form = await openScreening(page);
  await expect(form.getByRole('table')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await chooseOption(page, 'Local Lab Submission');
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  const fileInput = form.locator('input[type="file"]');

  await fileInput.setInputFiles({
    name: 'lab-report.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('hello, not a pdf'),
  });
  await expect(form.getByText('Invalid file format.')).toBeVisible();

  const big = Buffer.concat([
    Buffer.from('%PDF-1.4\n'),
    Buffer.alloc(600 * 1024, 0x20),
    Buffer.from('\n%%EOF\n'),
  ]);
  await fileInput.setInputFiles({ name: 'big-report.pdf', mimeType: 'application/pdf', buffer: big });
  await expect(form.getByText('File size too big. Please compress and upload under 500Kb')).toBeVisible();

  // Submitting with a refused file sends nothing.
  const calls = countRequests(page, '/api/pay/set_DiseaseData');
  await form
    .getByRole('checkbox', { name: 'I agree to the Infectious Disease Terms and Conditions' })
    .check();
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('File size too big. Please compress and upload under 500Kb')).toBeVisible();
  expect(calls()).toBe(0);

  const report = await labReportPdf();
  await fileInput.setInputFiles({ name: 'sunshine-panel.pdf', mimeType: 'application/pdf', buffer: report });
  await expect(form.getByText('Invalid file format.')).toHaveCount(0);
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(SUBMITTED, { exact: true })).toBeVisible();
  // Nothing was ordered: what was done is said after the spec's sentence.
  await expect(page.getByText(SAVED)).toBeVisible();
  expect(calls()).toBe(1);

  // Afterwards the tab says so, and the report downloads exactly as uploaded.
  await page.reload();
  await expect(page.getByText(COMPLETED, { exact: true })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download your lab report (PDF)' }).click();
  const downloaded = fs.readFileSync((await (await download).path()) as string);
  expect(downloaded.equals(report)).toBe(true);
});

test('Sam cannot sign consent before his initial processing payment, and signs a screening waiver', async ({
  page,
}) => {
  const startedAt = Date.now();
  await signIn(page, 'ACT10004');
  await page.goto('/form-document/Consent-form');
  await expect(
    page.getByText('Please complete Initial Processing payment to proceed with consent form.'),
  ).toBeVisible();
  await expect(page.getByRole('form', { name: 'Client Consent Form' })).toHaveCount(0);

  await page.getByRole('tab', { name: 'Infectious Disease Form' }).click();
  await expect(page).toHaveURL(/\/form-document\/Infectious-disease$/);
  const form = page.getByRole('form', { name: 'Infectious Disease Form' });
  await chooseOption(page, 'Waiver Submission');
  await form
    .getByRole('checkbox', { name: 'I agree to the Infectious Disease Terms and Conditions' })
    .check();
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Please Select.')).toBeVisible();
  await expect(
    form.getByText('Please sign and click on "Click to Confirm Signature".').first(),
  ).toBeVisible();

  await form.getByRole('radio', { name: /tested negative/ }).check();
  await drawSignature(page);
  await form.getByRole('button', { name: 'Click to Confirm Signature' }).click();
  await expect(form.getByText('Signature accepted successfully.')).toBeVisible();
  await form.getByRole('textbox', { name: 'Infectious diseases (if any)' }).fill('None known');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(SUBMITTED, { exact: true })).toBeVisible();

  const mail = await waitForMail('sam.patel@example.com', /infectious disease screening form/, startedAt);
  const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf')?.content ?? Buffer.alloc(0);
  await expectSignedPdf(pdf, [
    'Waiver',
    'None known',
    'Certificate of signature',
    'Sam Patel (Client ID ACT10004)',
  ]);

  await page.reload();
  await expect(page.getByText(COMPLETED, { exact: true })).toBeVisible();
  await expect(page.getByText('Submission option: Waiver Submission')).toBeVisible();
});
