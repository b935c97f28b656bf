import { expect, type Page, test } from '@playwright/test';
import { newClientByCheck } from './support/clients';
import { waitForMail } from './support/mail';
import { expectAccessible, signIn } from './support/portal';

/**
 * Password recovery, on a client Dr. Alvarez registers for this run (born 05/17/1981): no demo
 * account's password, codes or sessions change here, so these journeys run beside any other.
 */
const casey = { first: 'Casey', last: '', email: '', id: '' };
const CASEY_BORN = '05/17/1981';

test.beforeAll(async ({ browser }) => {
  const run = Date.now().toString(36);
  casey.last = `Recovery${run}`;
  casey.email = `casey.${run}@example.com`;
  casey.id = await newClientByCheck(browser, { ...casey, dob: CASEY_BORN }, `recovery${run}`);
});

/** Fills in who the client is and asks for a code. */
async function askForCode(page: Page, email: string, firstName: string, dateOfBirth: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'First Name' }).fill(firstName);
  await page.getByRole('textbox', { name: 'Date of Birth' }).fill(dateOfBirth);
  await page.getByRole('textbox', { name: 'Date of Birth' }).press('Tab');
  await page.getByRole('button', { name: 'Send One Time Password' }).click();
}

test('recovers a password with the code e-mailed over SMTP', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Forgot Your Password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);

  await page.getByRole('button', { name: 'Send One Time Password' }).click();
  await expect(page.getByText('Please enter email')).toBeVisible();
  await expect(page.getByText('Please enter firstName')).toBeVisible();
  await expect(page.getByText('Please enter dateOfBirth')).toBeVisible();

  await page.getByRole('textbox', { name: 'Email' }).fill(casey.email);
  await page.getByRole('textbox', { name: 'First Name' }).fill(casey.first);
  const dob = page.getByRole('textbox', { name: 'Date of Birth' });
  await dob.fill(CASEY_BORN);
  await dob.press('Tab');
  await expect(dob).toHaveValue(CASEY_BORN);

  const sentAt = Date.now();
  await page.getByRole('button', { name: 'Send One Time Password' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'If the details match our records' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send One Time Password' })).toHaveCount(0);

  const mail = await waitForMail(casey.email, /one time password/, sentAt);
  const code = /one time password is (\d{6})/.exec(mail.text)?.[1];
  expect(code).toMatch(/^\d{6}$/);

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Please enter One Time Password')).toBeVisible();

  await page.getByRole('textbox', { name: 'One Time Password' }).fill(code as string);
  await page.getByRole('textbox', { name: 'New Password' }).fill('a new and long passphrase');
  await page.getByRole('textbox', { name: 'Confirm Password' }).fill('a different long passphrase');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText("Password doesn't match.")).toBeVisible();

  await page.getByRole('textbox', { name: 'New Password' }).fill('a new and long passphrase');
  await page.getByRole('textbox', { name: 'Confirm Password' }).fill('a new and long passphrase');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your password has been updated' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Send One Time Password' })).toBeVisible();

  await waitForMail(casey.email, /password was changed/, sentAt);
  await page.getByRole('link', { name: 'Login' }).click();
  await signIn(page, casey.id, 'a new and long passphrase');
});

test('a wrong code is refused in red and the code fields are cleared', async ({ page }) => {
  await page.goto('/forgot-password');
  await askForCode(page, casey.email, casey.first, CASEY_BORN);
  await page.getByRole('textbox', { name: 'One Time Password' }).fill('000000');
  await page.getByRole('textbox', { name: 'New Password' }).fill('a new and long passphrase');
  await page.getByRole('textbox', { name: 'Confirm Password' }).fill('a new and long passphrase');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'The one time password is invalid or has expired. Please request a new one. This code has 4 tries left.',
  );
  await expect(page.getByRole('textbox', { name: 'One Time Password' })).toHaveValue('');
  await expect(page.getByRole('textbox', { name: 'New Password' })).toHaveValue('');

  // A new code restores the tries, and the page says it was sent.
  await page.getByRole('button', { name: 'Resend code' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'If the details match our records' }),
  ).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 740 },
]) {
  test(`recovery starts over after a wrong identity, with the fields editable again (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/forgot-password');
    await askForCode(page, casey.email.replace('@example.com', '@example.org'), casey.first, CASEY_BORN);
    await expect(
      page.getByRole('status').filter({ hasText: 'If the details match our records' }),
    ).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly', '');

    // The code will not come (a typo in the address): start over instead of being stuck.
    await page.getByRole('button', { name: 'Start over' }).click();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Email' })).not.toHaveAttribute('readonly', '');
    await expect(page.getByRole('textbox', { name: 'One Time Password' })).toHaveCount(0);
    await askForCode(page, casey.email, casey.first, CASEY_BORN);
    await expect(page.getByRole('textbox', { name: 'One Time Password' })).toBeVisible();
  });
}

test('the date picker offers no date after today', async ({ page }) => {
  await page.goto('/forgot-password');
  const dob = page.getByRole('textbox', { name: 'Date of Birth' });
  const tomorrow = new Date(Date.now() + 2 * 86_400_000);
  const typed = `${String(tomorrow.getMonth() + 1).padStart(2, '0')}/${String(tomorrow.getDate()).padStart(2, '0')}/${tomorrow.getFullYear()}`;
  await dob.fill(typed);
  await dob.press('Tab');
  await expect(dob).not.toHaveValue(typed);
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  test(`the date of birth calendar leaves the Send button in view and pressable (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/forgot-password');
    const dob = page.getByRole('textbox', { name: 'Date of Birth' });
    // The calendar comes once the page has shown: the field is no longer read-only then.
    await expect(dob).toBeEditable();
    await dob.click();
    // The calendar has no role of its own: Mantine marks its dropdown so.
    const calendar = page.locator('[data-dates-dropdown]');
    await expect(calendar).toBeVisible();
    const send = page.getByRole('button', { name: 'Send One Time Password' });
    await expect(send).toBeInViewport();
    // Nothing lies over the button: the point at its middle is the button's own.
    const box = await send.boundingBox();
    const calendarBox = await calendar.boundingBox();
    expect(box && calendarBox).toBeTruthy();
    if (!box || !calendarBox) return;
    const overlaps =
      calendarBox.x < box.x + box.width &&
      box.x < calendarBox.x + calendarBox.width &&
      calendarBox.y < box.y + box.height &&
      box.y < calendarBox.y + calendarBox.height;
    expect(overlaps).toBe(false);
    expect(
      await send.evaluate((button) => {
        const r = button.getBoundingClientRect();
        return button.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      }),
    ).toBe(true);
    await page.screenshot({ path: `test-results/recovery-calendar-${viewport.width}.png` });
    await expectAccessible(page);

    // Pressed with the calendar open, it sends the form (here, empty: the fields say so).
    await send.click();
    await expect(page.getByText('Please enter email')).toBeVisible();
    await expect(page.getByText('Please enter dateOfBirth')).toBeVisible();
  });
}
