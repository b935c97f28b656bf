import { expect, type Page, test } from '@playwright/test';
import { newClientByCheck, usDate } from './support/clients';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

const ADMIN_EMAIL = 'staff@example.com';

async function checkPhone(page: Page, name: string) {
  await expectAccessible(page);
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/staff-client-edit-${name}-375.png`, fullPage: true });
  if (wide) await page.setViewportSize(wide);
}

test("the admin corrects a profile field (kept in Profile changes) and e-mails a newborn's finance agreement link that opens the agreement", async ({
  page,
  browser,
}) => {
  await signInAsDemoAdmin(page);
  await page.goto('/staff/clients/ACT10002');
  await expect(page.getByRole('heading', { name: 'John Roe (ACT10002)', level: 1 })).toBeVisible();
  const contact = page.getByRole('textbox', { name: 'Clinic Contact Person Name' });

  // A bad e-mail is refused next to its field; then the correction is saved and kept.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const email = page.getByRole('textbox', { name: 'Email', exact: true });
  const original = await contact.inputValue();
  await email.fill('not-an-email');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Invalid email.').first()).toBeVisible();
  await email.fill('john.roe@example.com');
  await contact.fill('Dr. Corrected Name');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Client information successfully updated.' }),
  ).toBeVisible();
  const changes = page.getByTestId('profile-changes');
  await expect(changes.getByRole('row').filter({ hasText: 'Dr. Corrected Name' })).toContainText(ADMIN_EMAIL);
  await expect(changes).toContainText(original);
  await page.screenshot({ path: 'test-results/staff-client-edit-changed-1280.png', fullPage: true });
  await checkPhone(page, 'changed');

  // Put the seeded value back for the journeys that read it.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await contact.fill(original);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Changed: Clinic Contact Person Name.' }),
  ).toBeVisible();

  // John is 58: his record offers no newborn finance agreement.
  await expect(page.getByRole('form', { name: 'Send newborn finance agreement' })).toHaveCount(0);

  // The agreement link, for a newborn of this run (two months old) whom Dr. Alvarez registers.
  const run = Date.now().toString(36);
  const parent = `nora.cradle.${run}@example.com`;
  const newborn = await newClientByCheck(
    browser,
    { first: 'Nora', last: `Cradle${run}`, email: parent, dob: usDate(-60) },
    run,
  );
  await page.goto(`/staff/clients/${newborn}`);
  await expect(page.getByRole('heading', { name: `Nora Cradle${run} (${newborn})`, level: 1 })).toBeVisible();
  const card = page.getByRole('form', { name: 'Send newborn finance agreement' });
  await card.getByRole('textbox', { name: 'Patient ID' }).fill('NB-E2E-7');
  await card.getByRole('textbox', { name: 'Total amount financed' }).fill('1700');
  const since = Date.now();
  await card.getByRole('button', { name: 'Send agreement link' }).click();
  await expect(card.getByRole('status')).toContainText('Agreement link sent to n***@example.com');
  const mail = await waitForMail(parent, /Newborn Finance Agreement/, since);
  const link = mail.text.match(/https?:\/\/\S+\/newbornfinanceagreement\/[\w.-]+/)?.[0];
  expect(link, mail.text).toBeTruthy();
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(new URL(link as string).pathname);
  await expect(visitor.getByRole('heading', { name: 'Newborn Finance Agreement', level: 1 })).toBeVisible();
  await expect(visitor.getByText('NB-E2E-7')).toBeVisible();
  await context.close();
});
