/**
 * The physician variant of the Client Consent (spec 2): Dr. Maria Alvarez (PHY20001) has Ana Lima
 * (ACT10003) sign her consent in the clinic. Runs in the sequence's forms step after
 * forms-consent.spec.ts, which leaves Ana's consent unsigned for this journey; forms-screening.spec.ts
 * (after this one) needs only Ana's screening unsubmitted.
 */
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { countRequests, drawSignature, expectSignedPdf } from '../../support/forms';
import { waitForMail } from '../../support/mail';
import { expectAccessible, expectNoSidewaysScroll, shownValue, signIn } from '../../support/portal';
import { testCards } from '../../support/test-numbers';

const PHYSICIAN_PASSWORD = 'DemoPhysician#2026';
const SUBMITTED = 'Please check your email for order confirmation';

async function physicianSignIn(page: Page) {
  await page.goto('/physician');
  await page.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20001');
  await page.getByRole('textbox', { name: 'Password' }).fill(PHYSICIAN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/my-clients$/);
}

async function pick(page: Page, name: string) {
  await page.getByRole('option', { name, exact: true }).click();
}

test('Dr. Alvarez has Ana sign her consent in the clinic: her details corrected, a new card kept on her file, the PDF e-mailed to her and My Clients showing it signed', async ({
  page,
}) => {
  // A long journey (both pages, a card, two screen widths, the mail) on a machine shared by others.
  test.setTimeout(120_000);
  const startedAt = Date.now();
  await physicianSignIn(page);

  // Without a chosen client the page sends the physician to choose one.
  await page.goto('/client-consent');
  await expect(page).toHaveURL(/\/my-clients$/);
  const ana = page.locator('tr[data-client="ACT10003"]');
  await expect(ana.locator('td').nth(4)).toHaveText('No');
  await ana.getByRole('button', { name: /^Choose Ana Lima/ }).click();
  await expect(page.getByRole('banner')).toContainText('Ana Lima (ACT10003)');

  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Client Consent' })
    .click();
  await expect(page).toHaveURL(/\/client-consent$/);
  await expect(
    page.getByRole('heading', { name: 'ACT Client Consent', exact: true, level: 1 }),
  ).toBeVisible();
  const form = page.getByRole('form', { name: 'Client Consent Form' });
  await expect(form.getByText(/Miami-Dade County/).first()).toBeVisible();

  // Page 1: Medications starts at No; the Addendum's own messages of the physician variant, the
  // date-of-birth error on the date of birth (DESIGN.md section 8, item 10).
  await expect(form.getByRole('radio', { name: 'No', exact: true })).toBeChecked();
  await form.getByRole('radio', { name: 'Release any Tissue to the following individual' }).check();
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Marco Lima');
  await form.getByRole('textbox', { name: 'Date of Birth', exact: true }).fill('02/30/1980');
  await form
    .getByRole('textbox', { name: 'Address', exact: true })
    .fill('2300 Ponce de Leon Boulevard, Coral Gables, FL');
  await form.getByRole('textbox', { name: 'Phone', exact: true }).fill('305-555-O188');
  await form.getByRole('textbox', { name: 'Relationship', exact: true }).fill('Husband');
  await form.getByRole('button', { name: 'Next Page' }).click();
  await expect(form.getByRole('textbox', { name: 'Phone', exact: true })).toHaveAccessibleDescription(
    'Invalid PhoneNumber',
  );
  await expect(form.getByRole('textbox', { name: 'Date of Birth', exact: true })).toHaveAccessibleDescription(
    'Invalid date',
  );
  await expect(form.getByRole('textbox', { name: 'Address', exact: true })).not.toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await form.getByRole('textbox', { name: 'Date of Birth', exact: true }).fill('05/21/1979');
  await form.getByRole('textbox', { name: 'Phone', exact: true }).fill('3055550188');
  await form.getByRole('button', { name: 'Next Page' }).click();
  await expect(form.getByRole('heading', { name: 'Client Consent Form, page 2 of 2' })).toBeVisible();

  // Page 2: the physician signed in, and Ana's details from her record, to correct.
  await expect(form.getByText('PHY20001')).toBeVisible();
  await expect(form.getByText('Alvarez', { exact: true })).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'First Name', exact: true })).toHaveValue('Ana');
  await expect(form.getByRole('textbox', { name: 'Last Name', exact: true })).toHaveValue('Lima');
  await expect(form.getByRole('textbox', { name: 'Date of Birth', exact: true })).toHaveValue('07/09/1982');
  await expect(form.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue('ana.lima@example.com');
  await expect(form.getByRole('textbox', { name: 'Enrollment Date', exact: true })).toHaveValue(
    /^\d{2}\/\d{2}\/\d{4}$/,
  );
  // Her e-mail address and phone number sign her in: shown, not editable by the physician.
  const readOnlyNote =
    'Only the client or the bank can change this: it signs the client in and recovers their account.';
  for (const name of ['Email', 'Phone Number']) {
    const field = form.getByRole('textbox', { name, exact: true });
    await expect(field).not.toBeEditable();
    await expect(field).toHaveAccessibleDescription(readOnlyNote);
  }
  await expect(form.getByRole('textbox', { name: 'Phone Number', exact: true })).toHaveValue('3055550177');
  await form.getByRole('textbox', { name: 'Date of Birth', exact: true }).fill('07/09/2049');
  await form.getByRole('textbox', { name: 'City', exact: true }).fill('');
  await form.getByRole('radio', { name: 'Bone-Marrow' }).check();
  await form.getByRole('radio', { name: 'Credit Card', exact: true }).check();
  await form.getByRole('checkbox', { name: /I have read and agree/ }).check();
  const consentCalls = countRequests(page, '/api/pay/send_PhysicianConsentData');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByRole('textbox', { name: 'Date of Birth', exact: true })).toHaveAccessibleDescription(
    'Date of birth cannot be in the future',
  );
  await expect(form.getByRole('textbox', { name: 'City', exact: true })).toHaveAccessibleDescription(
    'Please enter City',
  );
  await expect(form.getByText('Please sign and click on Accept.').first()).toBeVisible();
  expect(consentCalls()).toBe(0);
  await form.getByRole('textbox', { name: 'Date of Birth', exact: true }).fill('07/09/1982');
  await form.getByRole('textbox', { name: 'Address', exact: true }).fill('4000 Ponce de Leon Boulevard');
  await form.getByRole('textbox', { name: 'City', exact: true }).fill('Coral Gables');

  // Ana has no card on file: the card she hands over is entered and kept on her file.
  await form.getByRole('textbox', { name: 'Credit Card Number' }).fill(testCards.mastercard);
  await form.getByRole('combobox', { name: 'Card Type' }).click();
  await pick(page, 'Mastercard');
  await form.getByRole('textbox', { name: 'CVV', exact: true }).fill('123');
  await form.getByRole('combobox', { name: 'Expiry Month' }).click();
  await pick(page, '12');
  await form.getByRole('combobox', { name: 'Expiry Year' }).click();
  await pick(page, String(new Date().getFullYear() + 3));
  await form.getByRole('textbox', { name: 'Billing First Name' }).fill('Ana');
  await form.getByRole('textbox', { name: 'Billing Last Name' }).fill('Lima');
  await form.getByRole('textbox', { name: 'Billing Email' }).fill('ana.lima@example.com');
  await form.getByRole('textbox', { name: 'Billing Street' }).fill('4000 Ponce de Leon Boulevard');
  await form.getByRole('textbox', { name: 'Billing City' }).fill('Coral Gables');
  await form.getByRole('textbox', { name: 'Billing State' }).fill('FL');
  await form.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33134');
  await expect(
    form.getByRole('checkbox', { name: 'Save this card on file for future payments' }),
  ).toBeChecked();

  // Ana signs on the pad; the signature is confirmed.
  await drawSignature(page);
  await form.getByRole('button', { name: 'Accept' }).click();
  await expect(form.getByText('Signature accepted successfully.')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/physician-consent-1280.png', fullPage: true });

  // On a phone the page fits the screen.
  await page.setViewportSize({ width: 375, height: 740 });
  // The signature pad follows the width of the screen once the new layout is measured.
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/physician-consent-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  await form.getByRole('button', { name: 'Submit' }).dblclick();
  await expect(page.getByText(SUBMITTED, { exact: true })).toBeVisible();
  // Nothing was ordered: what was done is said after the spec's sentence.
  await expect(
    page.getByText(
      "The client's consent is signed and saved. The signed agreement is below, and a copy is on its way to the client by e-mail.",
    ),
  ).toBeVisible();
  expect(consentCalls()).toBe(1);
  await expect(page.getByText(testCards.mastercard)).toHaveCount(0);

  // The signed agreement goes to Ana; its certificate names the physician. The physician is told.
  const mail = await waitForMail('ana.lima@example.com', /signed consent agreement/, startedAt);
  const attached = mail.attachments.find((a) => a.contentType === 'application/pdf');
  expect(attached, 'the e-mail carries the signed PDF').toBeDefined();
  const emailed = attached?.content ?? Buffer.alloc(0);
  await expectSignedPdf(emailed, [
    'Client Consent and Service Agreement',
    'Marco Lima',
    'Bone-Marrow',
    '3055550177',
    'Ana Lima (Client ID ACT10003)',
    'Signed in the presence of',
    'Maria Alvarez (Physician ID PHY20001)',
  ]);
  expect(mail.text).toContain('in the presence of your physician, Maria Alvarez');
  await waitForMail('maria.alvarez@example.com', /consent signed by Ana Lima \(ACT10003\)/, startedAt);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download signed agreement (PDF)' }).click();
  expect(fs.readFileSync((await (await download).path()) as string).equals(emailed)).toBe(true);

  // My Clients shows the consent signed, with its PDF; the page now says it is done.
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'My Clients' })
    .click();
  await expect(ana.locator('td').nth(4)).toHaveText('Yes');
  await expect(ana.getByRole('link', { name: 'Download the signed Consent form of Ana Lima' })).toBeVisible();
  await page.goto('/client-consent');
  await expect(page.getByText('You have already completed this form. Thank you.')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Client Consent Form' })).toHaveCount(0);

  // Ana, signed in herself, finds her new address and the card on her own file.
  await page.context().clearCookies();
  await signIn(page, 'ACT10003');
  await expect(shownValue(page, 'Street').first()).toHaveText('4000 Ponce de Leon Boulevard');
  await page
    .getByRole('navigation', { name: 'Portal sections' })
    .getByRole('link', { name: 'Payment Information' })
    .click();
  await expect(page.getByRole('heading', { name: 'Payment Information', level: 1 })).toBeVisible();
  await expect(page.getByText('Credit Card ending in 4444')).toBeVisible();
});
