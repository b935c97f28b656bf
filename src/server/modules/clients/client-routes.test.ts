import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientInformationMessages as m } from '../../../domain/client';
import { clients } from '../../db/schema';
import { startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let jane: string;
let john: string;
let janeId: string;
let johnId: string;

beforeAll(async () => {
  t = await startTestApp();
  jane = await t.signIn('ACT10001');
  john = await t.signIn('ACT10002');
  const rows = await t.db.select({ id: clients.id, actId: clients.clientActId }).from(clients);
  janeId = rows.find((r) => r.actId === 'ACT10001')?.id as string;
  johnId = rows.find((r) => r.actId === 'ACT10002')?.id as string;
});
afterAll(() => t.close());

const validForm = {
  firstName: 'Jane',
  lastName: 'Doe',
  clientDob: '03/14/1975',
  email: 'jane.doe@example.com',
  phone: '3055550142',
  street: '1200 Brickell Avenue',
  city: 'Miami',
  state: 'FL',
  zip: '33131',
  country: 'United States',
  clinicName: 'Coral Gables Orthopedics',
  preferredAddressContactFullName: 'Dr. Ana Rivera',
  shippingClinicEmail: 'ship@coral.example.com',
  preferredAddressPhone: '3055550111',
  preferredAddressStreet: '200 Alhambra Circle',
  preferredAddressCity: 'Coral Gables',
  preferredAddressState: 'FL',
  preferredAddressZip: '33134',
  preferredAddressCountry: 'United States',
};

function getClient(cookie: string, id?: string) {
  return t.app.inject({
    method: 'GET',
    url: '/api/pay/get_Client',
    query: id ? { id } : {},
    headers: { cookie },
  });
}

function updateClient(cookie: string, payload: unknown, id?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/update_Client',
    query: id ? { id } : {},
    headers: { cookie },
    payload: payload as Record<string, unknown>,
  });
}

describe('GET /api/pay/get_Client', () => {
  it("answers the session's own client with the spec's fields", async () => {
    const response = await getClient(jane);
    expect(response.statusCode).toBe(200);
    const [record] = response.json().result.listResponse;
    expect(record).toMatchObject({
      clientACTId: 'ACT10001',
      clientRecordId: janeId,
      firstName: 'Jane',
      clientDob: '03/14/1975',
      creditCardNumber: null,
      hasOverDuePayments: false,
      totalAnnualOverdueAmount: 0,
      initialProcessingFormCompleted: true,
      clientConsentFormCompleted: false,
      infectiousDiseaseFormCompleted: false,
    });
    expect(record.freeBioInsuranceVialsAvailble).toBeGreaterThan(0);
    expect(record).not.toHaveProperty('passwordHash');
  });

  it("totals John's two overdue years and masks his card to the last 4 digits", async () => {
    const [record] = (await getClient(john)).json().result.listResponse;
    expect(record.totalAnnualOverdueAmount).toBe(679.62);
    expect(record.hasOverDuePayments).toBe(true);
    expect(record.creditCardNumber).toBe('************1111');
  });

  it('accepts its own id, by record id or Client ID', async () => {
    expect((await getClient(jane, janeId)).statusCode).toBe(200);
    expect((await getClient(jane, 'act10001')).statusCode).toBe(200);
  });

  it("answers another client's id exactly like an id that does not exist", async () => {
    const other = await getClient(jane, johnId);
    const otherByActId = await getClient(jane, 'ACT10002');
    const missing = await getClient(jane, '00000000-0000-4000-8000-000000000000');
    const missingActId = await getClient(jane, 'ACT99999');
    for (const r of [other, otherByActId, missing, missingActId]) {
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    }
    expect(other.body).not.toContain('Roe');
  });

  it('refuses without a session', async () => {
    expect((await getClient('portal_session=forged-token')).statusCode).toBe(401);
  });
});

describe('POST /api/pay/update_Client', () => {
  it('saves the form and answers the success message and the new record', async () => {
    const response = await updateClient(jane, validForm);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Client information successfully updated.');
    expect(response.json().client.clinicName).toBe('Coral Gables Orthopedics');
    const [row] = await t.db.select().from(clients).where(eq(clients.id, janeId));
    expect(row?.preferredAddressCity).toBe('Coral Gables');
    expect(row?.dateOfBirth).toBe('1975-03-14');
  });

  it('refuses a body carrying a card number or CVV, like every API call, and saves nothing', async () => {
    const [before] = await t.db.select().from(clients).where(eq(clients.id, janeId));
    const response = await updateClient(jane, { ...validForm, clinicName: 'Changed Clinic', CVV: '123' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN_FIELD', fields: { CVV: 'Not accepted' } });
    const [after] = await t.db.select().from(clients).where(eq(clients.id, janeId));
    expect(after?.clinicName).toBe(before?.clinicName);
  });

  it('changes only the fields the form edits, whatever else the body carries', async () => {
    const response = await updateClient(jane, {
      ...validForm,
      clientACTId: 'ACT77777',
      clientRecordId: johnId,
      annualStoragePaidUntil: '2099-01-01',
      clientConsentFormCompleted: true,
      freeBioInsuranceVialsAvailble: 75,
      passwordHash: 'x',
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.db.select().from(clients).where(eq(clients.id, janeId));
    expect(row?.clientActId).toBe('ACT10001');
    expect(row?.clientConsentFormCompleted).toBe(false);
    expect(row?.bioInsuranceVialsAvailable).toBe(4);
    expect(row?.annualStoragePaidUntil).not.toBe('2099-01-01');
    const [johnRow] = await t.db.select().from(clients).where(eq(clients.id, johnId));
    expect(johnRow?.firstName).toBe('John');
  });

  it("refuses to update another client's record, leaving it unchanged", async () => {
    const response = await updateClient(jane, { ...validForm, firstName: 'Mallory' }, johnId);
    expect(response.statusCode).toBe(404);
    const [johnRow] = await t.db.select().from(clients).where(eq(clients.id, johnId));
    expect(johnRow?.firstName).toBe('John');
  });

  it.each([
    ['preferredAddressContactFullName', '', m.preferredAddressContactFullName],
    ['clinicName', '', m.clinicName],
    ['clinicName', 'x'.repeat(101), m.clinicNameTooLong],
    ['shippingClinicEmail', '', m.shippingClinicEmail],
    ['shippingClinicEmail', 'not-an-email', m.invalidEmail],
    ['preferredAddressPhone', '', m.preferredAddressPhone],
    ['preferredAddressPhone', '305-555-0111', m.preferredAddressPhoneNumeric],
    ['preferredAddressStreet', '', m.preferredAddressStreet],
    ['preferredAddressCity', '', m.preferredAddressCity],
    ['preferredAddressState', '', m.preferredAddressState],
    ['preferredAddressState', 'ZZ', m.preferredAddressStateUnknown],
    ['preferredAddressZip', '', m.preferredAddressZip],
    ['preferredAddressCountry', '', m.preferredAddressCountry],
    ['clientDob', '', m.clientDob],
    ['clientDob', '02/30/1975', m.clientDob],
    ['clientDob', '01/01/2999', m.clientDob],
    ['email', '', m.email],
    ['email', 'jane@', m.invalidEmail],
    ['phone', '', m.phone],
    ['phone', '305 555', m.phoneNumeric],
    ['street', '', m.street],
    ['city', '', m.city],
    ['state', '', m.state],
    ['zip', '', m.zip],
    ['country', '', m.country],
    ['firstName', '   ', m.name],
    ['lastName', '', m.name],
  ])('refuses %s = %j with "%s" and saves nothing', async (field, value, message) => {
    const [before] = await t.db.select().from(clients).where(eq(clients.id, janeId));
    const response = await updateClient(jane, { ...validForm, firstName: 'Changed', [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
    expect(response.json().fields[field]).toBe(message);
    const [after] = await t.db.select().from(clients).where(eq(clients.id, janeId));
    expect(after).toEqual(before);
  });

  it('refuses a birth date in the future', async () => {
    const tomorrow = new Date(t.clock.now().getTime() + 2 * 86_400_000);
    const us = `${String(tomorrow.getUTCMonth() + 1).padStart(2, '0')}/${String(tomorrow.getUTCDate()).padStart(2, '0')}/${tomorrow.getUTCFullYear()}`;
    const response = await updateClient(jane, { ...validForm, clientDob: us });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.clientDob).toBe(m.clientDobFuture);
  });

  it('answers 400, not 500, to a malformed body, and 413 to an oversized one', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/pay/update_Client',
      headers: { cookie: jane, 'content-type': 'application/json' },
      payload: '{"firstName": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('VALIDATION');
    expect(malformed.body).not.toMatch(/at .*\.ts/);

    const oversized = await t.app.inject({
      method: 'POST',
      url: '/api/pay/update_Client',
      headers: { cookie: jane, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...validForm, street: 'x'.repeat(200_000) }),
    });
    expect(oversized.statusCode).toBe(413);
    expect(oversized.json().code).toBe('PAYLOAD_TOO_LARGE');

    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/pay/update_Client',
      headers: { cookie: jane, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(notJson.statusCode).toBeGreaterThanOrEqual(400);
    expect(notJson.statusCode).toBeLessThan(500);

    const arrayBody = await updateClient(jane, [1, 2, 3]);
    expect(arrayBody.statusCode).toBe(400);
  });

  it('refuses a cross-site post', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/update_Client',
      headers: { cookie: jane, origin: 'https://evil.example.net' },
      payload: validForm,
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /api/pay/get_ClientActivity', () => {
  it("lists only the session's own client's activity", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_ClientActivity',
      headers: { cookie: john },
    });
    expect(response.statusCode).toBe(200);
    const records = response.json().result as Array<{ ClientId: string; Type: string; CloseDate: string }>;
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(records.every((r) => r.ClientId === 'ACT10002')).toBe(true);
    expect(records.some((r) => r.Type === 'Dose Retrieval Fee' && r.CloseDate > '2021-12-01')).toBe(true);
  });

  it("answers 404 for another client's activity", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_ClientActivity',
      query: { id: 'ACT10001' },
      headers: { cookie: john },
    });
    expect(response.statusCode).toBe(404);
  });
});
