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
    ['preferredAddressPhone', 'ext 12', 'Please insert only number, must be numeric'],
    ['preferredAddressPhone', '305-555-011', 'Please enter a 10-digit phone number'],
    ['preferredAddressZip', 'abc', 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)'],
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
    ['phone', '12', 'Please enter a 10-digit phone number'],
    ['phone', '305 555', 'Please enter a 10-digit phone number'],
    ['phone', '305-555-CALL', 'Please insert only number'],
    ['street', '', m.street],
    ['city', '', m.city],
    ['state', '', m.state],
    ['state', 'Ontario', 'Please select a state from the list'],
    ['zip', '', m.zip],
    ['zip', 'abc', 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)'],
    ['zip', '3313', 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)'],
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

  it('stores a phone number typed as people do as its digits', async () => {
    const response = await updateClient(jane, {
      ...validForm,
      phone: '(305) 555-0142',
      preferredAddressPhone: '+1 305.555.0111',
      zip: '33131-2020',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().client.phone).toBe('3055550142');
    const [row] = await t.db.select().from(clients).where(eq(clients.id, janeId));
    expect(row?.phone).toBe('3055550142');
    expect(row?.preferredAddressPhone).toBe('3055550111');
    expect(row?.zip).toBe('33131-2020');
  });

  it('saves the home address of a client living abroad, with a province and a postal code as typed', async () => {
    const abroad = {
      street: '10 Downing Street',
      city: 'London',
      state: 'Greater London',
      zip: 'SW1A 2AA',
      country: 'United Kingdom',
    };
    const response = await updateClient(jane, { ...validForm, ...abroad });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().client).toMatchObject(abroad);
    const [row] = await t.db.select().from(clients).where(eq(clients.id, janeId));
    expect(row).toMatchObject(abroad);
    // The preferred clinic is where vials are shipped: in the United States.
    const clinicAbroad = await updateClient(jane, {
      ...validForm,
      ...abroad,
      preferredAddressState: 'Ontario',
    });
    expect(clinicAbroad.json().fields).toEqual({
      preferredAddressState: 'Please select a state from the list',
    });
    await updateClient(jane, validForm);
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

describe('POST /api/pay/update_Client saves each block on its own (DESIGN.md 8.27)', () => {
  const personal = Object.fromEntries(
    Object.entries(validForm).filter(([key]) => !key.startsWith('preferredAddress') && !/clinic/i.test(key)),
  );
  const shipping = Object.fromEntries(Object.entries(validForm).filter(([key]) => !(key in personal)));
  const emptyShipping = Object.fromEntries(Object.keys(shipping).map((key) => [key, '']));

  async function row() {
    const [found] = await t.db.select().from(clients).where(eq(clients.id, johnId));
    if (!found) throw new Error('John is seeded');
    return found;
  }

  it('saves Personal Details without any clinic field, leaving the clinic block as it was', async () => {
    const before = await row();
    const response = await updateClient(john, {
      ...personal,
      firstName: 'John',
      lastName: 'Roe',
      phone: '(305) 555-0142',
    });
    expect(response.statusCode).toBe(200);
    const after = await row();
    expect(after.phone).toBe('3055550142');
    expect(after.clinicName).toBe(before.clinicName);
    expect(after.preferredAddressPhone).toBe(before.preferredAddressPhone);
    expect(after.preferredAddressZip).toBe(before.preferredAddressZip);
  });

  it('saves the clinic block without any Personal Details field, leaving those as they were', async () => {
    const before = await row();
    const response = await updateClient(john, { ...shipping, clinicName: 'Brickell Spine Center' });
    expect(response.statusCode).toBe(200);
    const after = await row();
    expect(after.clinicName).toBe('Brickell Spine Center');
    expect(after.preferredAddressCity).toBe('Coral Gables');
    expect(after.firstName).toBe(before.firstName);
    expect(after.phone).toBe(before.phone);
    expect(after.dateOfBirth).toBe(before.dateOfBirth);
  });

  it('takes an empty clinic block as no preferred clinic', async () => {
    const response = await updateClient(john, {
      ...personal,
      firstName: 'John',
      lastName: 'Roe',
      ...emptyShipping,
    });
    expect(response.statusCode).toBe(200);
    const after = await row();
    expect(after.clinicName).toBe('');
    expect(after.preferredAddressState).toBe('');
    expect(response.json().client.preferredAddressZip).toBe('');
  });

  it('refuses a started clinic block with the spec’s message for each missing field, and saves nothing', async () => {
    const before = await row();
    const response = await updateClient(john, { ...emptyShipping, clinicName: 'Half Started Clinic' });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
    expect(response.json().fields).toEqual({
      preferredAddressContactFullName: 'Please enter clinic contact person name',
      shippingClinicEmail: 'Please enter shipping email',
      preferredAddressPhone: 'Please enter phone number',
      preferredAddressStreet: 'Please enter Street',
      preferredAddressCity: 'Please enter city',
      preferredAddressState: 'Please select state',
      preferredAddressZip: 'Please enter zipcode',
      preferredAddressCountry: 'Please enter country',
    });
    expect(await row()).toEqual(before);
  });

  it('counts a clinic field sent alone as starting the block', async () => {
    const response = await updateClient(john, { preferredAddressCity: 'Miami' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.clinicName).toBe('Please enter clinic name');
  });

  it('refuses a body with neither block, with a 400', async () => {
    const response = await updateClient(john, {});
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
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
