import { expect, type Page, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { newClientByCheck, setPasswordFromWelcome, usDate } from './support/clients';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';
import { signInAsDemoAdmin } from './support/staff';

/**
 * Two work queues of the back office (issue 11). Dr. Alvarez sends a new sample with a check in the
 * shipment for a new client of this run; the client sets a password and uploads a lab report. The
 * demo admin records the check (the client's consent opens) and rejects the lab report with a
 * reason (the client's screening opens again and shows it). Only this run's new client is touched.
 */

const NEW_PASSWORD = 'Harbor lights at dusk 2049';
const REASON = 'The report does not show the hepatitis B result. Please send the full panel from your lab.';
const wide = { width: 1280, height: 900 };
const phone = { width: 375, height: 800 };
const slow = { timeout: 30_000 };
// Letters and digits: a long run of digits would read as a card number, which no field takes.
const run = Date.now().toString(36);

/** axe and no sideways scroll at 1280 and 375 px, with a screenshot of each to look at. */
async function checkScreen(page: Page, name: string) {
  for (const viewport of [wide, phone]) {
    await page.setViewportSize(viewport);
    await expect
      .poll(() =>
        page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      )
      .toBeLessThanOrEqual(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({
      path: `test-results/staff-queues/${name}-${viewport.width}.png`,
      fullPage: true,
    });
  }
  await page.setViewportSize(wide);
}

/** Opens the queue row of `name` on its card (the row's "Open" button). */
async function openRow(page: Page, name: string) {
  await page.getByRole('button', { name: new RegExp(`^Open ${name}`) }).click();
}

async function labReport(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 12, font });
  return Buffer.from(await doc.save());
}

test.describe('back office work queues', () => {
  test('staff record the check of a new sample (the consent opens) and reject a lab report (the screening opens again with the reason)', async ({
    page,
    browser,
  }) => {
    const since = Date.now();
    const person = { first: 'Vera', last: `Queue${run}`, email: `vera.queue.${run}@example.com` };
    const name = `${person.first} ${person.last}`;
    const clientId = await newClientByCheck(browser, person, run);

    // The new client sets a password from the welcome e-mail, and uploads a lab report.
    const client = await setPasswordFromWelcome(browser, person.email, NEW_PASSWORD, since);
    await client.goto('/form-document/Consent-form');
    await expect(
      client.getByText('Please complete Initial Processing payment to proceed with consent form.'),
    ).toBeVisible(slow);
    const report = await labReport('Infectious disease panel: partial');
    const uploaded = await client.request.post('/api/pay/set_DiseaseData', {
      headers: { 'idempotency-key': `staff-queues-lab-${run}` },
      data: {
        submissionOption: 'Local Lab Submission',
        agree: true,
        lab_report_file: `data:application/pdf;base64,${report.toString('base64')}`,
        lab_report_name: 'partial-panel.pdf',
      },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(200);

    // Staff: both queues on the home page, with what waits in each.
    await page.setViewportSize(wide);
    await signInAsDemoAdmin(page);
    const home = page.getByRole('main');
    await expect(home.getByRole('link', { name: 'New Samples Paid by Check' })).toBeVisible();
    await expect(home.getByRole('link', { name: 'Lab Reports' })).toBeVisible();
    await expect(home.getByText(/^\d+ waiting$/).first()).toBeVisible();
    await checkScreen(page, 'home');

    // The check arrives with the sample.
    await home.getByRole('link', { name: 'New Samples Paid by Check' }).click();
    await expect(page.getByRole('heading', { name: 'New Samples Paid by Check', level: 1 })).toBeVisible();
    // Each sample is a row of the queue's table; its card, with the check form, opens under it.
    await openRow(page, name);
    const sample = page.getByRole('article', { name: new RegExp(name) });
    await expect(sample).toContainText('Amount due: $3,000.00');
    await expect(sample).toContainText(clientId);
    await sample.getByRole('button', { name: 'Record check' }).click();
    await expect(sample.getByText('Please enter check number')).toBeVisible();
    await expect(sample.getByText('Please enter check amount')).toBeVisible();
    await expect(sample.getByText('Please enter check date')).toBeVisible();
    await checkScreen(page, 'checks-errors');
    await sample.getByRole('textbox', { name: 'Check number' }).fill('20418');
    await sample.getByRole('textbox', { name: 'Check amount' }).fill('2500');
    await sample.getByRole('textbox', { name: 'Check date' }).fill(usDate(0));
    await sample.getByRole('button', { name: 'Record check' }).click();
    await expect(sample.getByText('The check must be for the amount due, $3,000.00.')).toBeVisible();
    await sample.getByRole('textbox', { name: 'Check amount' }).fill('3,000.00');
    await sample.getByRole('button', { name: 'Record check' }).click();
    const recorded = page.getByRole('status').filter({ hasText: clientId });
    await expect(recorded).toContainText('Check recorded. Initial processing is paid');
    await expect(page.getByRole('article', { name: new RegExp(name) })).toHaveCount(0);
    await checkScreen(page, 'checks-recorded');
    const paid = await waitForMail(person.email, /payment for your initial processing/, since);
    expect(paid.text).toContain('check no. 20418 of $3,000.00');

    // The client's consent is open now.
    await client.goto('/form-document/Consent-form');
    await expect(client.getByRole('form', { name: 'Client Consent Form' })).toBeVisible(slow);
    await expect(
      client.getByText('Please complete Initial Processing payment to proceed with consent form.'),
    ).toHaveCount(0);

    // Until the tissue arrives, the new client owes no storage: the first year is included.
    await client.goto('/client-information');
    await expect(
      client.getByText('First year included: billing starts when your sample is received'),
    ).toBeVisible(slow);
    await expect(client.getByText('Overdue', { exact: true })).toHaveCount(0);

    // Staff record the arrival: the client's storage is paid until the first anniversary.
    await page
      .getByRole('navigation', { name: 'Back office sections' })
      .getByRole('link', { name: 'Samples to Receive' })
      .click();
    await expect(page.getByRole('heading', { name: 'Samples to Receive', level: 1 })).toBeVisible();
    await openRow(page, name);
    const arriving = page.getByRole('article', { name: new RegExp(name) });
    await arriving.getByRole('button', { name: 'Record arrival' }).click();
    await expect(arriving.getByText('Please enter the date the sample arrived')).toBeVisible();
    await expect(arriving.getByText('Please enter the number of vials banked')).toBeVisible();
    await arriving.getByRole('textbox', { name: 'Date received' }).fill(usDate(0));
    await arriving.getByRole('textbox', { name: 'Vials banked' }).fill('6');
    await checkScreen(page, 'samples-to-receive');
    await arriving.getByRole('button', { name: 'Record arrival' }).click();
    const [month, day, year] = usDate(0).split('/');
    const anniversary = `${month}/${month === '02' && day === '29' ? '28' : day}/${Number(year) + 1}`;
    await expect(page.getByRole('status').filter({ hasText: clientId })).toContainText(
      `Sample received. The first year of storage is included: storage is paid until ${anniversary}.`,
    );
    await client.reload();
    await expect(client.getByText(anniversary).first()).toBeVisible(slow);

    // The lab report: read it, then reject it with a reason.
    await page
      .getByRole('navigation', { name: 'Back office sections' })
      .getByRole('link', { name: 'Lab Reports' })
      .click();
    await expect(page.getByRole('heading', { name: 'Lab Reports', level: 1 })).toBeVisible();
    await openRow(page, name);
    const item = page.getByRole('article', { name: new RegExp(name) });
    await expect(item).toContainText('by the client');
    await checkScreen(page, 'lab-reports');
    // It opens in a new tab, in the browser's viewer: served inline, not as a download.
    const link = item.getByRole('link', {
      name: /View the lab report \(partial-panel\.pdf.*opens in a new tab\)/,
    });
    await expect(link).toHaveAttribute('target', '_blank');
    const preview = await page.request.get((await link.getAttribute('href')) as string);
    expect(preview.headers()['content-disposition']).toMatch(/^inline; /);
    expect((await preview.body()).equals(report)).toBe(true);
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await tab.close();
    await item.getByRole('button', { name: 'Reject…' }).click();
    await item.getByRole('button', { name: 'Reject lab report' }).click();
    await expect(item.getByText('Please enter the reason')).toBeVisible();
    await item.getByRole('textbox', { name: 'Reason for rejection' }).fill(REASON);
    await checkScreen(page, 'lab-report-reject');
    await item.getByRole('button', { name: 'Reject lab report' }).click();
    await expect(page.getByRole('status').filter({ hasText: clientId })).toContainText(
      "Lab report rejected. The client's screening form is open again.",
    );
    await expect(page.getByRole('article', { name: new RegExp(name) })).toHaveCount(0);
    const rejectedMail = await waitForMail(person.email, /screening again/, since);
    expect(rejectedMail.text).toContain(REASON);

    // The client finds the screening open again, with the reason.
    await client.goto('/form-document/Infectious-disease');
    const notice = client.getByTestId('lab-report-rejected');
    await expect(notice).toContainText('Your lab report was not accepted', slow);
    await expect(notice).toContainText(REASON);
    await expect(client.getByRole('form', { name: 'Infectious Disease Form' })).toBeVisible();
    await checkScreen(client, 'client-screening-reopened');
    await client.context().close();
  });
});
