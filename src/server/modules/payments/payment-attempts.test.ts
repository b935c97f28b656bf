import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayFor } from '../../../domain/client';
import { addDays } from '../../../domain/dates';
import { TOO_MANY_PAYMENT_ATTEMPTS } from '../../../domain/payments';
import { clients, payments } from '../../db/schema';
import { validTuesday as shipmentTuesday, weekdayFrom } from '../../testing/dates';
import {
  addClient,
  addReleaseClient,
  newCardFields,
  saveCardOnFile,
  tokenizeCard,
  vialRequestBody,
} from '../../testing/form-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Saving a payment method and every charge that reach the gateway are limited per client (10 an
 * hour) and per IP (RATE_LIMIT_PAYMENT_PER_IP an hour), declines included: the portal is no
 * card-testing oracle. Submissions refused before the gateway do not spend those attempts; they
 * have their own ceiling per client (RATE_LIMIT_REFUSALS_PER_CLIENT, 60 an hour).
 */

const ONE_HOUR = 60 * 60 * 1000;
const APPROVED = '4242424242424242';
const DECLINED = '4000000000000002';

let t: TestApp;
let keySeq = 0;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PAYMENT_PER_IP: '1000', RATE_LIMIT_LOGIN_PER_IP: '1000' });
});
afterAll(() => t.close());

function newKey() {
  keySeq += 1;
  return `attempt-key-${keySeq}-${Date.now()}`;
}

async function cardBody(number: string) {
  const fields = newCardFields(t, await tokenizeCard(t, number));
  return {
    ...fields,
    Credit_Card_Holder_Country: undefined,
    Country: fields.Credit_Card_Holder_Country,
    Payment_Type: 'CC',
    PaymentSource: 'CP Payment Info Page',
  };
}

function save(cookie: string, body: unknown, key = newKey(), ip = '10.2.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_PaymentInfo',
    headers: { cookie, 'idempotency-key': key },
    payload: body as Record<string, unknown>,
    remoteAddress: ip,
  });
}

async function newClientCookie() {
  const client = await addClient(t.db);
  return t.signIn(client.actId);
}

describe('payment attempts per client', () => {
  it('refuses the 11th card save of a client in an hour, declines counted, and opens again an hour later', async () => {
    const client = await addClient(t.db);
    const cookie = await t.signIn(client.actId);
    for (let i = 0; i < 10; i++) {
      const declined = i % 2 === 0;
      const response = await save(cookie, await cardBody(declined ? DECLINED : APPROVED));
      expect(response.statusCode, response.body).toBe(declined ? 402 : 200);
    }
    const eleventh = await save(cookie, await cardBody(APPROVED));
    expect(eleventh.statusCode, eleventh.body).toBe(429);
    expect(eleventh.json()).toMatchObject({ code: 'RATE_LIMITED', error: TOO_MANY_PAYMENT_ATTEMPTS });
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(eleventh.headers['retry-after'])).toBeLessThanOrEqual(3600);

    t.clock.advance(ONE_HOUR + 1000);
    const later = await save(await t.signIn(client.actId), await cardBody(APPROVED));
    expect(later.statusCode, later.body).toBe(200);
  });

  it('does not limit another client when one client is over the limit', async () => {
    const busy = await newClientCookie();
    const other = await newClientCookie();
    for (let i = 0; i < 10; i++) await save(busy, await cardBody(DECLINED));
    expect((await save(busy, await cardBody(APPROVED))).statusCode).toBe(429);
    const response = await save(other, await cardBody(APPROVED));
    expect(response.statusCode, response.body).toBe(200);
  });

  it('counts a retry of the same submission (same Idempotency-Key) once', async () => {
    const cookie = await newClientCookie();
    const body = await cardBody(APPROVED);
    const key = newKey();
    expect((await save(cookie, body, key)).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await save(cookie, await cardBody(DECLINED))).statusCode).toBe(402);
    const retry = await save(cookie, body, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect((await save(cookie, await cardBody(APPROVED))).statusCode).toBe(429);
  });

  it('counts a White Glove Labs charge on the screening form with the card saves', async () => {
    const cookie = await newClientCookie();
    for (let i = 0; i < 10; i++) await save(cookie, await cardBody(DECLINED));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_DiseaseData',
      headers: { cookie, 'idempotency-key': newKey() },
      remoteAddress: '10.2.0.1',
      payload: {
        submissionOption: 'White Glove Labs',
        agree: true,
        FirstName: 'Test',
        LastName: 'Client',
        Street: '1200 Brickell Avenue',
        City: 'Miami',
        State: 'FL',
        ZipCode: '33131',
        Country: 'United States',
        PaymentMethod: 'Credit Card',
        Source: 'ACT Client Portal',
        update_card: true,
        save_card: false,
        ...newCardFields(t, await tokenizeCard(t, APPROVED)),
      },
    });
    expect(response.statusCode, response.body).toBe(429);
    expect(response.json().error).toBe(TOO_MANY_PAYMENT_ATTEMPTS);
  });
});

/** A vial request by FedEx paid by the card on file: one vial, no CPP, on the date given. */
function cellRequest(cookie: string, shipmentDate: string, extra: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CellRequest',
    headers: { cookie, 'idempotency-key': newKey() },
    remoteAddress: '10.2.0.1',
    payload: vialRequestBody({ ShipmentDate: shipmentDate, ...extra }),
  });
}

/** The first date on or after `from` that falls on this weekday (0 Sunday ... 6 Saturday). */
/** A Tuesday at least four weeks out that is not the day after a holiday. */
const validTuesday = () => shipmentTuesday(todayFor(t.clock.now()), 28);

describe('refusals before the gateway (send_CellRequest)', () => {
  it('does not spend payment attempts: 9 refused dates and 2 changed totals, then the charge goes through', async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const monday = weekdayFrom(addDays(todayFor(t.clock.now()), 28), 1);
    for (let i = 0; i < 9; i++) {
      const refused = await cellRequest(cookie, monday);
      expect(refused.statusCode, refused.body).toBe(400);
    }
    for (let i = 0; i < 2; i++) {
      const changed = await cellRequest(cookie, validTuesday(), { expectedTotalCents: 100 });
      expect(changed.statusCode, changed.body).toBe(409);
    }
    // $500.00 + FedEx to New York $118.38 = $618.38, plus the 3% card fee $18.55.
    const charged = await cellRequest(cookie, validTuesday(), { expectedTotalCents: 63_693 });
    expect(charged.statusCode, charged.body).toBe(200);
    const ledger = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.clientId, client.id), eq(payments.purpose, 'vial_request')));
    expect(ledger).toMatchObject([{ status: 'approved', totalCents: 63_693 }]);
  });

  it('still limits the attempts that reach the gateway: the save and the charge count, refusals do not', async () => {
    const client = await addReleaseClient(t.db);
    const cookie = await t.signIn(client.actId);
    await saveCardOnFile(t, cookie, newKey());
    const monday = weekdayFrom(addDays(todayFor(t.clock.now()), 28), 1);
    for (let i = 0; i < 11; i++) expect((await cellRequest(cookie, monday)).statusCode).toBe(400);
    expect((await cellRequest(cookie, validTuesday())).statusCode).toBe(200);
    // Two attempts reached the gateway (the save and the charge): eight more, declines included.
    for (let i = 0; i < 8; i++) expect((await save(cookie, await cardBody(DECLINED))).statusCode).toBe(402);
    const eleventh = await cellRequest(cookie, validTuesday());
    expect(eleventh.statusCode, eleventh.body).toBe(429);
    expect(eleventh.json().error).toBe(TOO_MANY_PAYMENT_ATTEMPTS);
  });
});

describe('payment attempts on the public payment pages', () => {
  it('counts the public page’s saves on a ceiling of its own: 10 declines there, and the client still saves a card', async () => {
    const client = await addClient(t.db);
    const [lastName] = await t.db
      .select({ lastName: clients.lastName })
      .from(clients)
      .where(eq(clients.id, client.id));
    const confirm = async () => {
      const verified = await t.app.inject({
        method: 'POST',
        url: '/api/pay/set_verifyClientData',
        payload: { mode: 'id', ClientId: client.actId, ClientLastname: lastName?.lastName },
        remoteAddress: '10.5.0.1',
      });
      expect(verified.statusCode, verified.body).toBe(200);
      return verified.json().verification as string;
    };
    const savePublic = async (verification: string, number: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/pay/set_PublicPaymentInfo',
        headers: { 'idempotency-key': newKey() },
        remoteAddress: '10.5.0.1',
        payload: { ...(await cardBody(number)), verification, agree: true, page: 'email' },
      });
    // Five saves a confirmation: ten declines on two confirmations.
    for (let i = 0; i < 2; i++) {
      const verification = await confirm();
      for (let j = 0; j < 5; j++) expect((await savePublic(verification, DECLINED)).statusCode).toBe(402);
    }
    const eleventh = await savePublic(await confirm(), APPROVED);
    expect(eleventh.statusCode, eleventh.body).toBe(429);
    expect(eleventh.json().error).toBe(TOO_MANY_PAYMENT_ATTEMPTS);

    const own = await save(await t.signIn(client.actId), await cardBody(APPROVED));
    expect(own.statusCode, own.body).toBe(200);
  });
});

describe('payment attempts per IP', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({
      RATE_LIMIT_PAYMENT_PER_IP: '3',
      RATE_LIMIT_REFUSALS_PER_CLIENT: '5',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
    });
  });
  afterAll(() => limited.close());

  it('refuses saves from one address across clients beyond RATE_LIMIT_PAYMENT_PER_IP, and not from another', async () => {
    const saveAs = async (ip: string) => {
      const client = await addClient(limited.db);
      const cookie = await limited.signIn(client.actId);
      const fields = newCardFields(limited, await tokenizeCard(limited, DECLINED));
      return limited.app.inject({
        method: 'POST',
        url: '/api/pay/set_PaymentInfo',
        headers: { cookie, 'idempotency-key': newKey() },
        remoteAddress: ip,
        payload: {
          ...fields,
          Credit_Card_Holder_Country: undefined,
          Country: fields.Credit_Card_Holder_Country,
          Payment_Type: 'CC',
          PaymentSource: 'CP Payment Info Page',
        },
      });
    };
    for (let i = 0; i < 3; i++) expect((await saveAs('10.3.0.1')).statusCode).toBe(402);
    const fourth = await saveAs('10.3.0.1');
    expect(fourth.statusCode, fourth.body).toBe(429);
    expect(fourth.json().error).toBe(TOO_MANY_PAYMENT_ATTEMPTS);
    expect((await saveAs('10.3.0.2')).statusCode).toBe(402);
  });
});

describe('refusals per client (RATE_LIMIT_REFUSALS_PER_CLIENT)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_REFUSALS_PER_CLIENT: '5', RATE_LIMIT_LOGIN_PER_IP: '1000' });
  });
  afterAll(() => limited.close());

  it('refuses a client’s submissions beyond the ceiling of refusals in an hour, and not another client’s', async () => {
    const saveExpired = async (cookie: string) => {
      const fields = newCardFields(limited, await tokenizeCard(limited, APPROVED));
      return limited.app.inject({
        method: 'POST',
        url: '/api/pay/set_PaymentInfo',
        headers: { cookie, 'idempotency-key': newKey() },
        payload: {
          ...fields,
          // A card expiring this year is refused before the gateway.
          Year_of_Expiry: String(limited.clock.now().getUTCFullYear()),
          Credit_Card_Holder_Country: undefined,
          Country: fields.Credit_Card_Holder_Country,
          Payment_Type: 'CC',
          PaymentSource: 'CP Payment Info Page',
        },
      });
    };
    const client = await addClient(limited.db);
    const cookie = await limited.signIn(client.actId);
    for (let i = 0; i < 5; i++) expect((await saveExpired(cookie)).statusCode).toBe(400);
    const sixth = await saveExpired(cookie);
    expect(sixth.statusCode, sixth.body).toBe(429);
    expect(sixth.json().error).toBe(TOO_MANY_PAYMENT_ATTEMPTS);
    const other = await addClient(limited.db);
    expect((await saveExpired(await limited.signIn(other.actId))).statusCode).toBe(400);
  });
});

describe('the public payment pages count on ceilings of their own', () => {
  let pub: TestApp;
  beforeAll(async () => {
    // The default ceilings of payments (60 refusals a client an hour); confirmations not limited here.
    pub = await startTestApp({ RATE_LIMIT_VERIFY_PER_IP: '1000', RATE_LIMIT_LOGIN_PER_IP: '1000' });
  });
  afterAll(() => pub.close());

  const confirm = async (payload: Record<string, unknown>) => {
    const confirmed = await pub.app.inject({
      method: 'POST',
      url: '/api/pay/set_verifyClientData',
      payload,
      remoteAddress: '10.9.0.1',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return confirmed.json().verification as string;
  };
  const savePublic = (payload: Record<string, unknown>, ip: string) =>
    pub.app.inject({
      method: 'POST',
      url: '/api/pay/set_PublicPaymentInfo',
      headers: { 'idempotency-key': newKey() },
      payload,
      remoteAddress: ip,
    });

  it('61 stale-total saves by an anonymous visitor leave the client’s own signed-in save untouched', async () => {
    const client = await addClient(pub.db);
    const [row] = await pub.db.select().from(clients).where(eq(clients.id, client.id));
    const byId = { mode: 'id', ClientId: client.actId, ClientLastname: row?.lastName };
    const byContact = {
      mode: 'contact',
      ClientFirstName: 'Test',
      Clientlastname: row?.lastName,
      ClientEmail: client.email,
      ClientDob: '01/01/1980',
    };
    const fields = newCardFields(pub, await tokenizeCard(pub, APPROVED));
    const staleSave = (verification: string) => ({
      ...fields,
      Credit_Card_Holder_Country: undefined,
      Country: fields.Credit_Card_Holder_Country,
      Payment_Type: 'CC',
      verification,
      agree: true,
      page: 'email',
      // The client owes nothing: a page that showed $1.00 is refused before the gateway.
      expectedTotalCents: 100,
    });
    // Five saves a confirmation, ten confirmations by Client ID and as many by contact in 15 minutes.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const verification = await confirm(i < 10 ? byId : byContact);
      for (let j = 0; j < 5; j++)
        statuses.push((await savePublic(staleSave(verification), '10.9.0.1')).statusCode);
    }
    expect(statuses).toEqual(Array(60).fill(409));
    // The public pages' own ceiling for the client still holds, from any address.
    const sixtyFirst = await savePublic(staleSave(await confirm(byContact)), '10.9.0.2');
    expect(sixtyFirst.statusCode, sixtyFirst.body).toBe(429);
    expect(sixtyFirst.json().error).toBe(
      'Too many payment attempts. Please wait an hour and try again, or contact us.',
    );

    // The client, signed in, is not refused: a refusal of their own is still answered as such…
    const cookie = await pub.signIn(client.actId);
    const signedIn = (body: Record<string, unknown>) =>
      pub.app.inject({
        method: 'POST',
        url: '/api/pay/set_PaymentInfo',
        headers: { cookie, 'idempotency-key': newKey() },
        payload: body,
      });
    const base = async () => {
      const card = newCardFields(pub, await tokenizeCard(pub, APPROVED));
      return {
        ...card,
        Credit_Card_Holder_Country: undefined,
        Country: card.Credit_Card_Holder_Country,
        Payment_Type: 'CC',
        PaymentSource: 'CP Payment Info Page',
      };
    };
    const stale = await signedIn({ ...(await base()), expectedTotalCents: 100 });
    expect(stale.statusCode, stale.body).toBe(409);
    // …and the card is saved.
    const saved = await signedIn(await base());
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('limits the public refusals per IP address across clients', async () => {
    const limited = await startTestApp({
      RATE_LIMIT_VERIFY_PER_IP: '1000',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
      RATE_LIMIT_REFUSALS_PER_CLIENT: '3',
    });
    try {
      const staleFrom = async (ip: string) => {
        const client = await addClient(limited.db);
        const [row] = await limited.db.select().from(clients).where(eq(clients.id, client.id));
        const confirmed = await limited.app.inject({
          method: 'POST',
          url: '/api/pay/set_verifyClientData',
          payload: { mode: 'id', ClientId: client.actId, ClientLastname: row?.lastName },
          remoteAddress: ip,
        });
        const fields = newCardFields(limited, await tokenizeCard(limited, APPROVED));
        return limited.app.inject({
          method: 'POST',
          url: '/api/pay/set_PublicPaymentInfo',
          headers: { 'idempotency-key': newKey() },
          payload: {
            ...fields,
            Credit_Card_Holder_Country: undefined,
            Country: fields.Credit_Card_Holder_Country,
            Payment_Type: 'CC',
            verification: confirmed.json().verification,
            agree: true,
            page: 'email',
            expectedTotalCents: 100,
          },
          remoteAddress: ip,
        });
      };
      for (let i = 0; i < 3; i++) expect((await staleFrom('10.9.1.1')).statusCode).toBe(409);
      const fourth = await staleFrom('10.9.1.1');
      expect(fourth.statusCode, fourth.body).toBe(429);
      expect(fourth.json().error).toBe(
        'Too many payment attempts. Please wait an hour and try again, or contact us.',
      );
      expect((await staleFrom('10.9.1.2')).statusCode).toBe(409);
    } finally {
      await limited.close();
    }
  });
});

describe('a body the schema refuses is no payment refusal', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_REFUSALS_PER_CLIENT: '5', RATE_LIMIT_LOGIN_PER_IP: '1000' });
  });
  afterAll(() => limited.close());

  it('six saves missing a field answer 400 and the client still saves a card', async () => {
    const client = await addClient(limited.db);
    const cookie = await limited.signIn(client.actId);
    const save = (payload: Record<string, unknown>) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/pay/set_PaymentInfo',
        headers: { cookie, 'idempotency-key': newKey() },
        payload,
      });
    const fields = newCardFields(limited, await tokenizeCard(limited, APPROVED));
    const body = {
      ...fields,
      Credit_Card_Holder_Country: undefined,
      Country: fields.Credit_Card_Holder_Country,
      Payment_Type: 'CC',
      PaymentSource: 'CP Payment Info Page',
    };
    for (let i = 0; i < 6; i++) {
      const missing = await save({ ...body, Credit_Card_Billing_City: undefined });
      expect(missing.statusCode, missing.body).toBe(400);
    }
    const saved = await save(body);
    expect(saved.statusCode, saved.body).toBe(200);
  });
});
