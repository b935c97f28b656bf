/**
 * Every price, rate and limit a page shows is the version in force, the one the server charges
 * (issue 23). The demo admin publishes a version taking effect today on the Price Book page; a
 * client of this run, John (ACT10002), the newborn agreement's link and Dr. Alvarez then find its
 * figures on each page and none of the old (Dr. Alvarez also acting for the new client, on her screening
 * and consent, and for John, on his Request Cells and Store); the admin then puts the prices as shipped
 * back in force.
 *
 * Runs last on the "sequence" portal (playwright.config.ts), alone there: while its version is in
 * force, every journey of that portal pinning the shipped prices ($225.00 a bottle, 3%…) would fail.
 * The "main" portal's database has its own price book.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import { SHIPPED_PRICE_AMOUNTS } from '../../../src/domain/price-book';
import { newClientByCheck, setPasswordFromWelcome, usDate } from '../../support/clients';
import { waitForMail } from '../../support/mail';
import { signIn } from '../../support/portal';
import { signInAsDemoAdmin } from '../../support/staff';

// Letters and digits: a long run of digits would read as a card number, which no field takes.
const run = Date.now().toString(36);

/** The staff version: what the admin types on the Price Book page, by the entry's label. */
const NEW_PRICES: [label: string, typed: string][] = [
  ['Card processing fee', '3.50'],
  ['Up-front banking fee, adipose tissue', '2600.00'],
  ['Up-front banking fee, bone marrow', '3100.00'],
  ['Annual Maintenance Fee (ACH)', '345.00'],
  ['Annual fee quoted for card or check', '360.00'],
  ['White Glove Labs fee', '410.00'],
  ['Vial of 10 million cells', '520.00'],
  ['Cell Protection Plan, per vial', '26.00'],
  ['Replacement fee per paid vial, a late cancellation', '260.00'],
  ['A year of storage (list price)', '360.00'],
  ['Bio-Insurance vial, 10 to 24 vials', '430.00'],
  ['Stem Cell Face Serum, a bottle', '230.00'],
  ['Stem Cell Face Serum, a bottle from 11', '210.00'],
];

/** Today in the bank's time zone, as the API takes it (YYYY-MM-DD). */
function bankToday() {
  const [month, day, year] = usDate(0).split('/');
  return `${year}-${month}-${day}`;
}

async function clientPage(browser: Browser, clientId: string) {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, clientId);
  return page;
}

/** Dr. Alvarez chooses the client she acts for on My Clients; the header names them. */
async function actFor(physician: Page, clientId: string) {
  await physician.goto('/my-clients');
  await physician
    .locator(`tr[data-client="${clientId}"]`)
    .getByRole('button', { name: /^Choose/ })
    .click();
  await expect(physician.getByRole('banner')).toContainText(`(${clientId})`);
}

/** The request form's annual storage note: the version's $360.00 and $345.00, not $350.00 nor $339.81. */
async function expectAnnualStorageNote(page: Page) {
  const note = page.getByTestId('annual-storage-note');
  await expect(note).toContainText('Annual storage fee $360.00 by card or check ($345.00 by ACH)');
  await expect(note).not.toContainText('$350.00');
  await expect(note).not.toContainText('$339.81');
}

/** Neither the old figure nor the old rate is anywhere on the page. */
async function expectNone(page: Page, ...old: RegExp[]) {
  for (const text of old) await expect(page.getByText(text)).toHaveCount(0);
}

test('a price version in force today shows its figures on every page; the prices as shipped then return', async ({
  browser,
}) => {
  test.setTimeout(480_000);
  const since = Date.now() - 1000;

  // A client of this run, registered by Dr. Alvarez with a check the admin records: the consent opens.
  // A newborn (two months old): her record takes a newborn finance agreement.
  const person = {
    first: 'Priya',
    last: `Book${run}`,
    email: `priya.book.${run}@example.com`,
    dob: usDate(-60),
  };
  const clientId = await newClientByCheck(browser, person, run);
  const admin = await (await browser.newContext()).newPage();
  await signInAsDemoAdmin(admin);
  const checks = await admin.request.get('/api/staff/sample_checks');
  expect(checks.status(), await checks.text()).toBe(200);
  const sample = (
    (await checks.json()) as { samples: { sampleId: string; clientActId: string }[] }
  ).samples.find((s) => s.clientActId === clientId);
  expect(sample, `no sample awaiting a check for ${clientId}`).toBeDefined();
  const recorded = await admin.request.post('/api/staff/record_check', {
    data: { sampleId: sample?.sampleId, checkNumber: '20451', checkAmount: '3,000.00', checkDate: usDate(0) },
  });
  expect(recorded.status(), await recorded.text()).toBe(200);
  const client = await setPasswordFromWelcome(browser, person.email, 'Quiet ledger by the sea 2051', since);

  // The admin publishes the version on the Price Book page, taking effect today.
  await admin.goto('/staff/admin/prices');
  await expect(admin.getByRole('heading', { name: 'Price Book', level: 1 })).toBeVisible();
  for (const [label, typed] of NEW_PRICES) {
    await admin.getByRole('textbox', { name: label, exact: true }).fill(typed);
  }
  await admin.getByRole('textbox', { name: 'Takes effect on' }).fill(usDate(0));
  await admin.getByRole('textbox', { name: 'Reason' }).fill(`Prices of journey ${run}`);
  await expect(admin.getByText('Card processing fee: 3% → 3.5%')).toBeVisible();
  await admin.getByRole('button', { name: 'Add version' }).click();
  await expect(admin.getByRole('status').filter({ hasText: /^Version \d+ takes effect on/ })).toContainText(
    usDate(0),
  );

  try {
    const inForce = await (await admin.request.get('/api/pay/price_book')).json();
    expect(inForce.amounts).toMatchObject({ serumPrice: 23_000, cardProcessingFee: 350 });

    // The store: the bottle and the bulk bottle, and the card fee in the summary.
    const john = await clientPage(browser, 'ACT10002');
    await john.goto('/store');
    const store = john.getByRole('form', { name: 'ACT Store' });
    await expect(
      store.getByText('Stem Cell Face Serum: $230.00 per bottle, $210.00 per bottle if ordering 11 or more.'),
    ).toBeVisible();
    await store.getByRole('button', { name: 'One bottle more' }).click();
    await store.getByRole('radio', { name: 'Credit Card', exact: true }).check();
    await expect(store.getByRole('cell', { name: 'Processing fee (3.5%)' })).toBeVisible();
    await expectNone(john, /\$225\.00/, /\$200\.00 per bottle/, /\(3%\)/);

    // The plans: the list price of a year, the Bio-Insurance tier, the suggestion and its card fee.
    await john.goto('/ACT-banking-storage-plans');
    await expect(john.getByText('(the list price is $360.00 a year)', { exact: false })).toBeVisible();
    await expect(john.getByText(/^Suggested: Bio-Insurance 100 .*: \$4,300\.00\.$/)).toBeVisible();
    await john.getByRole('button', { name: 'Choose the suggestion' }).click();
    // $4,300.00 and 3.5% by card: $150.50.
    await expect(john.getByTestId('order-total')).toHaveText('$4,450.50');
    await expect(
      john.getByRole('radio', { name: /Bio-Insurance 100: .*\$430\.00 a vial \(14% discount\)/ }),
    ).toBeVisible();
    await expectNone(john, /\$350\.00 a year/, /\$425\.00 a vial/, /\$4,250\.00/);

    // The Stem Cell Request Form: the vial, the Cell Protection Plan, the card fee, the replacement fee.
    await john.goto('/stem-cell-request');
    const request = john.getByRole('form', { name: 'Stem Cell Request Form' });
    await expect(request).toBeVisible({ timeout: 30_000 });
    await expect(request.getByText(/\$520\.00 per vial \(10 million cells\)/)).toBeVisible();
    await expect(request.getByText(/Protection Plan costs \$26\.00 per vial/)).toBeVisible();
    await expect(
      request.getByText('A 3.5% processing fee applies to card payments; ACH has none.'),
    ).toBeVisible();
    await expect(request.getByText(/replacement fee of \$260\.00 per vial/)).toBeVisible();
    await expectAnnualStorageNote(john);
    await expectNone(john, /\$500\.00 per vial/, /\$25\.00 per vial/, /fee of \$250\.00/, /A 3% /);

    // Payment Information.
    await john.goto('/payment-information');
    await expect(
      john.getByText('A 3.5% processing fee applies to card payments; ACH payments have none.'),
    ).toBeVisible();
    await expectNone(john, /A 3% /);

    // The consent of the new client: its fees, then the annual storage commitment of page 2.
    await client.goto('/form-document/Consent-form');
    const consent = client.getByRole('form', { name: 'Client Consent Form' });
    await expect(
      consent.getByText(
        'The up-front banking fee is $2,600.00 for adipose tissue and $3,100.00 for bone marrow, and includes the first year of storage.',
      ),
    ).toBeVisible();
    await expect(
      consent.getByText(
        'Card payments carry a processing fee of 3.5% of the amount; ACH payments carry none.',
      ),
    ).toBeVisible();
    await expect(
      consent.getByText(
        /The amount quoted for future years is \$345\.00 by ACH and \$360\.00 by card or check\./,
      ),
    ).toBeVisible();
    await consent.getByRole('radio', { name: 'Destroy any Tissue' }).check();
    await consent.getByRole('radio', { name: 'No', exact: true }).check();
    await consent.getByRole('button', { name: 'Next Page' }).click();
    await expect(consent.getByText(/\$345\.00 by ACH or \$360\.00 by card or check/)).toBeVisible();
    await expectNone(client, /\$339\.81/, /\$2,500\.00/, /\$3,000\.00/, / 3% /);

    // Her screening: White Glove Labs and its card fee.
    await client.goto('/form-document/Infectious-disease');
    const screening = client.getByRole('form', { name: 'Infectious Disease Form' });
    await screening.getByRole('combobox', { name: 'Submission Option' }).click();
    await client.getByRole('option', { name: 'White Glove Labs', exact: true }).click();
    await expect(
      screening.getByText(/White Glove Labs fee: \$410\.00\. Card payments add a 3\.5%/),
    ).toBeVisible();
    await expectNone(client, /\$399\.00/);

    // Her newborn finance agreement: its own deposit and the version's card fee in the terms.
    const sent = await admin.request.post('/api/staff/send_agreement_link', {
      data: {
        clientId,
        mainContact: `${person.first} ${person.last}`,
        patientId: `NB-${run}`,
        annualBankingFeeCents: 17_500,
        bioInsuranceFeeCents: 30_000,
        downPaymentCents: 30_000,
        initialProcessingFeeCents: 195_000,
        interestRateBasisPoints: 650,
        installments: 12,
        totalFinancedCents: 170_000,
      },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    const mail = await waitForMail(person.email, /Newborn Finance Agreement/, since);
    const link = /https?:\/\/\S+\/newbornfinanceagreement\/[\w.-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeDefined();
    await client.goto(new URL(link as string).pathname);
    await expect(
      client.getByText('An initial non-refundable deposit of $300.00 is due at signup.'),
    ).toBeVisible();
    await expect(
      client.getByText('Payments made by credit card add a 3.5% card processing fee.'),
    ).toBeVisible();
    await expect(client.getByRole('row', { name: 'Interest rate 6.5%' })).toBeVisible();
    await expectNone(client, /deposit of \$250/, /add a 3% /);

    // Dr. Alvarez's Initial Sample Processing: the up-front fees and the card fee.
    const physician = await (await browser.newContext()).newPage();
    await physician.goto('/physician');
    await physician.getByRole('textbox', { name: 'Physician ID' }).fill('PHY20001');
    await physician.getByRole('textbox', { name: 'Password' }).fill('DemoPhysician#2026');
    await physician.getByRole('button', { name: 'Sign In' }).click();
    await expect(physician).toHaveURL(/\/my-clients$/);
    await physician.goto('/initial-processing');
    await expect(
      physician.getByText(/The up-front banking fee for adipose tissue is \$2,600\.00\./),
    ).toBeVisible();
    await expect(
      physician.getByText(/The up-front banking fee for bone marrow is \$3,100\.00\./),
    ).toBeVisible();
    await expect(physician.getByText(/\(a 3\.5% card processing fee is added\)/)).toBeVisible();
    await expectNone(physician, /\$2,500\.00/, /\$3,000\.00/);
    // Its page 2: the amount in view and the button that pays it, by card.
    await physician.getByRole('button', { name: 'Next Page' }).click();
    const sampleForm = physician.getByRole('form', { name: 'New sample form' });
    await sampleForm.getByRole('radio', { name: 'Adipose' }).check();
    await sampleForm.getByRole('radio', { name: 'Credit card' }).check();
    // $2,600.00 and 3.5% by card: $91.00.
    await expect(sampleForm.getByTestId('amount-in-view')).toHaveText(
      '$2,600.00 + 3.5% processing fee $91.00 = $2,691.00',
    );
    await expect(sampleForm.getByRole('button', { name: 'Pay $2,691.00' })).toBeVisible();
    await sampleForm.getByRole('radio', { name: 'Bone marrow' }).check();
    // $3,100.00 and 3.5% by card: $108.50.
    await expect(sampleForm.getByTestId('amount-in-view')).toHaveText(
      '$3,100.00 + 3.5% processing fee $108.50 = $3,208.50',
    );
    await expect(sampleForm.getByRole('button', { name: 'Pay $3,208.50' })).toBeVisible();
    await expectNone(physician, /\$2,500\.00/, /\$3,000\.00/, /\$2,575\.00/, /\$3,090\.00/);

    // Acting for the new client: her screening's White Glove Labs total and her consent's fees.
    await actFor(physician, clientId);
    await physician.goto('/infectious-disease');
    const physicianScreening = physician.getByRole('form', { name: 'Client Infectious Disease Form' });
    await expect(physicianScreening.getByRole('textbox', { name: 'Client ID' })).toHaveValue(clientId);
    await physicianScreening.getByRole('button', { name: 'Confirm Client Details' }).click();
    await expect(physicianScreening.getByText(/Client Details Successfully Confirmed/)).toBeVisible();
    await physicianScreening.getByRole('combobox', { name: 'Submission Option' }).click();
    await physician.getByRole('option', { name: 'White Glove Labs', exact: true }).click();
    await expect(physicianScreening.getByText('White Glove Labs Total: $410.00')).toBeVisible();
    await expect(physicianScreening.getByText('White Glove Labs fee: $410.00')).toBeVisible();
    // $410.00 and 3.5% by card: $14.35.
    await expect(physicianScreening.getByText('Credit card processing fee (3.5%): $14.35')).toBeVisible();
    await expect(physicianScreening.getByText('Total charged to your card: $424.35')).toBeVisible();
    await expectNone(physician, /\$399\.00/, /\(3%\)/);

    await physician.goto('/client-consent');
    const physicianConsent = physician.getByRole('form', { name: 'Client Consent Form' });
    await expect(
      physicianConsent.getByText(
        'The up-front banking fee is $2,600.00 for adipose tissue and $3,100.00 for bone marrow, and includes the first year of storage.',
      ),
    ).toBeVisible();
    await expect(
      physicianConsent.getByText(
        'Card payments carry a processing fee of 3.5% of the amount; ACH payments carry none.',
      ),
    ).toBeVisible();
    await expect(
      physicianConsent.getByText(
        /The amount quoted for future years is \$345\.00 by ACH and \$360\.00 by card or check\./,
      ),
    ).toBeVisible();
    await expectNone(physician, /\$339\.81/, /\$2,500\.00/, /\$3,000\.00/, / 3% /);

    // Acting for John: the Stem Cell Request Form and the store, as the physician sees them.
    await actFor(physician, 'ACT10002');
    await physician
      .getByRole('navigation', { name: 'Portal sections' })
      .getByRole('link', { name: 'Request Cells' })
      .click();
    const physicianRequest = physician.getByRole('form', { name: 'Stem Cell Request Form' });
    await expect(physicianRequest).toBeVisible({ timeout: 30_000 });
    await expect(physicianRequest.getByText(/\$520\.00 per vial \(10 million cells\)/)).toBeVisible();
    await expect(physicianRequest.getByText(/Protection Plan costs \$26\.00 per vial/)).toBeVisible();
    await expectAnnualStorageNote(physician);
    await expectNone(physician, /\$500\.00 per vial/, /\$25\.00 per vial/, /A 3% /);

    await physician.goto('/store');
    const physicianStore = physician.getByRole('form', { name: 'ACT Store' });
    await expect(
      physicianStore.getByText(
        'Stem Cell Face Serum: $230.00 per bottle, $210.00 per bottle if ordering 11 or more.',
      ),
    ).toBeVisible();
    await physicianStore.getByRole('button', { name: 'One bottle more' }).click();
    await physicianStore.getByRole('radio', { name: 'Credit Card', exact: true }).check();
    await expect(physicianStore.getByRole('cell', { name: 'Processing fee (3.5%)' })).toBeVisible();
    await expectNone(physician, /\$225\.00/, /\$200\.00 per bottle/, /\(3%\)/);
  } finally {
    // The prices as shipped, in force again from now: a later version on the same day.
    const restored = await admin.request.post('/api/staff/create_price_version', {
      data: {
        effectiveOn: bankToday(),
        note: `Prices as shipped again, journey ${run}`,
        amounts: SHIPPED_PRICE_AMOUNTS,
      },
    });
    expect(restored.status(), await restored.text()).toBe(200);
  }
  const after = await (await admin.request.get('/api/pay/price_book')).json();
  expect(after.amounts).toMatchObject({ serumPrice: 22_500, serumBulkPrice: 20_000, cardProcessingFee: 300 });
});
