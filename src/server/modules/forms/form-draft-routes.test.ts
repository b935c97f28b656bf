import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_AGREEMENT_VERSION } from '../../../domain/consent-agreement';
import { clients, formDrafts } from '../../db/schema';
import { cleanUp } from '../../jobs/reconcile';
import { addClient, pngDataUrl, signaturePng } from '../../testing/form-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';

/**
 * /api/pay/drafts/:form (issue 24, point 1): a form's unsent answers kept on the server for the
 * person signed in, sealed like documents, never card data or a signature, deleted when the form
 * is submitted or 7 days after the last save.
 */

const KEY = Buffer.alloc(32, 7).toString('base64');
const DAY_MS = 24 * 60 * 60 * 1000;
const ANSWERS = {
  answers: { Tissue_deliver: 'Destroy any Tissue', Medications: 'Yes', Medications_taking: 'Metformin' },
  sampleType: 'Adipose',
  payment: { method: 'Check', useAnotherCard: false, useAnotherAch: false, saveCard: true, saveAch: true },
};

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ DOCUMENTS_KEY: KEY, RATE_LIMIT_LOGIN_PER_IP: '1000' });
});
afterAll(() => t.close());

function put(cookie: string, payload: unknown, form = 'consent') {
  return t.app.inject({
    method: 'PUT',
    url: `/api/pay/drafts/${form}`,
    headers: { cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

function get(cookie: string, form = 'consent') {
  return t.app.inject({ method: 'GET', url: `/api/pay/drafts/${form}`, headers: { cookie } });
}

async function newSignedInClient() {
  const client = await addClient(t.db);
  return { ...client, cookie: await t.signIn(client.actId) };
}

async function draftRowsOf(clientId: string) {
  return t.db.select().from(formDrafts).where(eq(formDrafts.clientId, clientId));
}

describe('a form draft on the server', () => {
  it("keeps the signed-in client's answers, sealed at rest, and gives them back to her alone", async () => {
    const ann = await newSignedInClient();
    const bob = await newSignedInClient();
    expect((await get(ann.cookie)).json()).toEqual({ draft: null, savedAt: null });

    const saved = await put(ann.cookie, ANSWERS);
    expect(saved.statusCode, saved.body).toBe(200);
    const read = await get(ann.cookie);
    expect(read.statusCode).toBe(200);
    expect(read.json().draft).toEqual(ANSWERS);
    expect(read.headers['cache-control']).toBe('no-store');

    // At rest the answers are not readable: sealed under the documents key.
    const [row] = await draftRowsOf(ann.id);
    expect(row?.sealed).not.toContain('Metformin');
    expect(row?.sealed).not.toContain('Tissue_deliver');

    // Another client's session reads only its own (none), and cannot overwrite or delete hers.
    expect((await get(bob.cookie)).json()).toEqual({ draft: null, savedAt: null });
    await put(bob.cookie, { answers: { Medications: 'No' } });
    await t.app.inject({ method: 'DELETE', url: '/api/pay/drafts/consent', headers: { cookie: bob.cookie } });
    expect((await get(ann.cookie)).json().draft).toEqual(ANSWERS);

    // Saving again replaces the draft; deleting forgets it.
    await put(ann.cookie, { answers: { Medications: 'No' } });
    expect((await get(ann.cookie)).json().draft).toEqual({ answers: { Medications: 'No' } });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/pay/drafts/consent',
      headers: { cookie: ann.cookie },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await get(ann.cookie)).json()).toEqual({ draft: null, savedAt: null });
  });

  it('answers 401 without a session and 400 for a form that keeps no draft', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/pay/drafts/consent' });
    expect(anonymous.statusCode).toBe(401);
    const ann = await newSignedInClient();
    expect((await get(ann.cookie, 'payment-information')).statusCode).toBe(400);
    expect((await put(ann.cookie, ANSWERS, 'payment-information')).statusCode).toBe(400);
  });

  it('refuses card fields, a card number, a token and a drawn signature, keeping nothing', async () => {
    const ann = await newSignedInClient();
    const refused = [
      { payment: { method: 'Credit Card', card: { first: 'Ann', month: '12' } } },
      { payment: { ach: { holder: 'Ann' } } },
      { answers: { Medications_taking: '4111 1111 1111 1111' } },
      { Credit_Card_Number: '4111111111111111' },
      { cvv: '123' },
      { token: { descriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', value: 'abc' } },
      { Signature: pngDataUrl(signaturePng()) },
      { answers: { note: pngDataUrl(signaturePng()) } },
    ];
    for (const draft of refused) {
      const answer = await put(ann.cookie, draft);
      expect(answer.statusCode, JSON.stringify(draft)).toBe(400);
    }
    expect(await draftRowsOf(ann.id)).toEqual([]);
  });

  it('refuses a draft larger than 16 KB with 413', async () => {
    const ann = await newSignedInClient();
    const answer = await put(ann.cookie, { answers: { Medications_taking: 'x'.repeat(17 * 1024) } });
    expect(answer.statusCode).toBe(413);
    expect(await draftRowsOf(ann.id)).toEqual([]);
  });

  it("keeps a physician's draft for the client they act for apart from the client's own", async () => {
    const physician = await t.signInPhysician('PHY20001');
    // No client chosen yet: nothing to key a draft by.
    expect((await put(physician, ANSWERS)).statusCode).toBe(404);
    const [jane] = await t.db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.clientActId, 'ACT10001'));
    const chosen = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_ActingClient',
      headers: { cookie: physician },
      payload: { clientId: 'ACT10001' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect((await put(physician, ANSWERS)).statusCode).toBe(200);
    expect((await get(physician)).json().draft).toEqual(ANSWERS);

    const janeCookie = await t.signIn('ACT10001');
    expect((await get(janeCookie)).json().draft).toBeNull();
    const rows = await draftRowsOf(jane?.id as string);
    expect(rows.map((row) => row.physicianId === null)).toEqual([false]);
    await t.app.inject({ method: 'DELETE', url: '/api/pay/drafts/consent', headers: { cookie: physician } });
  });

  it('deletes every draft of the consent once it is signed', async () => {
    const ann = await newSignedInClient();
    await put(ann.cookie, ANSWERS);
    expect(await draftRowsOf(ann.id)).toHaveLength(1);
    const signed = await t.app.inject({
      method: 'POST',
      url: '/api/pay/send_ConsentData',
      headers: { cookie: ann.cookie, 'idempotency-key': `draft-consent-${ann.actId}` },
      payload: {
        Medications: 'No',
        Tissue_deliver: 'Destroy any Tissue',
        sample_type: 'Adipose',
        PaymentMethod: 'Check',
        agree: true,
        Signature: pngDataUrl(signaturePng()),
        agreementVersion: CONSENT_AGREEMENT_VERSION,
      },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(await draftRowsOf(ann.id)).toEqual([]);
    expect((await get(ann.cookie)).json()).toEqual({ draft: null, savedAt: null });
  });

  it("keeps Client Information's unsaved edit apart from the consent, and deletes it once the edit is saved", async () => {
    const ann = await newSignedInClient();
    const edit = { block: 'personal', values: { city: 'Somewhere Else', phone: '(305) 555-0199' } };
    expect((await put(ann.cookie, edit, 'client-information')).statusCode).toBe(200);
    await put(ann.cookie, ANSWERS);
    expect((await get(ann.cookie, 'client-information')).json().draft).toEqual(edit);
    expect((await get(ann.cookie)).json().draft).toEqual(ANSWERS);

    const record = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_Client',
      headers: { cookie: ann.cookie },
    });
    const [mine] = record.json().result.listResponse;
    const named = ['firstName', 'lastName', 'clientDob', 'email'];
    const personal = {
      ...Object.fromEntries(named.map((field) => [field, mine[field]])),
      ...{ phone: '3055550142', street: '1 Main Street', city: 'Somewhere Else', state: 'FL', zip: '33131' },
      country: 'United States',
    };
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/pay/update_Client',
      headers: { cookie: ann.cookie },
      payload: personal,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get(ann.cookie, 'client-information')).json()).toEqual({ draft: null, savedAt: null });
    // The consent's draft is another form's: it stays.
    expect((await get(ann.cookie)).json().draft).toEqual(ANSWERS);
  });

  it('is swept by the clean-up job 7 days after its last save, and not a moment before', async () => {
    const ann = await newSignedInClient();
    expect((await put(ann.cookie, ANSWERS)).statusCode).toBe(200);
    t.clock.advance(3 * DAY_MS);
    const bob = await newSignedInClient();
    expect((await put(bob.cookie, ANSWERS)).statusCode).toBe(200);
    t.clock.advance(4 * DAY_MS - 60_000);
    await cleanUp({ db: t.db, clock: t.clock });
    expect(await draftRowsOf(ann.id)).toHaveLength(1);
    t.clock.advance(2 * 60_000);
    await cleanUp({ db: t.db, clock: t.clock });
    expect(await draftRowsOf(ann.id)).toEqual([]);
    expect(await draftRowsOf(bob.id)).toHaveLength(1);
  });
});
