import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PHYSICIAN_PASSWORD } from '../../db/seed';
import { storeDocument } from '../../lib/document-store';
import { newCardFields, tokenizeCard } from '../../testing/form-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let maria: string;
let david: string;
let jane: string;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
  maria = await t.signInPhysician('PHY20001');
  david = await t.signInPhysician('PHY20002', DEMO_PHYSICIAN_PASSWORD);
  jane = await t.signIn('ACT10001');
});
afterAll(() => t.close());

const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND' };

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const actFor = (clientId: string, cookie: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/set_ActingClient',
    headers: { cookie },
    payload: { clientId },
  });

describe('GET /api/pay/get_Physician', () => {
  it('answers the signed-in physician only, whatever is asked', async () => {
    const mine = await get('/api/pay/get_Physician', maria);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ Physician_ID: 'PHY20001', Name: 'Maria Alvarez' });
    const other = await get('/api/pay/get_Physician?id=PHY20002', maria);
    expect(other.json()).toEqual(mine.json());
    expect((await get('/api/pay/get_Physician', david)).json()).toMatchObject({
      Physician_ID: 'PHY20002',
      Name: 'David Chen',
    });
  });
});

describe('GET /api/pay/get_PhysicianClients', () => {
  it("lists the physician's own clients only, with what each has paid and signed", async () => {
    const mine = await get('/api/pay/get_PhysicianClients', maria);
    expect(mine.statusCode).toBe(200);
    const clients = mine.json().clients as Array<Record<string, unknown>>;
    expect(clients.map((c) => c.clientACTId)).toEqual(['ACT10001', 'ACT10002', 'ACT10003', 'ACT10004']);
    expect(clients[0]).toMatchObject({
      name: 'Jane Doe',
      dateOfBirth: '1975-03-14',
      initialProcessingPaid: true,
      consentSigned: false,
      screeningDone: false,
      documents: [],
    });
    const theirs = await get('/api/pay/get_PhysicianClients', david);
    expect((theirs.json().clients as Array<{ clientACTId: string }>).map((c) => c.clientACTId)).toEqual([
      'ACT10005',
    ]);
  });
});

describe('POST /api/pay/set_ActingClient', () => {
  it("answers another physician's client and an unknown id with the identical 404", async () => {
    const foreign = await actFor('ACT10001', david);
    const unknown = await actFor('ACT99999', david);
    const unknownUuid = await actFor('00000000-0000-4000-8000-000000000000', david);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe(foreign.body);
    expect(unknownUuid.body).toBe(foreign.body);
    expect((await get('/api/pay/session', david)).json().actingFor).toBeNull();
  });

  it('holds the chosen client in the session; client routes without an id are about them', async () => {
    const cookie = await t.signInPhysician('PHY20002');
    expect((await get('/api/pay/get_Client', cookie)).statusCode).toBe(404);

    const chosen = await actFor('act10005', cookie);
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().actingFor).toMatchObject({ clientACTId: 'ACT10005', name: 'Lucia Moreno' });
    expect((await get('/api/pay/session', cookie)).json().actingFor).toEqual(chosen.json().actingFor);

    const client = await get('/api/pay/get_Client', cookie);
    expect(client.statusCode).toBe(200);
    expect(client.json().result.listResponse[0].clientACTId).toBe('ACT10005');
    // Payment information in physician pages is the physician's own card, not the client's.
    const own = await get('/api/pay/get_PaymentInfo', cookie);
    expect(own.statusCode).toBe(200);
    expect(own.json().result).toMatchObject({
      Physician_ID: 'PHY20002',
      Credit_Card_Number: null,
      Account_Number: null,
      Total_Amount_Overdue: 0,
    });
    expect((await get('/api/pay/get_ClientActivity', cookie)).statusCode).toBe(200);
    // Naming another physician's client is still the same 404, acting-for or not.
    const foreign = await get('/api/pay/get_Client?id=ACT10001', cookie);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    expect((await get('/api/pay/get_PaymentInfo?id=ACT10001', cookie)).statusCode).toBe(404);
  });

  it('takes the record id as well as the Client ID', async () => {
    const [first] = (await get('/api/pay/get_PhysicianClients', maria)).json().clients as Array<{
      id: string;
    }>;
    const chosen = await actFor(first?.id as string, maria);
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().actingFor.id).toBe(first?.id);
  });
});

describe('GET /api/pay/documents/:id', () => {
  it("gives a physician their client's document, and another physician's the same 404 as an unknown id", async () => {
    const [lucia] = (await get('/api/pay/get_PhysicianClients', david)).json().clients as Array<{
      id: string;
    }>;
    const stored = await storeDocument(t.db, t.app.deps.documentsKey, {
      clientId: lucia?.id as string,
      kind: 'lab_report',
      fileName: 'lab-report.pdf',
      contentType: 'application/pdf',
      content: Buffer.from('%PDF-1.4\n%%EOF\n'),
      now: t.clock.now(),
    });
    const own = await get(`/api/pay/documents/${stored.id}`, david);
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.toString()).toContain('%PDF-1.4');
    const foreign = await get(`/api/pay/documents/${stored.id}`, maria);
    const unknown = await get('/api/pay/documents/00000000-0000-4000-8000-000000000000', maria);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
    expect((await get(`/api/pay/documents/${stored.id}`, jane)).statusCode).toBe(404);
  });
});

describe('every physician route refuses a client session (404) and no session (401)', () => {
  const routes = [
    { method: 'GET' as const, url: '/api/pay/get_Physician' },
    { method: 'GET' as const, url: '/api/pay/get_PhysicianClients' },
    { method: 'POST' as const, url: '/api/pay/set_ActingClient', payload: { clientId: 'ACT10001' } },
  ];
  for (const route of routes) {
    it(route.url, async () => {
      const asClient = await t.app.inject({ ...route, headers: { cookie: jane } });
      expect(asClient.statusCode).toBe(404);
      expect(asClient.json()).toEqual(NOT_FOUND);
      const anonymous = await t.app.inject(route);
      expect(anonymous.statusCode).toBe(401);
    });
  }
});

describe("the client's own payment method refuses a physician session", () => {
  it('set_PaymentInfo answers 404, with or without a client id, and saves nothing', async () => {
    const token = await tokenizeCard(t, '4242424242424242');
    const fields = newCardFields(t, token);
    for (const id of [undefined, 'ACT10001']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/pay/set_PaymentInfo',
        headers: { cookie: maria, 'idempotency-key': `physician-save-${id ?? 'none'}` },
        payload: {
          ...fields,
          Credit_Card_Holder_Country: undefined,
          Country: fields.Credit_Card_Holder_Country,
          Payment_Type: 'CC',
          PaymentSource: 'CP Payment Info Page',
          ...(id ? { ClientSFRecordId: id } : {}),
        },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
    const info = await get('/api/pay/get_PaymentInfo', jane);
    expect(JSON.stringify(info.json())).not.toContain('4242');
  });
});
