import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDateOf, isoToUsDate } from '../../../domain/dates';
import { clientActivities, clients } from '../../db/schema';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Samples to Receive (issue 21): a new client owes no storage until their tissue arrives; staff
 * record the arrival once, which sets the banked date and storage paid until the first
 * anniversary.
 */
let t: TestApp;
let admin: string;
let member: string;
let seq = 0;

async function post(url: string, cookie: string | undefined, payload: object, headers: object = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
}
async function get(url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

/** Dr. Alvarez registers a new client with a sample, the check to come in the shipment. */
async function newSample() {
  seq += 1;
  const physician = await t.signInPhysician('PHY20001');
  const sent = await post(
    '/api/pay/send_ProcessData',
    physician,
    {
      FirstName: 'Rosa',
      LastName: `Arrival${seq}`,
      Dob: '04/12/1981',
      Ship_date: '12/31/2049',
      Email: `arrival${seq}.${Date.now()}@example.com`,
      PhoneNumber: '3055550100',
      Address: '200 Biscayne Boulevard',
      City: 'Miami',
      State: 'FL',
      zipcode: '33131',
      Country: 'United States',
      Tissue: 'Adipose',
      CreditCard: false,
      BillingName: 'Clinic Accounts',
      BillingEmail: 'accounts@clinic.example.com',
    },
    { 'idempotency-key': `arrival-${seq}-${Date.now()}` },
  );
  expect(sent.statusCode, sent.body).toBe(200);
  const { ClientId, clientRecordId } = sent.json<{ ClientId: string; clientRecordId: string }>();
  const queue = await get('/api/staff/samples_to_receive', admin);
  const listed = queue.json<{ samples: Array<{ sampleId: string; clientActId: string }> }>().samples;
  const sample = listed.find((s) => s.clientActId === ClientId);
  expect(sample).toBeTruthy();
  return { actId: ClientId, clientId: clientRecordId, sampleId: sample?.sampleId as string };
}

const today = () => isoToUsDate(isoDateOf(t.clock.now()));

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  admin = await staffSession(t);
  member = await staffLevelMember(t, admin, 'desk.arrivals@bank.example.com', 'Desk Arrivals');
});
afterAll(() => t.close());

describe('Samples to Receive', () => {
  it('answers 404 to a client and a physician, 401 to nobody', async () => {
    for (const [method, url] of [
      ['GET', '/api/staff/samples_to_receive'],
      ['POST', '/api/staff/receive_sample'],
    ] as const) {
      for (const cookie of [await t.signIn('ACT10001'), await t.signInPhysician('PHY20001')]) {
        const response = await t.app.inject({
          method,
          url,
          headers: { cookie },
          payload: method === 'POST' ? {} : undefined,
        });
        expect(response.statusCode).toBe(404);
      }
      const nobody = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(nobody.statusCode).toBe(401);
    }
  });

  it('a new client owes nothing until receipt; the arrival sets the banked date and a year paid, once', async () => {
    const sample = await newSample();
    const [before] = await t.db.select().from(clients).where(eq(clients.id, sample.clientId));
    expect(before?.dateBankedIn).toBeNull();
    expect(before?.annualStoragePaidUntil).toBeNull();

    const wrong = await post('/api/staff/receive_sample', member, {
      sampleId: sample.sampleId,
      receivedOn: '13/40/2026',
      vialsBanked: '0',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({
      receivedOn: 'Please enter the date as MM/DD/YYYY',
      vialsBanked: 'Please enter a whole number of vials from 1 to 99',
    });

    const entry = { sampleId: sample.sampleId, receivedOn: today(), vialsBanked: '6' };
    const [first, again] = await Promise.all([
      post('/api/staff/receive_sample', member, entry),
      post('/api/staff/receive_sample', member, entry),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode, again.body).toBe(200);
    const todayIso = isoDateOf(t.clock.now());
    const [year, month, day] = todayIso.split('-');
    const anniversary = `${Number(year) + 1}-${month}-${month === '02' && day === '29' ? '28' : day}`;
    expect(first.json()).toMatchObject({ receivedOn: todayIso, vialsBanked: 6, paidUntil: anniversary });
    expect(first.json().message).toBe(
      `Sample received. The first year of storage is included: storage is paid until ${isoToUsDate(anniversary)}.`,
    );

    const [after] = await t.db.select().from(clients).where(eq(clients.id, sample.clientId));
    expect(after?.dateBankedIn).toBe(todayIso);
    expect(after?.annualStoragePaidUntil).toBe(anniversary);
    const activities = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, sample.clientId));
    expect(activities.filter((a) => a.type === 'Sample Received')).toHaveLength(1);
    const mail = await t.mailTo(after?.email ?? '');
    expect(mail.filter((m) => m.subject === 'Client Portal: we received your sample')).toHaveLength(1);

    const other = await post('/api/staff/receive_sample', admin, entry);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatch(/^This sample was already received by Desk Arrivals on /);

    const queue = await get('/api/staff/samples_to_receive', admin);
    expect(queue.json().samples.map((s: { sampleId: string }) => s.sampleId)).not.toContain(sample.sampleId);
  });

  it('an unknown sample is 404; a date before the sample form is refused', async () => {
    const unknown = await post('/api/staff/receive_sample', admin, {
      sampleId: '00000000-0000-4000-8000-000000000000',
      receivedOn: today(),
      vialsBanked: '4',
    });
    expect(unknown.statusCode).toBe(404);
    const sample = await newSample();
    const early = await post('/api/staff/receive_sample', admin, {
      sampleId: sample.sampleId,
      receivedOn: '01/02/2020',
      vialsBanked: '4',
    });
    expect(early.statusCode).toBe(400);
    expect(early.json().error).toBe('The arrival date cannot be before the sample form was sent');
  });
});
