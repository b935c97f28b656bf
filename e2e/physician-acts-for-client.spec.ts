import { expect, type Page, test } from '@playwright/test';
import { newClientByCheck } from './support/clients';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';

/**
 * Issue 24, point 7: the physician's flow follows the client. Dr. Alvarez registers two clients of
 * her own for this run (so the journey runs in any order), then: the store with no client chosen
 * says so and offers the way to choose, which comes back to the store; Choose is confirmed in
 * words and the header names the client at every width; each row's Sign consent, Screening and
 * Order serum opens that form for that client, the screening's client filled in and confirmed in
 * one step. Dr. Chen cannot act for her clients.
 */

const PHYSICIAN_PASSWORD = 'DemoPhysician#2026';

async function physicianSignIn(page: Page, physicianId: string) {
  await page.goto('/physician');
  await page.getByRole('textbox', { name: 'Physician ID' }).fill(physicianId);
  await page.getByRole('textbox', { name: 'Password' }).fill(PHYSICIAN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/my-clients$/);
  await expect(page.getByRole('heading', { name: 'My Clients', level: 1 })).toBeVisible();
}

/** The line under the header naming whom the physician acts for: seen, on the screen, at the top. */
async function expectActingFor(page: Page, words: string) {
  const line = page.getByRole('banner').getByTestId('acting-for');
  await expect(line).toBeVisible();
  await expect(line).toBeInViewport();
  await expect(line).toContainText(words);
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 740 },
]) {
  test(`Dr. Alvarez acts for the client she chooses, from the list and its rows, at ${viewport.width} px`, async ({
    browser,
    page,
  }) => {
    test.setTimeout(180_000);
    const run = `${viewport.width}${Date.now().toString(36)}`;
    // Names need not be unique: the Client ID in every control's name tells the clients apart.
    const last = viewport.width === 1280 ? 'Lindqvist' : 'Okafor';
    const ava = { first: 'Ava', last, email: `ava.${run}@example.com` };
    const ben = { first: 'Ben', last, email: `ben.${run}@example.com` };
    const avaId = await newClientByCheck(browser, ava, `ava-${run}`);
    const benId = await newClientByCheck(browser, ben, `ben-${run}`);

    await page.setViewportSize(viewport);
    await physicianSignIn(page, 'PHY20001');
    await expectActingFor(page, 'No client chosen');

    // The store with no client chosen says so, never spins, and leads to the choice and back.
    await page.goto('/store');
    await expect(page.getByRole('heading', { name: 'ACT Store', level: 1 })).toBeVisible();
    const notice = page.getByTestId('no-client-chosen');
    await expect(notice).toContainText('No client chosen');
    await expect(page.getByRole('main').getByLabel('Loading')).toHaveCount(0);
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/acts-for-store-no-client-${viewport.width}.png` });
    await notice.getByRole('link', { name: 'Choose a client' }).click();
    await expect(page).toHaveURL(/\/my-clients\?next=%2Fstore$/);
    await expect(page.getByText('Choose the client you act for to go on to Store.')).toBeVisible();
    await page.getByRole('button', { name: `Choose Ava ${last} (${avaId})` }).click();
    await expect(page).toHaveURL(/\/store$/);
    await expectActingFor(page, `Ava ${last} (${avaId})`);
    await expect(page.getByRole('textbox', { name: 'First Name', exact: true })).toHaveValue('Ava');
    await expect(page.getByRole('textbox', { name: 'Last Name', exact: true })).toHaveValue(last);

    // Choose on the list: confirmed in words with the pages it leads on to; the header names Ben.
    await page.getByRole('banner').getByRole('link', { name: 'Change client' }).click();
    await expect(page).toHaveURL(/\/my-clients$/);
    await page.getByRole('button', { name: `Choose Ben ${last} (${benId})` }).click();
    const confirmation = page.getByTestId('acting-for-confirmation');
    await expect(confirmation).toContainText(`You are acting for Ben ${last} (${benId}).`);
    await expect(confirmation).toBeFocused();
    await expect(confirmation.getByRole('link', { name: 'Store' })).toHaveAttribute('href', '/store');
    await expectActingFor(page, `Ben ${last} (${benId})`);
    const benCard = page.locator(`[data-client="${benId}"]`).filter({ visible: true });
    await expect(benCard).toHaveAttribute('data-chosen', 'true');
    await expect(benCard).toContainText('Chosen');
    // With the pointer on a "light" button (Ava's Choose): its label keeps AA contrast on hover.
    await page.getByRole('button', { name: `Choose Ava ${last} (${avaId})` }).hover();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/acts-for-chosen-${viewport.width}.png` });

    // A row's Screening chooses Ava and opens her screening, her Client ID and last name filled
    // in: one click confirms her (the server checks she is Dr. Alvarez's).
    await page.getByRole('button', { name: `Screening for Ava ${last} (${avaId})` }).click();
    await expect(page).toHaveURL(/\/infectious-disease$/);
    await expectActingFor(page, `Ava ${last} (${avaId})`);
    await expect(page.getByRole('radio', { name: 'Client ID and Last Name' })).toBeChecked();
    await expect(page.getByRole('textbox', { name: 'Client ID' })).toHaveValue(avaId);
    await expect(page.getByRole('textbox', { name: 'Client Last Name' })).toHaveValue(last);
    await page.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Client Details Successfully Confirmed' }),
    ).toHaveText(`Client Details Successfully Confirmed: Ava ${last} (${avaId})`);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/acts-for-screening-${viewport.width}.png` });

    // A row's Sign consent opens Ben's consent; Order serum, Ava's store.
    await page.getByRole('banner').getByRole('link', { name: 'Change client' }).click();
    await page.getByRole('button', { name: `Sign consent for Ben ${last} (${benId})` }).click();
    await expect(page).toHaveURL(/\/client-consent$/);
    await expect(
      page.getByRole('heading', { name: 'ACT Client Consent', exact: true, level: 1 }),
    ).toBeVisible();
    await expect(page.getByRole('main')).toContainText(
      `Client Consent and Service Agreement of Ben ${last} (Client ID ${benId})`,
    );
    await expectActingFor(page, `Ben ${last} (${benId})`);
    await expectAccessible(page);

    await page.getByRole('banner').getByRole('link', { name: 'Change client' }).click();
    await page.getByRole('button', { name: `Order serum for Ava ${last} (${avaId})` }).click();
    await expect(page).toHaveURL(/\/store$/);
    await expectActingFor(page, `Ava ${last} (${avaId})`);
    await expect(page.getByRole('textbox', { name: 'First Name', exact: true })).toHaveValue('Ava');
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/acts-for-store-${viewport.width}.png` });
  });
}

test('Dr. Chen cannot act for a client of Dr. Alvarez: the same 404 as an unknown client', async ({
  browser,
  page,
}) => {
  const run = `chen${Date.now().toString(36)}`;
  const theirs = await newClientByCheck(
    browser,
    { first: 'Cora', last: 'Notchens', email: `cora.${run}@example.com` },
    run,
  );
  await physicianSignIn(page, 'PHY20002');
  await expect(page.locator(`[data-client="${theirs}"]`)).toHaveCount(0);
  const foreign = await page.request.post('/api/pay/set_ActingClient', { data: { clientId: theirs } });
  const unknown = await page.request.post('/api/pay/set_ActingClient', { data: { clientId: 'ACT99999' } });
  expect(foreign.status()).toBe(404);
  expect(await foreign.text()).toBe(await unknown.text());
  await page.reload();
  await expectActingFor(page, 'No client chosen');
});
