import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fedexHolidays, shipmentDateMessages } from '../../../domain/carrier-calendar';
import { cellRequestMessages } from '../../../domain/cell-request';
import { todayFor } from '../../../domain/client';
import { addDays } from '../../../domain/dates';
import {
  auditEvents,
  clientActivities,
  clients,
  paymentMethods,
  payments,
  vialRequests,
} from '../../db/schema';
import { validTuesday, weekdayFrom } from '../../testing/dates';
import {
  addReleaseClient,
  newCardFields,
  saveCardOnFile,
  tokenizeBank,
  tokenizeCard,
  vialRequestBody,
} from '../../testing/form-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let jane: string;
let john: string;
let maria: string;
let david: string;
let today: string;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  jane = await t.signIn('ACT10001');
  john = await t.signIn('ACT10002');
  maria = await t.signInPhysician('PHY20001');
  david = await t.signInPhysician('PHY20002');
  today = todayFor(t.clock.now());
});
afterAll(() => t.close());

let keySeq = 0;
const newKey = () => `cell-request-${Date.now()}-${++keySeq}`;

const send = (cookie: string, body: Record<string, unknown>, key = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CellRequest',
    headers: { cookie, 'idempotency-key': key },
    payload: body,
  });

function order(overrides: Record<string, unknown> = {}) {
  return vialRequestBody({
    NumberOfVials: 2,
    CPP: 'Yes',
    ShipmentDate: validTuesday(today, 28),
    ...overrides,
  });
}

// John: 10 pre-paid Longevity vials (1 million cells each), which cover one vial of 10 million cells.
// 2 vials = 1 covered by the 10 Longevity vials + $500, CPP 2 x $25, FedEx to New York
// $118.38 (the offline carrier's $98.65 x 1.20), 3% card fee on $668.38 = $20.05: $688.43. His two
// overdue years of annual storage join the charge: $679.62 + their 3% $20.39 = $700.01. $1,388.44.
const JOHN_TOTAL = 138_844;

async function ledgerOf(clientId: string) {
  return t.db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'vial_request')));
}

async function clientRow(actId: string) {
  const [row] = await t.db.select().from(clients).where(eq(clients.clientActId, actId));
  if (!row) throw new Error(`no client ${actId}`);
  return row;
}

describe('send_CellRequest', () => {
  it('refuses a client whose consent is not signed, with the spec alert', async () => {
    const response = await send(jane, order());
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe(cellRequestMessages.consentRequired);
  });

  it('needs an Idempotency-Key', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/send_CellRequest',
      headers: { cookie: john },
      payload: order(),
    });
    expect(response.statusCode).toBe(400);
  });

  it('is the client’s own: a physician cannot order', async () => {
    expect((await send(maria, order())).statusCode).toBe(404);
  });

  it('refuses FedEx dates on a Monday, a holiday, the day after one and before the earliest date', async () => {
    const nextYear = Number(today.slice(0, 4)) + 1;
    const thanksgiving = fedexHolidays(nextYear).find((h) => h.name === 'Thanksgiving')?.date as string;
    const cases: [string, string][] = [
      [weekdayFrom(addDays(today, 28), 1), shipmentDateMessages.weekday],
      [thanksgiving, shipmentDateMessages.holiday],
      [addDays(thanksgiving, 1), shipmentDateMessages.dayAfterHoliday],
      [weekdayFrom(addDays(today, 3), 3), shipmentDateMessages.tooEarly],
      ['02/30/2030', shipmentDateMessages.invalid],
    ];
    for (const [date, message] of cases) {
      const response = await send(john, order({ ShipmentDate: date }));
      expect(response.statusCode, date).toBe(400);
      expect(response.json().fields?.ShipmentDate ?? response.json().error, date).toBe(message);
    }
    expect(await ledgerOf((await clientRow('ACT10002')).id)).toHaveLength(0);
  });

  it('allows ACT VIP any day from the earliest date, shipping to be confirmed', async () => {
    const client = await addReleaseClient(t.db, { bioInsuranceVialsAvailable: 3 });
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    // Covered by bio-insurance vials: the earliest date is two days ahead; a Monday is fine for VIP.
    const monday = weekdayFrom(addDays(today, 3), 1);
    const response = await send(
      cookie,
      order({
        NumberOfVials: 1,
        CPP: 'No',
        shipping_method: 'ACT VIP',
        ShipmentDate: monday,
        expectedTotalCents: 0,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.amountChargedCents).toBe(0);
    expect(body.TransactionId).toBeNull();
    expect(body.request.shippingPriceToBeConfirmed).toBe(true);
    expect(await ledgerOf(client.id)).toHaveLength(0);
  });

  it('charges the server amount once for 20 concurrent submissions with the same key; forged amounts change nothing', async () => {
    const key = newKey();
    const forged = order({
      CPPAmountCharged: 0,
      ShippingFeeCharged: 0,
      AmountForDoseCharged: 0,
      CreditCardProcessingFee: 0,
    });
    const responses = await Promise.all(Array.from({ length: 20 }, () => send(john, forged, key)));
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const ids = new Set(responses.map((r) => r.json().id));
    expect(ids.size).toBe(1);
    const body = responses[0]?.json();
    expect(body.amountChargedCents).toBe(JOHN_TOTAL);
    expect(body.message).toBe(cellRequestMessages.submitted);
    expect(body.request).toMatchObject({
      vialsCents: 50_000,
      cppCents: 5_000,
      shippingCents: 11_838,
      overdueStorageYears: 2,
      overdueStorageCents: 67_962,
      processingFeeCents: 4_044,
      PrePaidVials: 1,
      BioInsuranceVialsUsed: 0,
      LongevityVialsUsed: 10,
    });

    // A retry after the order is done (his pre-paid vial used by then) gets the same answer.
    const late = await send(john, forged, key);
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json()).toEqual(body);

    const johnRow = await clientRow('ACT10002');
    const ledger = await ledgerOf(johnRow.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ status: 'approved', totalCents: JOHN_TOTAL });
    expect(johnRow.longevityVialsAvailable).toBe(0);
    const requests = await t.db.select().from(vialRequests).where(eq(vialRequests.clientId, johnRow.id));
    expect(requests).toHaveLength(1);

    const [activity] = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.paymentId, ledger[0]?.id as string));
    expect(activity).toMatchObject({
      type: 'Dose Retrieval Fee',
      doseAmount: 2,
      stageName: 'Requested',
      amountCents: JOHN_TOTAL,
      cellRequestApprovedByPractitioner: false,
      cellRequestId: requests[0]?.id,
    });
    // Client Activity names the request, for the row's link to its page.
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_ClientActivity',
      headers: { cookie: john },
    });
    expect(listed.json().result).toContainEqual(
      expect.objectContaining({ Type: 'Dose Retrieval Fee', CellRequestId: requests[0]?.id }),
    );

    const [mail] = await t.mailTo('john.roe@example.com');
    expect(mail?.subject).toBe('Client Portal: your stem cell request');
    expect(mail?.textBody).toContain('Overdue annual storage (2 years): $679.62');
    expect(mail?.textBody).toContain('Total charged: $1,388.44');
    expect(mail?.textBody).toContain('Cancellation policy');
    const [clinicMail] = await t.mailTo('receiving@hudson-ortho.example.com');
    expect(clinicMail?.textBody).toContain('Total charged: $1,388.44');
  });

  it('refuses a shown total that differs from the server’s (409) and charges nothing', async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const response = await send(cookie, order({ expectedTotalCents: 100 }));
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('AMOUNT_CHANGED');
    expect(await ledgerOf(client.id)).toHaveLength(0);
  });

  it('uses each of the last pre-paid vials once when two requests race', async () => {
    const client = await addReleaseClient(t.db, { bioInsuranceVialsAvailable: 1 });
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const covered = order({
      NumberOfVials: 1,
      CPP: 'No',
      shipping_method: 'ACT VIP',
      ShipmentDate: addDays(today, 5),
      expectedTotalCents: 0,
    });
    const [a, b] = await Promise.all([send(cookie, covered), send(cookie, covered)]);
    const refused = a?.statusCode === 200 ? b : a;
    expect([a?.statusCode, b?.statusCode]).toContain(200);
    // The loser either lost the guarded reservation (409) or, checked after the winner's claim,
    // is no longer covered by bio-insurance vials and so too early for its date (400).
    expect([cellRequestMessages.vialsChanged, shipmentDateMessages.tooEarly]).toContain(
      refused?.json().fields?.ShipmentDate ?? refused?.json().error,
    );
    const row = await t.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row[0]?.bioInsuranceVialsAvailable).toBe(0);
    const requests = await t.db.select().from(vialRequests).where(eq(vialRequests.clientId, client.id));
    expect(requests.map((r) => r.bioInsuranceVialsUsed)).toEqual([1]);
  });

  it('charges another card (a new token) with the 3% fee, and another bank account with none', async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey(), '4000000000000341');
    // 2 vials $1,000 + CPP $50 + FedEx to New York $118.38 = $1,168.38; by card + $35.05.
    const card = await send(
      cookie,
      order({
        ...newCardFields(t, await tokenizeCard(t, '4111111111111111')),
        update_card: true,
        expectedTotalCents: 120_343,
      }),
    );
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json().amountChargedCents).toBe(120_343);
    expect(card.json().request).toMatchObject({
      processingFeeCents: 3_505,
      paymentDescription: 'Visa ending in 1111',
    });
    // The declining card on file was never asked.
    const bank = await send(
      cookie,
      order({
        PaymentMethod: 'ACH Payment',
        update_ach: true,
        token: await tokenizeBank(t),
        Name_On_Account: 'Test Client',
        ABA_Routing_Number: '110000000',
        expectedTotalCents: 116_838,
      }),
    );
    expect(bank.statusCode, bank.body).toBe(200);
    expect(bank.json().request).toMatchObject({ processingFeeCents: 0, totalCents: 116_838 });
    const ledger = await ledgerOf(client.id);
    expect(ledger.map((row) => row.totalCents).sort()).toEqual([116_838, 120_343]);
    expect(ledger.every((row) => row.status === 'approved')).toBe(true);
  });

  it('refuses ACH with no account on file and none entered, with the spec message', async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const response = await send(cookie, order({ PaymentMethod: 'ACH Payment' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(
      'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
    );
    expect(await ledgerOf(client.id)).toHaveLength(0);
  });

  it("refuses a new card with no billing e-mail: 'Please enter billing email', nothing charged", async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    const card = newCardFields(t, await tokenizeCard(t, '4111111111111111'));
    const response = await send(
      cookie,
      order({
        ...card,
        Credit_Card_Biling_Email_Address: '',
        update_card: true,
        PaymentMethod: 'Credit Card',
      }),
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields).toEqual({
      Credit_Card_Biling_Email_Address: 'Please enter billing email',
    });
    expect(await ledgerOf(client.id)).toHaveLength(0);
  });

  it("takes the card's billing e-mail and zip by the spec's names: Credit_Card_Billing_Email, Credit_Card_Holder_Zip", async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    const {
      Credit_Card_Biling_Email_Address: _email,
      Credit_Card_Billing_Zip_Code: _zip,
      ...card
    } = newCardFields(t, await tokenizeCard(t, '4111111111111111'));
    const response = await send(
      cookie,
      order({
        ...card,
        Credit_Card_Billing_Email: 'spec.names@example.com',
        Credit_Card_Holder_Zip: '33139',
        update_card: true,
        save_card: true,
        PaymentMethod: 'Credit Card',
        expectedTotalCents: 120_343,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const [kept] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, client.id));
    expect(kept).toMatchObject({
      last4: '1111',
      billingEmail: 'spec.names@example.com',
      billingZip: '33139',
    });
  });

  it('leaves nothing ordered and gives the pre-paid vials back when the card is declined', async () => {
    // 10 Longevity vials cover one of the 2 vials: the decline gives all 10 back.
    const client = await addReleaseClient(t.db, { longevityVialsAvailable: 10 });
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey(), '4000000000000341');
    const response = await send(cookie, order());
    expect(response.statusCode, response.body).toBe(402);
    const [row] = await t.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row?.longevityVialsAvailable).toBe(10);
    expect(await t.db.select().from(vialRequests).where(eq(vialRequests.clientId, client.id))).toHaveLength(
      0,
    );
    const activities = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, client.id));
    expect(activities.filter((a) => a.type === 'Dose Retrieval Fee')).toHaveLength(0);
  });
});

describe('get_CellRequest and set_CellRequestApproval', () => {
  async function johnsRequestId(): Promise<string> {
    const johnRow = await clientRow('ACT10002');
    const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.clientId, johnRow.id));
    if (!row) throw new Error('John has no request yet');
    return row.id;
  }

  it('shows the client’s own request, and answers another client’s id as an unknown one', async () => {
    const id = await johnsRequestId();
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_CellRequest?id=${id}`,
      headers: { cookie: john },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id, NumberOfVials: 2, status: 'requested' });
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_CellRequest?id=${id}`,
      headers: { cookie: jane },
    });
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_CellRequest?id=00000000-0000-4000-8000-000000000000',
      headers: { cookie: jane },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
  });

  it('lets only the client’s linked physician approve, and Client Activity shows it', async () => {
    const id = await johnsRequestId();
    const approve = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/pay/set_CellRequestApproval',
        headers: { cookie },
        payload: { id },
      });
    expect((await approve(david)).statusCode).toBe(404);
    expect((await approve(john)).statusCode).toBe(404);
    const response = await approve(maria);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().approvedByPractitionerAt).not.toBeNull();
    const [request] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, id));
    const [activity] = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.id, request?.clientActivityId as string));
    expect(activity?.cellRequestApprovedByPractitioner).toBe(true);
  });

  it('leaves an audit row for each read of a client’s requests and for the approval, naming the client', async () => {
    const id = await johnsRequestId();
    const johnId = (await clientRow('ACT10002')).id;
    const auditedFor = async (route: string) =>
      t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.route, route), eq(auditEvents.clientId, johnId)));
    const before = (await auditedFor('GET /api/pay/get_CellRequest')).length;
    await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_CellRequest?id=${id}`,
      headers: { cookie: john },
    });
    const reads = await auditedFor('GET /api/pay/get_CellRequest');
    expect(reads).toHaveLength(before + 1);
    expect(reads.at(-1)).toMatchObject({ action: 'read-order', actorRole: 'client', statusCode: 200 });

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_CellRequests?Client_id=ACT10002',
      headers: { cookie: maria },
    });
    expect(list.statusCode).toBe(200);
    const listed = await auditedFor('GET /api/pay/get_CellRequests');
    expect(listed.at(-1)).toMatchObject({ action: 'read-order', actorRole: 'physician' });

    const vials = await t.app.inject({
      method: 'POST',
      url: '/api/pay/get_ClientVialsService',
      headers: { cookie: john },
      payload: { NumberOfVials: 1 },
    });
    expect(vials.statusCode, vials.body).toBe(200);
    expect((await auditedFor('POST /api/pay/get_ClientVialsService')).at(-1)?.action).toBe('read-client');

    expect((await auditedFor('POST /api/pay/set_CellRequestApproval')).at(-1)).toMatchObject({
      action: 'change-order',
      actorRole: 'physician',
    });
    expect((await auditedFor('POST /api/pay/send_CellRequest')).length).toBeGreaterThan(0);

    // A refused read (another client's request) leaves none.
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_CellRequest?id=${id}`,
      headers: { cookie: jane },
    });
    expect(foreign.statusCode).toBe(404);
    expect(await auditedFor('GET /api/pay/get_CellRequest')).toHaveLength(before + 1);
  });
});
