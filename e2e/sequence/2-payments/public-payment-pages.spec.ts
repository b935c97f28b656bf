import { expect, type Page, test } from '@playwright/test';
import { createPaymentLinkToken } from '../../../src/server/lib/link-tokens';
import { newClientByCheck } from '../../support/clients';
import { expectAccessible, expectNoSidewaysScroll } from '../../support/portal';

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
  await page.getByRole('textbox', { name: 'Billing First Name' }).fill('Jane');
  await page.getByRole('textbox', { name: 'Billing Last Name' }).fill('Doe');
  await page.getByRole('textbox', { name: 'Billing Email' }).fill('jane.doe@example.com');
  // The public pages reveal no client data: the billing address starts empty.
  await expect(page.getByRole('textbox', { name: 'Billing Street' })).toHaveValue('');
  await page.getByRole('textbox', { name: 'Billing Street' }).fill('1200 Brickell Avenue');
  await page.getByRole('textbox', { name: 'Billing City' }).fill('Miami');
  await page.getByRole('textbox', { name: 'Billing State' }).fill('FL');
  await page.getByRole('textbox', { name: 'Zip or Postal Code' }).fill('33131');
}

test.describe('public payment pages', () => {
  test('e-mail page: a failed confirmation clears the fields, Client ID and Last Name confirms, a card saves', async ({
    page,
  }) => {
    await page.goto('/updatepaymentinformation');
    await expect(page.getByRole('heading', { name: 'Update Payment Information' })).toBeVisible();
    await page.getByRole('radio', { name: 'Client ID and Last Name' }).check();
    await page.getByRole('textbox', { name: 'Client ID' }).fill('ACT10001');
    await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Smith');
    await page.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(
      page.getByText(
        'Please enter valid client ID and last name. Contact ACT directly in case of any queries.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Client ID' })).toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Last Name', exact: true })).toHaveValue('');

    await page.getByRole('textbox', { name: 'Client ID' }).fill('ACT10001');
    await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Doe');
    await page.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(page.getByText('Client Details Successfully Confirmed')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Client ID' })).toHaveAttribute('readonly', '');
    await expect(
      page.getByText('A 3% processing fee applies to card payments. Pay by ACH to avoid it.'),
    ).toBeVisible();

    await fillCard(page);
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByText('Please Check', { exact: true })).toBeVisible();
    await page.getByRole('checkbox', { name: /I am the owner/ }).check();
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByText('Payment Information is Updated Successfully')).toBeVisible();
  });

  test('text-message page: full contact confirms; Save is refused without a payment method; ACH saves', async ({
    page,
  }) => {
    await page.goto('/updatepaymentinfo');
    await page.getByRole('radio', { name: 'Client Full Contact Information' }).check();
    await page.getByRole('textbox', { name: 'First Name', exact: true }).fill('Jane');
    await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Doe');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('jane.doe@example.com');
    await page.getByRole('textbox', { name: 'Date of Birth' }).fill('03/14/1975');
    await page.getByRole('textbox', { name: 'Date of Birth' }).press('Tab');
    await page.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(page.getByText('Client Details Successfully Confirmed')).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Please Select Check')).toBeVisible();

    await page.getByRole('radio', { name: 'ACH Payment' }).check();
    await page.getByRole('textbox', { name: 'Name on Account' }).fill('Jane Doe');
    await page.getByRole('textbox', { name: 'Account Number' }).fill('000123456789');
    await page.getByRole('textbox', { name: 'ABA Routing Number' }).fill('110000000');
    await page.getByRole('checkbox', { name: /I am the owner/ }).check();
    await page.getByRole('button', { name: 'Save bank account' }).click();
    await expect(page.getByText('Payment Information is Updated Successfully')).toBeVisible();
  });

  test('each page confirms by either identification, and a failed full-contact check clears its fields', async ({
    page,
  }) => {
    await page.goto('/updatepaymentinfo');
    await page.getByRole('radio', { name: 'Client ID and Last Name' }).check();
    await page.getByRole('textbox', { name: 'Client ID' }).fill('act10002');
    await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill('roe');
    await page.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(page.getByText('Client Details Successfully Confirmed')).toBeVisible();

    await page.goto('/updatepaymentinformation');
    await page.getByRole('radio', { name: 'Client Full Contact Information' }).check();
    await page.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(page.getByText('Please enter client first name')).toBeVisible();
    await expect(page.getByText('Please enter client email')).toBeVisible();
    await expect(page.getByText('Please enter client Dob')).toBeVisible();
    await page.getByRole('textbox', { name: 'First Name', exact: true }).fill('John');
    await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Roe');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('john.roe@example.com');
    await page.getByRole('textbox', { name: 'Date of Birth' }).fill('11/03/1968');
    await page.getByRole('textbox', { name: 'Date of Birth' }).press('Tab');
    await page.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(
      page.getByText(
        'Please enter valid client ID and last name. Contact ACT directly in case of any queries.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue('');
    await page.getByRole('textbox', { name: 'First Name', exact: true }).fill('John');
    await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill('Roe');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('john.roe@example.com');
    await page.getByRole('textbox', { name: 'Date of Birth' }).fill('11/02/1968');
    await page.getByRole('textbox', { name: 'Date of Birth' }).press('Tab');
    await page.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(page.getByText('Client Details Successfully Confirmed')).toBeVisible();
  });

  test('opened by its signed link, the page keeps the client and the bill through a reload, Back and a second tab; paid, a reload shows what was paid (375 and 1280 px)', async ({
    page,
  }) => {
    const link = `/updatepaymentinformation?t=${createPaymentLinkToken(Buffer.from(E2E_LINK_SECRET, 'utf8'), 'ACT10006', new Date())}`;
    /** The page as the link opens it: Omar confirmed, no form to fill in, his overdue year and the total by card. */
    const expectIdentifiedWithBill = async (tab: Page) => {
      await expect(tab.getByText('Client Details Successfully Confirmed')).toBeVisible();
      await expect(tab.getByText('Client ID: ACT10006')).toBeVisible();
      await expect(tab.getByRole('button', { name: 'Confirm Client Details' })).toHaveCount(0);
      const due = tab.getByRole('group', { name: 'Amount Due' });
      await expect(due).toContainText('Annual storage due');
      await expect(due).toContainText('$339.81');
      await expect(due).toContainText('Card processing fee (3%)$10.19');
      await expect(due).toContainText('Total charged when you save$350.00');
      await expect(tab.getByRole('button', { name: 'Pay $350.00 and save card' })).toBeVisible();
      // The link is not in the address bar to be copied or shown.
      expect(tab.url()).not.toContain('t=');
    };

    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(link);
    await expectIdentifiedWithBill(page);
    // A reload before paying shows the same page, not an empty form (issue 24).
    await page.reload();
    await expectIdentifiedWithBill(page);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/public-payment-link-reloaded-375.png', fullPage: true });
    // Away and Back again: the same.
    await page.goto('/forgot-password');
    await expect(page.getByRole('button', { name: 'Send One Time Password' })).toBeVisible();
    await page.goBack();
    await expectIdentifiedWithBill(page);

    // The link opened again in a second tab, on a wide screen: the same page, reloaded too.
    const second = await page.context().newPage();
    await second.setViewportSize({ width: 1280, height: 900 });
    await second.goto(link);
    await expectIdentifiedWithBill(second);
    await second.reload();
    await expectIdentifiedWithBill(second);
    await expectAccessible(second);
    await second.screenshot({ path: 'test-results/public-payment-link-reloaded-1280.png', fullPage: true });

    const due = page.getByRole('group', { name: 'Amount Due' });
    await page.getByRole('radio', { name: 'ACH Payment' }).check();
    await expect(due).toContainText('Total charged when you save$339.81');
    await expect(page.getByRole('button', { name: 'Pay $339.81 and save bank account' })).toBeVisible();
    await page.getByRole('radio', { name: 'Credit Card' }).check();

    // A declined card: the reason shows next to the button, in view and focused, and nothing is charged.
    await fillCard(page, '4000000000000002');
    await page.getByRole('checkbox', { name: /I am the owner/ }).check();
    await page.getByRole('button', { name: 'Pay $350.00 and save card' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: /declined/i });
    await expect(refusal).toBeInViewport();
    await expect(page.locator(':focus')).toContainText(/declined/i);

    await page.getByRole('textbox', { name: 'Credit Card Number' }).fill('4242424242424242');
    await page.getByRole('textbox', { name: 'CVV' }).fill('123');
    await page.getByRole('button', { name: 'Pay $350.00 and save card' }).click();
    await expect(page.getByText('Payment Information is Updated Successfully')).toBeVisible();
    const charged =
      /We charged \$350\.00, including the \$10\.19 card processing fee, to the Visa ending in 4242\. Transaction number: \S+\./;
    await expect(page.getByText(charged)).toBeVisible();
    await expectNoSidewaysScroll(page);

    // A reload shows the paid state, read again from the server (issue 24), with the receipt.
    expect(page.url()).toMatch(/\?result=/);
    await page.reload();
    const paid = page.getByRole('status');
    await expect(paid).toContainText('Payment Information is Updated Successfully');
    await expect(paid.getByText(charged)).toBeVisible();
    await expect(paid).toContainText('A confirmation has been e-mailed to the address we have on file.');
    await expect(page.getByRole('button', { name: /Pay|Save/ })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Credit Card Number' })).toHaveCount(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      paid.getByRole('link', { name: 'Download the receipt' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^receipt-ACT10006-.+\.pdf$/);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/public-payment-paid-375.png', fullPage: true });

    // The second tab, reloaded, reads the bill again: nothing is due any more.
    await second.reload();
    await expect(second.getByText('Client ID: ACT10006')).toBeVisible();
    await expect(second.getByText('Nothing is due today.', { exact: false })).toBeVisible();
    await expect(second.getByRole('button', { name: /^Pay / })).toHaveCount(0);
    await second.close();
  });

  test('identify first, then pay: a new client saves a card, and a reload shows it saved (1280 px)', async ({
    page,
    browser,
  }) => {
    const run = Date.now().toString(36);
    const last = `Quill${run.replace(/\d/g, '')}`;
    const clientId = await newClientByCheck(
      browser,
      { first: 'Pia', last, email: `pia.${run}@example.com` },
      run,
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/updatepaymentinformation');
    // Nothing to pay with before the client is confirmed.
    await page.getByRole('radio', { name: 'Client ID and Last Name' }).check();
    await expect(page.getByRole('textbox', { name: 'Credit Card Number' })).toHaveCount(0);
    await expect(page.getByRole('radio', { name: 'ACH Payment' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Pay|Save/ })).toHaveCount(0);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/public-payment-identify-1280.png', fullPage: true });

    await page.getByRole('textbox', { name: 'Client ID' }).fill(clientId);
    await page.getByRole('textbox', { name: 'Last Name', exact: true }).fill(last);
    await page.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(page.getByText('Client Details Successfully Confirmed')).toBeVisible();
    await fillCard(page, '4111111111111111');
    await page.getByRole('checkbox', { name: /I am the owner/ }).check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByText('Payment Information is Updated Successfully')).toBeVisible();

    await page.reload();
    const saved = page.getByRole('status');
    await expect(saved).toContainText('Payment Information is Updated Successfully');
    await expect(saved).toContainText(
      'The Visa ending in 1111 is on file for annual storage fees. Nothing was charged today.',
    );
    await expect(saved).toContainText('A confirmation has been e-mailed to the address we have on file.');
    await expect(saved.getByRole('link', { name: 'Download the receipt' })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/public-payment-saved-1280.png', fullPage: true });
  });

  for (const width of [1280, 375]) {
    test(`a bad or expired link says what happened and how to get a new one (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const expired = createPaymentLinkToken(
        Buffer.from(E2E_LINK_SECRET, 'utf8'),
        'ACT10001',
        new Date(Date.now() - 8 * 24 * 60 * 60 * 1000),
      );
      await page.goto(`/updatepaymentinformation?t=${expired}`);
      const problem = page.getByRole('alert');
      await expect(problem).toContainText(
        'This link has expired or is not valid. Please identify the client below.',
      );
      await expect(problem).toContainText(
        'Links we send last 7 days. For a new one, ask the bank: call (305) 555-0100 or write to ACT.',
      );
      await expect(page.getByRole('button', { name: 'Confirm Client Details' })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/public-payment-bad-link-${width}.png`, fullPage: true });

      // A page's result that is not one (altered, expired): said so, and the page still works.
      await page.goto('/updatepaymentinformation?result=not-a-result');
      await expect(page.getByRole('alert')).toContainText('This confirmation has expired or is not valid.');
      await expect(page.getByRole('button', { name: 'Confirm Client Details' })).toBeVisible();
      await expectAccessible(page);
    });
  }

  test('a signed link opens the page already identified, and leaves the address bar clean', async ({
    page,
  }) => {
    const token = createPaymentLinkToken(Buffer.from(E2E_LINK_SECRET, 'utf8'), 'ACT10001', new Date());
    await page.goto(`/updatepaymentinformation?t=${token}`);
    await expect(page.getByText('Client Details Successfully Confirmed')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Confirm Client Details' })).toHaveCount(0);
    expect(page.url()).not.toContain('t=');
    await fillCard(page, '4111111111111111');
    await page.getByRole('checkbox', { name: /I am the owner/ }).check();
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByText('Payment Information is Updated Successfully')).toBeVisible();
  });
});
