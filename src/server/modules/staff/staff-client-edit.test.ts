import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientInformation,
  clientInformationFieldOrder,
  clientInformationMessages,
} from '../../../domain/client';
import { todayFor } from '../../../domain/client-basics';
import { addDays } from '../../../domain/dates';
import { AGREEMENT_LINK_EMAIL_SUBJECT } from '../../../domain/staff-client';
import { auditEvents, clientProfileChanges, clients, newbornAgreements } from '../../db/schema';
import { DEMO_STAFF_EMAIL } from '../../db/seed';
import { addClient } from '../../testing/form-fixtures';
import { staffSession } from '../../testing/staff-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let admin: string;
let janeId: string;

function post(url: string, cookie: string | undefined, payload: object, ip = '10.9.7.1') {
  return t.app.inject({ method: 'POST', url, payload, remoteAddress: ip, headers: cookie ? { cookie } : {} });
}
function get(url: string, cookie?: string, ip = '10.9.7.1') {
  return t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: cookie ? { cookie } : {} });
}

/** Jane's profile as the record shows it, only the editable fields. */
async function janeProfile(): Promise<ClientInformation> {
  const record = await get('/api/staff/client?id=ACT10001', admin);
  expect(record.statusCode, record.body).toBe(200);
  const client = record.json().client;
  return Object.fromEntries(clientInformationFieldOrder.map((f) => [f, client[f]])) as ClientInformation;
}

const FIGURES = {
  mainContact: 'Jane Doe',
  patientId: 'NB-2026-0042',
  annualBankingFeeCents: 17_500,
  bioInsuranceFeeCents: 30_000,
  downPaymentCents: 25_000,
  initialProcessingFeeCents: 195_000,
  interestRateBasisPoints: 600,
  installments: 12,
  totalFinancedCents: 170_000,
};

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
  admin = await staffSession(t);
  const [jane] = await t.db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10001'));
  janeId = jane?.id as string;
});
afterAll(async () => t?.close());

describe('POST /api/staff/update_client', () => {
  it("saves a correction, keeps each changed field's old and new value with the staff member and time, audited", async () => {
    const before = await janeProfile();
    const response = await post('/api/staff/update_client', admin, {
      clientId: 'ACT10001',
      ...before,
      city: 'Coral Gables',
      phone: '3055550199',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().changed).toEqual(['phone', 'city']);
    const [row] = await t.db.select().from(clients).where(eq(clients.id, janeId));
    expect(row).toMatchObject({ city: 'Coral Gables', phone: '3055550199', street: before.street });

    const record = (await get('/api/staff/client?id=ACT10001', admin)).json();
    expect(record.profileChanges).toEqual(
      expect.arrayContaining([
        {
          at: t.clock.now().toISOString(),
          staff: DEMO_STAFF_EMAIL,
          field: 'city',
          oldValue: 'Miami',
          newValue: 'Coral Gables',
        },
        {
          at: t.clock.now().toISOString(),
          staff: DEMO_STAFF_EMAIL,
          field: 'phone',
          oldValue: '3055550142',
          newValue: '3055550199',
        },
      ]),
    );
    expect(record.profileChanges).toHaveLength(2);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'change-client'), eq(auditEvents.clientId, janeId)));
    expect(audit.map((a) => [a.actorRole, a.route])).toEqual([['staff', 'POST /api/staff/update_client']]);

    // The same values again change nothing and add no history.
    const again = await post('/api/staff/update_client', admin, {
      clientId: 'ACT10001',
      ...(await janeProfile()),
    });
    expect(again.json().changed).toEqual([]);
    expect(await t.db.select().from(clientProfileChanges)).toHaveLength(2);
  });

  it('refuses bad input with the field message and changes nothing', async () => {
    const before = await janeProfile();
    const response = await post('/api/staff/update_client', admin, {
      clientId: 'ACT10001',
      ...before,
      email: 'nope',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.email).toBe(clientInformationMessages.invalidEmail);
    const missing = await post('/api/staff/update_client', admin, {
      clientId: 'ACT10001',
      ...before,
      city: ' ',
    });
    expect(missing.json().fields.city).toBe(clientInformationMessages.city);
    expect(await janeProfile()).toEqual(before);
  });

  it('takes a phone typed as people do with the client’s own rule: stored as digits, a typed-alike number no change', async () => {
    const before = await janeProfile();
    const rows = (await t.db.select().from(clientProfileChanges)).length;
    const same = await post('/api/staff/update_client', admin, {
      clientId: 'ACT10001',
      ...before,
      phone: `(${before.phone.slice(0, 3)}) ${before.phone.slice(3, 6)}-${before.phone.slice(6)}`,
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().changed).toEqual([]);
    const short = await post('/api/staff/update_client', admin, {
      clientId: 'ACT10001',
      ...before,
      phone: '12',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.phone).toBe('Please enter a 10-digit phone number');
    const zip = await post('/api/staff/update_client', admin, {
      clientId: 'ACT10001',
      ...before,
      zip: 'abc',
    });
    expect(zip.json().fields.zip).toBe('Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)');
    expect(await janeProfile()).toEqual(before);
    expect(await t.db.select().from(clientProfileChanges)).toHaveLength(rows);
  });

  it('answers 404 for an unknown client and to client and physician sessions', async () => {
    const before = await janeProfile();
    expect(
      (await post('/api/staff/update_client', admin, { ...before, clientId: 'ACT99999' })).statusCode,
    ).toBe(404);
    const client = await t.signIn('ACT10001');
    const physician = await t.signInPhysician('PHY20001');
    for (const cookie of [client, physician]) {
      const response = await post('/api/staff/update_client', cookie, {
        ...before,
        clientId: 'ACT10001',
        city: 'X',
      });
      expect(response.statusCode).toBe(404);
    }
    expect((await janeProfile()).city).toBe(before.city);
  });
});

describe('POST /api/staff/send_agreement_link', () => {
  /** A newborn client, born this many days before the test clock's day. */
  async function newborn(daysOld: number) {
    return addClient(t.db, {
      firstName: 'Rosa',
      lastName: 'Rivera',
      dateOfBirth: addDays(todayFor(t.clock.now()), -daysOld),
    });
  }

  it('creates the agreement and e-mails the main contact a link the agreement page accepts; answers only a masked address', async () => {
    const rosa = await newborn(21);
    const response = await post('/api/staff/send_agreement_link', admin, {
      clientId: rosa.actId,
      ...FIGURES,
      mainContact: 'Ana Rivera',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().sentTo).toBe('a***@example.com');
    expect(response.body).not.toContain('newbornfinanceagreement');
    const mails = await t.mailTo(rosa.email);
    const mail = mails.find((m) => m.subject === AGREEMENT_LINK_EMAIL_SUBJECT);
    const match = mail?.textBody.match(/\/newbornfinanceagreement\/([\w.-]+)/);
    expect(match, mail?.textBody).not.toBeNull();
    const token = match?.[1] as string;
    const page = await get(
      `/api/pay/get_Client_Agreement_service?id=${encodeURIComponent(token)}`,
      undefined,
      '10.9.7.9',
    );
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({
      Name: 'Ana Rivera',
      Patient_ID__c: 'NB-2026-0042',
      Number_Of_Installments__c: 12,
    });
    const agreements = await t.db
      .select()
      .from(newbornAgreements)
      .where(eq(newbornAgreements.clientId, rosa.id));
    expect(agreements).toHaveLength(1);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'send-agreement-link'), eq(auditEvents.clientId, rosa.id)));
    expect(audit).toHaveLength(1);
  });

  it('refuses a client born a year ago or more (Jane, 1975) with 409 and says why; nothing is created or sent', async () => {
    for (const clientId of ['ACT10001', (await newborn(365)).actId]) {
      const refused = await post('/api/staff/send_agreement_link', admin, { clientId, ...FIGURES });
      expect(refused.statusCode, clientId).toBe(409);
      expect(refused.json().error).toBe(
        'A newborn finance agreement is only for a client born less than a year ago.',
      );
    }
    expect(
      await t.db.select().from(newbornAgreements).where(eq(newbornAgreements.clientId, janeId)),
    ).toHaveLength(0);
    expect(
      (await t.mailTo('jane.doe@example.com')).filter((m) => m.subject === AGREEMENT_LINK_EMAIL_SUBJECT),
    ).toHaveLength(0);
    // The day before the first birthday is still a newborn's.
    const young = await newborn(364);
    expect(
      (await post('/api/staff/send_agreement_link', admin, { clientId: young.actId, ...FIGURES })).statusCode,
    ).toBe(200);
  });

  it('refuses bad figures with their message, and other sessions with 404', async () => {
    const rosa = await newborn(30);
    const bad = await post('/api/staff/send_agreement_link', admin, {
      clientId: rosa.actId,
      ...FIGURES,
      installments: 0,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.installments).toBe('Please enter the number of installments (1 to 120)');
    const client = await t.signIn('ACT10001');
    expect(
      (await post('/api/staff/send_agreement_link', client, { clientId: 'ACT10001', ...FIGURES })).statusCode,
    ).toBe(404);
  });
});
