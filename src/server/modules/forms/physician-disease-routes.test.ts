import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formPaymentMessages } from '../../../domain/form-payment';
import { INFECTIOUS_DISEASE_TERMS_VERSION } from '../../../domain/infectious-disease';
import {
  clients,
  formSubmissions,
  paymentMethods,
  payments,
  physicianClients,
  physicians,
} from '../../db/schema';
import { DEMO_PHYSICIAN_PASSWORD } from '../../db/seed';
import {
  addClient,
  labReportPdf,
  newCardFields,
  pdfDataUrl,
  pngDataUrl,
  signaturePng,
  tokenizeCard,
} from '../../testing/form-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * The physician variant of the infectious disease form (spec 2, sections 2 to 5; DESIGN.md
 * sections 3 to 5): POST /api/pay/set_verifyPhysicianClientData confirms one of the physician's own
 * clients, POST /api/pay/set_PhysicianDiseaseData submits the screening for them, White Glove Labs
 * charged to the physician's card. Maria (PHY20001) has Jane, John, Ana and Sam; David (PHY20002)
 * has Lucia. The submissions use clients added here and linked to Maria.
 */

const FAILED = 'Please enter valid client id or last name';
const WHITE_GLOVE_CARD_TOTAL = 41_097;

let t: TestApp;
let maria: string;
let david: string;
let jane: string;
let mariaId: string;
let keySeq = 0;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  maria = await t.signInPhysician('PHY20001');
  david = await t.signInPhysician('PHY20002', DEMO_PHYSICIAN_PASSWORD);
  jane = await t.signIn('ACT10001');
  const [row] = await t.db
    .select({ id: physicians.id })
    .from(physicians)
    .where(eq(physicians.physicianActId, 'PHY20001'));
  mariaId = row?.id as string;
});
afterAll(() => t.close());

function newKey() {
  keySeq += 1;
  return `physician-disease-${keySeq}-${Date.now()}`;
}

const post = (url: string, cookie: string | null, payload: Record<string, unknown>, key?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...(cookie ? { cookie } : {}), ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });

const verify = (cookie: string | null, body: Record<string, unknown>) =>
  post('/api/pay/set_verifyPhysicianClientData', cookie, body);

const submit = (cookie: string | null, body: Record<string, unknown>, key: string | null = newKey()) =>
  post('/api/pay/set_PhysicianDiseaseData', cookie, body, key ?? undefined);

const byId = (ClientId: string, ClientLastname: string) => ({
  ClientInfo: 'client_id',
  ClientId,
  ClientLastname,
});

/** A new client of Maria's, with the screening still to do. */
async function mariasClient() {
  const client = await addClient(t.db, { street: '1 Ocean Drive', city: 'Miami', state: 'FL', zip: '33139' });
  await t.db.insert(physicianClients).values({ physicianId: mariaId, clientId: client.id });
  const [row] = await t.db
    .select({ lastName: clients.lastName })
    .from(clients)
    .where(eq(clients.id, client.id));
  return {
    ...client,
    lastName: row?.lastName as string,
    identification: byId(client.actId, row?.lastName ?? ''),
  };
}

function whiteGlove(identification: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  return {
    ...identification,
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
    ...overrides,
  };
}

async function newCard(number = '4242424242424242', holder = { first: 'Maria', last: 'Alvarez' }) {
  return { update_card: true, ...newCardFields(t, await tokenizeCard(t, number), holder) };
}

async function stateOf(clientId: string) {
  const [client] = await t.db
    .select({ disease: clients.infectiousDiseaseFormCompleted })
    .from(clients)
    .where(eq(clients.id, clientId));
  const submissions = await t.db
    .select()
    .from(formSubmissions)
    .where(and(eq(formSubmissions.clientId, clientId), eq(formSubmissions.form, 'infectious_disease')));
  const ledger = await t.db.select().from(payments).where(eq(payments.clientId, clientId));
  return {
    disease: client?.disease,
    submissions,
    approved: ledger.filter((p) => p.status === 'approved'),
    ledger,
    clientMethods: await t.db.select().from(paymentMethods).where(eq(paymentMethods.clientId, clientId)),
  };
}

const physicianMethods = () =>
  t.db.select().from(paymentMethods).where(eq(paymentMethods.physicianId, mariaId));

const paymentInfo = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/pay/get_PaymentInfo', headers: { cookie } })).json().result;

describe('who may call it', () => {
  it('is for physicians only: a client gets 404, nobody signed in 401', async () => {
    const waiver = {
      ...byId('ACT10001', 'Doe'),
      submissionOption: 'Waiver Submission',
      agree: true,
      WaiverNotice: 'negative',
      Signature: pngDataUrl(signaturePng()),
    };
    for (const url of ['/api/pay/set_verifyPhysicianClientData', '/api/pay/set_PhysicianDiseaseData']) {
      const asClient = await post(url, jane, waiver, newKey());
      expect(asClient.statusCode, url).toBe(404);
      const anonymous = await post(url, null, waiver, newKey());
      expect(anonymous.statusCode, url).toBe(401);
    }
  });

  it("answers another physician's client exactly like one that does not exist, and acts for neither", async () => {
    const answers = await Promise.all(
      [
        byId('ACT10001', 'Doe'),
        byId('ACT10002', 'Roe'),
        {
          ClientInfo: 'full_contact',
          ClientFirstName: 'Jane',
          Clientlastname: 'Doe',
          ClientEmail: 'jane.doe@example.com',
          ClientDob: '03/14/1975',
        },
        byId('ACT99999', 'Doe'),
        byId('ACT10005', 'Doe'),
      ].map((identification) => verify(david, identification)),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({
        error: FAILED,
        code: 'NOT_FOUND',
        fields: { verify: FAILED },
      });
    }
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/pay/session',
      headers: { cookie: david },
    });
    expect(session.json().actingFor).toBeNull();
  });

  it("refuses David's submission for Jane like one for an unknown client, and keeps and charges nothing", async () => {
    const janeRow = await t.db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.clientActId, 'ACT10001'));
    const janeId = janeRow[0]?.id as string;
    const forJane = await submit(david, whiteGlove(byId('ACT10001', 'Doe'), await newCard()));
    const forNobody = await submit(david, whiteGlove(byId('ACT99999', 'Doe'), await newCard()));
    expect(forJane.statusCode).toBe(404);
    expect(forJane.body).toBe(forNobody.body);
    const waiverForJane = await submit(david, {
      ...byId('ACT10001', 'Doe'),
      submissionOption: 'Waiver Submission',
      agree: true,
      WaiverNotice: 'negative',
      Signature: pngDataUrl(signaturePng()),
    });
    expect(waiverForJane.statusCode).toBe(404);
    expect(waiverForJane.body).toBe(forNobody.body);
    const state = await stateOf(janeId);
    expect(state.disease).toBe(false);
    expect(state.submissions).toEqual([]);
    expect(state.ledger).toEqual([]);
  });
});

describe('POST /api/pay/set_verifyPhysicianClientData', () => {
  it('confirms her own client by Client ID and last name, in any case, and acts for them', async () => {
    const answer = await verify(maria, byId('act10002', 'ROE'));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      verified: true,
      message: 'Client Details Successfully Confirmed',
      ClientId: 'ACT10002',
      ClientName: 'John Roe',
      actingFor: { clientACTId: 'ACT10002', name: 'John Roe' },
    });
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/pay/session',
      headers: { cookie: maria },
    });
    expect(session.json().actingFor).toMatchObject({ clientACTId: 'ACT10002' });
  });

  it('confirms her own client by full contact information', async () => {
    const answer = await verify(maria, {
      ClientInfo: 'full_contact',
      ClientFirstName: 'jane',
      Clientlastname: 'Doe',
      ClientEmail: 'Jane.Doe@example.com',
      ClientDob: '03/14/1975',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ ClientId: 'ACT10001', ClientName: 'Jane Doe' });
  });

  it.each<[string, Record<string, unknown>]>([
    ['a wrong last name', byId('ACT10001', 'Roe')],
    [
      'a wrong date of birth',
      {
        ClientInfo: 'full_contact',
        ClientFirstName: 'Jane',
        Clientlastname: 'Doe',
        ClientEmail: 'jane.doe@example.com',
        ClientDob: '03/15/1975',
      },
    ],
  ])('refuses %s with the spec message (404)', async (_case, body) => {
    const answer = await verify(maria, body);
    expect(answer.statusCode).toBe(404);
    expect(answer.json().error).toBe(FAILED);
  });

  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['no client information choice', {}, { ClientInfo: 'Please Check' }],
    [
      'Client ID and last name left empty',
      { ClientInfo: 'client_id', ClientId: '', ClientLastname: ' ' },
      { ClientId: 'Please enter Client Id', ClientLastname: 'Please enter client last name' },
    ],
    [
      'full contact left empty',
      { ClientInfo: 'full_contact' },
      {
        ClientFirstName: 'Please enter client first name',
        Clientlastname: 'Please enter client last name',
        ClientEmail: 'Please enter client email',
        ClientDob: 'Please enter client Dob',
      },
    ],
    [
      'a date of birth in the future',
      {
        ClientInfo: 'full_contact',
        ClientFirstName: 'Jane',
        Clientlastname: 'Doe',
        ClientEmail: 'jane.doe@example.com',
        ClientDob: '01/01/2999',
      },
      { ClientDob: 'Invalid date' },
    ],
    [
      'a date of birth after today',
      {
        ClientInfo: 'full_contact',
        ClientFirstName: 'Jane',
        Clientlastname: 'Doe',
        ClientEmail: 'jane.doe@example.com',
        ClientDob: '12/31/2049',
      },
      { ClientDob: 'Date of birth cannot be in the future' },
    ],
  ])('refuses %s (400) with the spec messages', async (_case, body, fields) => {
    const answer = await verify(maria, body);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().fields).toMatchObject(fields);
  });

  it('is rate limited per physician', async () => {
    const limited = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
    try {
      const cookie = await limited.signInPhysician('PHY20002', DEMO_PHYSICIAN_PASSWORD);
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const answer = await limited.app.inject({
          method: 'POST',
          url: '/api/pay/set_verifyPhysicianClientData',
          headers: { cookie },
          remoteAddress: `10.9.0.${i}`,
          payload: byId(`ACT${10000 + i}`, 'Doe'),
        });
        statuses.push(answer.statusCode);
      }
      expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
      expect(statuses[30]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/pay/set_PhysicianDiseaseData: the rules of the form', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    [
      'no client information choice, nor option, nor agreement',
      {},
      { ClientInfo: 'Please Check', submissionOption: 'Please Select', agree: 'Please Check' },
    ],
    // Spec 2, section 5: no client-info choice gives "Please Check"; White Glove also requires the
    // client-info choice ("Please Select").
    [
      'White Glove Labs with no client information choice',
      { submissionOption: 'White Glove Labs', agree: true },
      { ClientInfo: 'Please Select' },
    ],
    [
      'a waiver with no client information choice',
      { submissionOption: 'Waiver Submission', agree: true },
      { ClientInfo: 'Please Check' },
    ],
    [
      'a lab report with no client information choice',
      { submissionOption: 'Local Lab Submission', agree: true },
      { ClientInfo: 'Please Check' },
    ],
    [
      'White Glove Labs without its address (the street is not asked for)',
      { ClientInfo: 'client_id', submissionOption: 'White Glove Labs', agree: true },
      {
        ClientId: 'Please enter Client Id',
        ClientLastname: 'Please enter client last name',
        FirstName: 'Please enter first name',
        LastName: 'Please enter last name',
        city: 'Please enter City',
        state: 'Please enter State',
        ZipCode: 'Please enter zipcode',
        country: 'Please enter Country',
      },
    ],
    [
      'a bank account: the physician pays by card',
      whiteGlove(byId('ACT10001', 'Doe'), { PaymentMethod: 'ACH Payment' }),
      { PaymentMethod: 'Please Select' },
    ],
  ])('refuses %s (400)', async (_case, body, fields) => {
    const answer = await submit(maria, body);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().fields).toMatchObject(fields);
    expect(answer.json().fields).not.toHaveProperty('street');
  });

  it("refuses the physician's card on file when she has none, charging nothing", async () => {
    const client = await mariasClient();
    const answer = await submit(maria, whiteGlove(client.identification, { update_card: false }));
    expect(answer.statusCode).toBe(400);
    expect(answer.json().fields).toEqual({ update_card: formPaymentMessages.noCardStored });
    expect((await stateOf(client.id)).ledger).toEqual([]);
  });
});

describe("White Glove Labs on the physician's card", () => {
  let first: { client: Awaited<ReturnType<typeof mariasClient>>; key: string; body: Record<string, unknown> };
  let firstAnswer: Record<string, unknown>;

  it('declined: nothing is kept, the form stays open and the card is not put on file', async () => {
    const client = await mariasClient();
    const answer = await submit(
      maria,
      whiteGlove(client.identification, { ...(await newCard('4000000000000341')), save_card: true }),
    );
    expect(answer.statusCode, answer.body).toBe(402);
    const state = await stateOf(client.id);
    expect(state.disease).toBe(false);
    expect(state.submissions).toEqual([]);
    expect(state.approved).toEqual([]);
    expect(await physicianMethods()).toEqual([]);
    first = { client, key: newKey(), body: {} };
  });

  it('charges exactly $410.97 to a new card, whatever amount is sent, and keeps it on her file', async () => {
    const { client, key } = first;
    first.body = whiteGlove(client.identification, {
      ...(await newCard('4242424242424242')),
      save_card: true,
      Amount: 1,
      PhysicianId: 'PHY20002',
    });
    const answer = await submit(maria, first.body, key);
    expect(answer.statusCode, answer.body).toBe(200);
    firstAnswer = answer.json();
    expect(firstAnswer).toMatchObject({
      success: true,
      message: 'Please check your email for order confirmation',
      ClientId: client.actId,
      charged: { labFee: 399, processingFee: 11.97, total: 410.97, last4: '4242' },
    });

    const state = await stateOf(client.id);
    expect(state.disease).toBe(true);
    expect(state.approved).toHaveLength(1);
    expect(state.approved[0]).toMatchObject({
      purpose: 'white_glove_lab',
      amountCents: 39_900,
      feeCents: 1197,
      totalCents: WHITE_GLOVE_CARD_TOTAL,
      paidByPhysicianId: mariaId,
      methodLast4: '4242',
    });
    expect(state.submissions[0]).toMatchObject({
      status: 'completed',
      physicianId: mariaId,
      submissionOption: 'White Glove Labs',
    });
    // The card is the physician's, not the client's.
    expect(state.clientMethods).toEqual([]);
    const kept = await physicianMethods();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ last4: '4242', clientId: null, isDefault: true });
    expect(state.approved[0]?.paymentMethodId).toBe(kept[0]?.id);

    expect((await paymentInfo(maria)).Credit_Card_Number).toBe('************4242');
    const clientCookie = await t.signIn(client.actId);
    expect((await paymentInfo(clientCookie)).Credit_Card_Number).toBeNull();

    const [clientMail] = (await t.mailTo(client.email)).filter((m) => /screening form/.test(m.subject));
    expect(clientMail?.textBody).toContain(
      'Dr. Maria Alvarez submitted your infectious disease screening form',
    );
    expect(clientMail?.textBody).toContain('Your physician paid $410.97 for White Glove Labs');
    const [receipt] = await t.mailTo('maria.alvarez@example.com');
    expect(receipt?.subject).toContain(
      `White Glove Labs receipt for Test ${client.lastName} (${client.actId})`,
    );
    expect(receipt?.textBody).toContain(
      `You submitted the infectious disease screening form of Test ${client.lastName} (Client ID ${client.actId}) by White Glove Labs.`,
    );
    expect(receipt?.textBody).toContain('We charged $410.97');
    expect(receipt?.textBody).toContain('ending in 4242');
  });

  it('answers a replay of the same submission without charging again', async () => {
    const replay = await submit(maria, first.body, first.key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(firstAnswer);
    expect((await stateOf(first.client.id)).approved).toHaveLength(1);
    expect(await physicianMethods()).toHaveLength(1);
  });

  it('refuses a second submission for the same client (409), charging nothing', async () => {
    const again = await submit(maria, whiteGlove(first.client.identification, { update_card: false }));
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_COMPLETED');
    expect((await stateOf(first.client.id)).approved).toHaveLength(1);
  });

  it('pays for another client with the card now on her file, and keeps no new card', async () => {
    const client = await mariasClient();
    const answer = await submit(
      maria,
      whiteGlove(client.identification, { update_card: false, expectedTotalCents: WHITE_GLOVE_CARD_TOTAL }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().charged).toMatchObject({ total: 410.97, last4: '4242' });
    const state = await stateOf(client.id);
    const kept = await physicianMethods();
    expect(kept).toHaveLength(1);
    expect(state.approved[0]).toMatchObject({
      totalCents: WHITE_GLOVE_CARD_TOTAL,
      paidByPhysicianId: mariaId,
      paymentMethodId: kept[0]?.id,
    });
  });

  it('refuses a shown total that is not the server quote (409), charging nothing', async () => {
    const client = await mariasClient();
    const answer = await submit(maria, whiteGlove(client.identification, { expectedTotalCents: 39_900 }));
    expect(answer.statusCode).toBe(409);
    expect(answer.json().code).toBe('AMOUNT_CHANGED');
    expect((await stateOf(client.id)).ledger).toEqual([]);
  });

  it("never pays with a client's card on file", async () => {
    // John has a Visa ending 1111 on his own file; the physician has hers ending 4242.
    const john = await t.db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.clientActId, 'ACT10002'));
    const johnId = john[0]?.id as string;
    await t.db.update(clients).set({ infectiousDiseaseFormCompleted: false }).where(eq(clients.id, johnId));
    const answer = await submit(maria, whiteGlove(byId('ACT10002', 'Roe'), { update_card: false }));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().charged.last4).toBe('4242');
  });
});

describe('the other routes, by the physician', () => {
  it('submits a waiver for her client, recording that she submitted it; she is e-mailed its confirmation', async () => {
    const client = await mariasClient();
    const answer = await submit(maria, {
      ...client.identification,
      submissionOption: 'Waiver Submission',
      agree: 'yes',
      WaiverNotice: 'positive',
      Signature: pngDataUrl(signaturePng()),
      InfectiousDisease: 'Hepatitis B',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ charged: null, ClientId: client.actId });
    const state = await stateOf(client.id);
    expect(state.disease).toBe(true);
    expect(state.submissions[0]).toMatchObject({
      submissionOption: 'Waiver Submission',
      physicianId: mariaId,
    });
    expect(state.ledger).toEqual([]);
    // The page says "Please check your email for order confirmation": the physician gets one.
    expect(answer.json().message).toBe('Please check your email for order confirmation');
    const [confirmation] = await t.mailTo('maria.alvarez@example.com');
    expect(confirmation?.subject).toBe(
      `Physician Portal: infectious disease screening form of Test ${client.lastName} (${client.actId})`,
    );
    expect(confirmation?.textBody).toBe(
      [
        'Dear Dr. Alvarez,',
        `You submitted the infectious disease screening form of Test ${client.lastName} (Client ID ${client.actId}) by Waiver Submission.`,
        'Nothing was charged. The client was e-mailed a copy of the form.',
        `Reference FS-${answer.json().TransactionId.slice(0, 8).toUpperCase()}.`,
      ].join('\n\n'),
    );
    const [mail] = await t.mailTo(client.email);
    expect(mail?.textBody).toContain('Nothing was charged to you.');
  });

  it('uploads a lab report for her client identified by full contact', async () => {
    const client = await mariasClient();
    const answer = await submit(maria, {
      ClientInfo: 'full_contact',
      ClientFirstName: 'Test',
      Clientlastname: client.lastName,
      ClientEmail: client.email,
      ClientDob: '01/01/1980',
      submissionOption: 'Local Lab Submission',
      agree: true,
      lab_report_file: pdfDataUrl(await labReportPdf()),
      lab_report_name: 'panel.pdf',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const state = await stateOf(client.id);
    expect(state.disease).toBe(true);
    expect(state.submissions[0]).toMatchObject({
      submissionOption: 'Local Lab Submission',
      physicianId: mariaId,
    });
    expect(state.submissions[0]?.labReportDocumentId).toBeTruthy();
    const [confirmation] = await t.mailTo('maria.alvarez@example.com');
    expect(confirmation?.textBody).toContain(
      `You submitted the infectious disease screening form of Test ${client.lastName} (Client ID ${client.actId}) by Local Lab Submission.`,
    );
  });
});

describe("the card fields by the spec's own names", () => {
  it('takes Credit_Card_Billing_Email, Credit_Card_Holder_Zip and Credit_Card_Holder_Country (spec 2, section 3)', async () => {
    const client = await mariasClient();
    const {
      Credit_Card_Biling_Email_Address: _email,
      Credit_Card_Billing_Zip_Code: _zip,
      ...card
    } = await newCard('4242424242424242');
    const answer = await submit(
      maria,
      whiteGlove(client.identification, {
        ...card,
        Credit_Card_Billing_Email: 'maria.billing@example.com',
        Credit_Card_Holder_Zip: '33139',
        Credit_Card_Holder_Country: 'United States',
        save_card: true,
      }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().charged).toMatchObject({ total: 410.97, last4: '4242' });
    const kept = (await physicianMethods()).filter((method) => method.isDefault);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      billingEmail: 'maria.billing@example.com',
      billingZip: '33139',
      country: 'United States',
    });
  });
});
