import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { addDays, addYears } from '../../../domain/dates';
import { INFECTIOUS_DISEASE_TERMS_VERSION } from '../../../domain/infectious-disease';
import { SHIPPED_PRICE_AMOUNTS } from '../../../domain/price-book';
import { clients, physicianClients, physicians, vialRequests } from '../../db/schema';
import { bankedClient } from '../../testing/billing-fixtures';
import { validTuesday } from '../../testing/dates';
import {
  addClient,
  addReleaseClient,
  newCardFields,
  saveCardOnFile,
  tokenizeCard,
  vialRequestBody,
} from '../../testing/form-fixtures';
import { staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';
import { renewalDeps } from '../payments/billing-routes';
import { runBilling } from '../payments/billing-run';

/**
 * Every e-mail that quotes a price, a rate or a threshold quotes the price book version in force,
 * the one the server charges (issue 23): an admin puts a version in force today whose figures all
 * differ from the book as shipped, then each e-mail is triggered through the API (the billing run
 * for the renewals) and read from the outbox. The expected figures are worked out by hand below;
 * none is read from the book under test.
 *
 * The version: a card fee of 3.5% (shipped 3%), adipose up-front fee $2,600 ($2,500), storage a
 * year $345 by ACH ($339.81) and $360 by card or check ($350), White Glove Labs $410 ($399), a vial
 * $430 ($500), Cell Protection Plan $26 a vial ($25), the late-cancellation replacement fee $260 a
 * vial ($250), the 5 Year Storage Plan $1,600 ($1,575), Bio-Insurance from 10 vials $430 ($425),
 * the serum $230 a bottle ($225).
 */

let t: TestApp;
let today: string;
let keySeq = 0;
const newKey = () => `price-emails-${++keySeq}`;

const NEW_AMOUNTS = {
  ...SHIPPED_PRICE_AMOUNTS,
  cardProcessingFee: 350,
  upFrontAdipose: 260_000,
  annualMaintenanceFee: 34_500,
  annualFeeCardOrCheck: 36_000,
  whiteGloveLabFee: 41_000,
  vialPrice: 43_000,
  cppPerVial: 2_600,
  vialReplacementFee: 26_000,
  storageYearListPrice: 36_000,
  storagePlan5Year: 160_000,
  bioInsurance10to24: 43_000,
  serumPrice: 23_000,
  serumBulkPrice: 21_000,
};

const post = (url: string, cookie: string, payload: object, key?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });

/** The newest e-mail to an address whose subject matches. */
async function mailTo(address: string, subject: RegExp | string) {
  const found = (await t.mailTo(address)).find((m) =>
    typeof subject === 'string' ? m.subject === subject : subject.test(m.subject),
  );
  expect(found, `no e-mail "${subject}" to ${address}`).toBeDefined();
  return found?.textBody ?? '';
}

function expectFigures(text: string, present: string[], absent: string[]) {
  for (const figure of present) expect(text).toContain(figure);
  for (const figure of absent) expect(text).not.toContain(figure);
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '10000', ...MANY_PAYMENT_ATTEMPTS });
  today = todayFor(t.clock.now());
  const admin = await staffSession(t);
  const created = await post('/api/staff/create_price_version', admin, {
    effectiveOn: today,
    note: 'New prices for the e-mails test',
    amounts: NEW_AMOUNTS,
  });
  expect(created.statusCode, created.body).toBe(200);
  expect(created.json()).toMatchObject({ awaitingApproval: false });
  const inForce = await t.app.inject({ method: 'GET', url: '/api/pay/price_book' });
  expect(inForce.json().version).toBe(created.json().version);
});
afterAll(() => t.close());

describe('the e-mails of orders, with a price version in force', () => {
  it('the store order: $230.00 a bottle and the 3.5% card fee', async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const response = await post(
      '/api/pay/send_CP_StoreRequest',
      cookie,
      {
        stemskinserum: { name: 'Stem Cell Face Serum', quantity: 2 },
        ShipmentDate: validTuesday(today, 7),
        FirstName: 'Test',
        LastName: 'Client',
        ShippingEmail: client.email,
        Phone: '3055550142',
        Street: '1200 Brickell Avenue',
        City: 'Miami',
        State: 'FL',
        Country: 'United States',
        ZipCode: '33131',
        PaymentMethod: 'Credit Card',
        // 2 x $230.00 = $460.00, 3.5% = $16.10.
        expectedTotalCents: 47_610,
      },
      newKey(),
    );
    expect(response.statusCode, response.body).toBe(200);
    const text = await mailTo(client.email, 'Client Portal: your store order');
    expectFigures(
      text,
      ['Stem Cell Face Serum: 2 x $230.00 = $460.00', 'Processing fee: $16.10', 'Total charged: $476.10'],
      ['$225.00', '$450.00', '$13.50', '$463.50'],
    );
  });

  it('the stem cell request: $430.00 a vial, $26.00 CPP a vial, 3.5%, and the $260.00 replacement fee', async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const response = await post(
      '/api/pay/send_CellRequest',
      cookie,
      vialRequestBody({
        NumberOfVials: 2,
        CPP: 'Yes',
        shipping_method: 'ACT VIP',
        ShipmentDate: validTuesday(today, 28),
      }),
      newKey(),
    );
    expect(response.statusCode, response.body).toBe(200);
    const text = await mailTo(client.email, 'Client Portal: your stem cell request');
    // 2 x $430.00 = $860.00, CPP 2 x $26.00 = $52.00, ACT VIP later; 3.5% of $912.00 = $31.92.
    expectFigures(
      text,
      [
        'Vials: 2 (0 pre-paid), $860.00',
        'Cell Protection Plan: $52.00',
        'Processing fee: $31.92',
        'Total charged: $943.92',
        'A later cancellation costs a replacement fee of $260.00 per vial',
      ],
      ['$1,000.00', '$50.00', '$250.00'],
    );

    // Cancelled after the cutoff (the delivery moved to tomorrow): $260.00 kept for each paid vial,
    // $520.00 of the $912.00, and the card fee refunded in proportion ($31.92 x 392 / 912 = $13.72):
    // $405.72 back, $538.20 kept.
    const tomorrow = addDays(today, 1);
    await t.db
      .update(vialRequests)
      .set({ shipmentDate: tomorrow })
      .where(eq(vialRequests.id, response.json().id));
    const cancelled = await post('/api/pay/cancel_CellRequest', cookie, { id: response.json().id }, newKey());
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const cancelMail = await mailTo(client.email, 'Your stem cell request is cancelled');
    expectFigures(
      cancelMail,
      [
        '$405.72 is refunded to the account you paid with.',
        '$538.20 is kept as the replacement fee: $260.00 for each of the 2 vials you paid for, with its card fee.',
      ],
      ['$250.00'],
    );
  });

  it('the Banking and Storage Plans order: the 5 Year plan at $1,600.00, Bio-Insurance at $430.00 a vial, 3.5%', async () => {
    const client = await addClient(t.db, { annualStoragePaidUntil: addYears(today, 1) });
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const response = await post(
      '/api/pay/send_StoragePlan',
      cookie,
      {
        Source: 'Client Portal',
        Annual_Storage_Plan: '5 Year',
        Plan: 'Bio-Insurance Plan',
        Vials: 10,
        Tissue_Info: 'Adipose',
        PaymentMethod: 'Credit Card',
        // $1,600.00 + 10 x $430.00 = $5,900.00; 3.5% = $206.50.
        expectedTotalCents: 610_650,
      },
      newKey(),
    );
    expect(response.statusCode, response.body).toBe(200);
    const text = await mailTo(client.email, 'Client Portal: your Banking and Storage Plans order');
    expectFigures(
      text,
      [
        'Annual storage: 5 Year Storage Plan, $1,600.00',
        '$4,300.00',
        'Processing fee: $206.50',
        'Total: $6,106.50',
        'We charged $6,106.50',
      ],
      ['$1,575.00', '$4,250.00'],
    );
  });

  it('the new sample form: $2,600.00 and the 3.5% fee by card, $2,600.00 by check', async () => {
    const alvarez = await t.signInPhysician('PHY20001');
    const person = (n: number) => ({
      FirstName: 'Nora',
      LastName: `Prices${n}`,
      Dob: '04/12/1979',
      Ship_date: '12/31/2049',
      Email: `nora.prices${n}@example.com`,
      PhoneNumber: '3055550100',
      Address: '200 Biscayne Boulevard',
      City: 'Miami',
      State: 'FL',
      zipcode: '33131',
      Country: 'United States',
      Tissue: 'Adipose',
    });
    const byCard = await post(
      '/api/pay/send_ProcessData',
      alvarez,
      {
        ...person(1),
        CreditCard: true,
        update_card: true,
        ...newCardFields(t, await tokenizeCard(t, '4242424242424242'), { first: 'Maria', last: 'Alvarez' }),
      },
      newKey(),
    );
    expect(byCard.statusCode, byCard.body).toBe(200);
    const cardMail = await mailTo('maria.alvarez@example.com', /new sample form for Nora Prices1/);
    // $2,600.00 x 3.5% = $91.00.
    expectFigures(
      cardMail,
      ['We charged $2,600.00 + 3.5% processing fee $91.00 = $2,691.00'],
      ['$2,500.00', '3% processing fee', '$75.00', '$2,575.00'],
    );

    const byCheck = await post(
      '/api/pay/send_ProcessData',
      alvarez,
      {
        ...person(2),
        CreditCard: false,
        BillingName: 'Clinic Accounts',
        BillingEmail: 'accounts.prices@clinic.example.com',
      },
      newKey(),
    );
    expect(byCheck.statusCode, byCheck.body).toBe(200);
    const checkMail = await mailTo('maria.alvarez@example.com', /new sample form for Nora Prices2/);
    expectFigures(checkMail, ['Please put a check for $2,600.00 in the shipment'], ['$2,500.00']);
    const billing = await mailTo('accounts.prices@clinic.example.com', /Initial sample processing: check of/);
    expectFigures(billing, ['The up-front banking fee is $2,600.00'], ['$2,500.00']);
  });

  it("White Glove Labs on the physician's card: $410.00 and the 3.5% fee, in both e-mails", async () => {
    const maria = await t.signInPhysician('PHY20001');
    const [physician] = await t.db
      .select({ id: physicians.id })
      .from(physicians)
      .where(eq(physicians.physicianActId, 'PHY20001'));
    const client = await addClient(t.db, {
      street: '1 Ocean Drive',
      city: 'Miami',
      state: 'FL',
      zip: '33139',
    });
    await t.db.insert(physicianClients).values({ physicianId: physician?.id as string, clientId: client.id });
    const [named] = await t.db
      .select({ lastName: clients.lastName })
      .from(clients)
      .where(eq(clients.id, client.id));
    const lastName = named?.lastName as string;
    const response = await post(
      '/api/pay/set_PhysicianDiseaseData',
      maria,
      {
        ClientInfo: 'client_id',
        ClientId: client.actId,
        ClientLastname: lastName,
        submissionOption: 'White Glove Labs',
        agree: true,
        FirstName: 'Test',
        LastName: 'Client',
        street: '1 Ocean Drive',
        city: 'Miami',
        state: 'FL',
        ZipCode: '33139',
        country: 'United States',
        PaymentMethod: 'Credit Card',
        termsVersion: INFECTIOUS_DISEASE_TERMS_VERSION,
        update_card: true,
        ...newCardFields(t, await tokenizeCard(t, '4242424242424242'), { first: 'Maria', last: 'Alvarez' }),
      },
      newKey(),
    );
    expect(response.statusCode, response.body).toBe(200);
    // $410.00 x 3.5% = $14.35.
    const receipt = await mailTo('maria.alvarez@example.com', /White Glove Labs receipt/);
    expectFigures(
      receipt,
      ['We charged $424.35 (White Glove Labs fee $410.00 + card processing fee (3.5%) $14.35)'],
      ['$399.00', '(3%)', '$410.97'],
    );
    const clientMail = await mailTo(client.email, /screening form/);
    expectFigures(
      clientMail,
      ['Your physician paid $424.35 for White Glove Labs (lab fee $410.00 + card processing fee $14.35)'],
      ['$399.00', '$410.97'],
    );
  });
});

describe('the e-mails of annual storage, with a price version in force', () => {
  const run = (asOf: string, actIds: string[]) =>
    runBilling(renewalDeps(t.app.deps), { asOf, clientActIds: actIds });

  it('the renewal notice and receipt: $360.00 by card', async () => {
    const due = addDays(today, 20);
    const client = await bankedClient(t, due, { behavior: 'approve', last4: '4242' });
    await run(today, [client.actId]);
    const notice = await mailTo(client.email, 'Your annual storage renews soon');
    expectFigures(
      notice,
      ['The amount is $360.00.', 'We will charge $360.00 to your Visa ending 4242'],
      ['$350.00', '$339.81'],
    );
    await run(addDays(due, 1), [client.actId]);
    const receipt = await mailTo(client.email, 'Receipt: annual storage renewed');
    expectFigures(receipt, ['We charged $360.00 to your Visa ending 4242'], ['$350.00']);
  });

  it('the invoice of a client with no method on file: $360.00 due, by check too', async () => {
    const due = addDays(today, 20);
    const client = await bankedClient(t, due, null);
    await run(today, [client.actId]);
    const invoice = await mailTo(client.email, 'Your annual storage renews soon');
    expectFigures(
      invoice,
      ['The amount is $360.00.', 'this notice is your invoice: $360.00 is due by', '$360.00'],
      ['$350.00', '$339.81'],
    );
  });

  it('the decline: what was tried, and what the link charges (the notice’s $360.00 by card, $345.00 by bank account)', async () => {
    const due = addDays(today, 20);
    const client = await bankedClient(t, due, { behavior: 'charge:generic_decline', last4: '0341' });
    await run(today, [client.actId]);
    await run(due, [client.actId]);
    const declined = await mailTo(client.email, 'Your annual storage payment did not go through');
    // The link charges the amounts the notice fixed for each method, with no fee on top (not
    // $345.00 and the version's 3.5%, $357.08).
    expectFigures(
      declined,
      ['We could not charge $360.00', 'To pay now ($360.00 by card, $345.00 by bank account)'],
      ['$350.00', '$339.81', '$357.08'],
    );
  });

  it('overdue years paid by saving a card: the stored years and the version’s 3.5% fee', async () => {
    // John (ACT10002): two years overdue at $339.81 each, fixed when they were billed.
    const john = await t.signIn('ACT10002');
    await saveCardOnFile(t, john, newKey());
    const text = await mailTo('john.roe@example.com', 'Client Portal: your payment information was updated');
    // $679.62 x 3.5% = $23.7867: $23.79.
    expectFigures(
      text,
      [
        'We charged $703.41 to it for your overdue annual storage fees (including a $23.79 card processing fee)',
      ],
      ['$700.01', '$20.39'],
    );
  });
});
