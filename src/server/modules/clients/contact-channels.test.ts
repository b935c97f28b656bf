import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientInformationFieldOrder } from '../../../domain/client';
import { clients } from '../../db/schema';
import { DEMO_CLIENT_PASSWORD } from '../../db/seed';
import { staffSession } from '../../testing/staff-fixtures';
import { cookieOf, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * A client's sign-in and recovery channels (DESIGN.md section 3; issue 19, "a physician can take
 * over a client's account"): only the client and staff change the e-mail address and phone
 * number, the registering physician may correct the e-mail until the welcome link is used,
 * every change is e-mailed to the old and the new address, and recovery codes wait a day.
 */

const HOUR = 60 * 60 * 1000;
const CONTACT = 'https://www.stemcellbank.example.com/contact-us';
const EMAIL_REFUSED =
  "Only the client or the bank can change the client's e-mail address. Please ask your client to change it in the Client Portal, or contact us.";
const PHONE_REFUSED =
  "Only the client or the bank can change the client's phone number. Please ask your client to change it in the Client Portal, or contact us.";

let t: TestApp;
let alvarez: string;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', RATE_LIMIT_RECOVERY_PER_IP: '1000' });
  alvarez = await t.signInPhysician('PHY20001');
});
afterAll(() => t.close());

function inject(method: 'GET' | 'POST', url: string, cookie: string | null, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload ? { payload: payload as Record<string, unknown> } : {}),
    remoteAddress: '10.19.0.1',
  });
}

/** A clinic for the records that have none yet: the form requires one. */
const CLINIC: Record<string, string> = {
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

/** The Client Information form's fields as the client's record shows them (a clinic filled in). */
async function profileOf(cookie: string, id?: string) {
  const response = await inject('GET', `/api/pay/get_Client${id ? `?id=${id}` : ''}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  const record = response.json().result.listResponse[0];
  return Object.fromEntries(
    clientInformationFieldOrder.map((f) => [f, record[f] || CLINIC[f] || '']),
  ) as Record<string, string>;
}

async function rowOf(actId: string) {
  const [row] = await t.db.select().from(clients).where(eq(clients.clientActId, actId));
  if (!row) throw new Error(`no client ${actId}`);
  return row;
}

const subjects = async (address: string) => (await t.mailTo(address)).map((m) => m.subject);

function requestCode(details: { email: string; firstName: string; dateOfBirth: string }) {
  return inject('GET', `/api/pay/get_otp?${new URLSearchParams(details)}`, null);
}

/** The codes e-mailed to the address (they leave after the answer: waited for when expected). */
async function codesTo(address: string) {
  return (await t.mailTo(address))
    .map((m) => /one time password is (\d{6})/.exec(m.textBody)?.[1])
    .filter((code): code is string => code !== undefined);
}

describe('the reported takeover: a physician acting for ACT10003', () => {
  it('cannot change her e-mail address, so no code reaches the new one and she keeps her account', async () => {
    const ana = await t.signIn('ACT10003');
    const form = await profileOf(alvarez, 'ACT10003');
    const changed = await inject('POST', '/api/pay/update_Client?id=ACT10003', alvarez, {
      ...form,
      email: 'taken.over@example.net',
    });
    expect(changed.statusCode).toBe(403);
    expect(changed.json()).toMatchObject({ error: EMAIL_REFUSED, fields: { email: EMAIL_REFUSED } });
    expect((await rowOf('ACT10003')).email).toBe('ana.lima@example.com');
    expect((await rowOf('ACT10003')).emailChangedAt).toBeNull();

    const asked = await requestCode({
      email: 'taken.over@example.net',
      firstName: 'Ana',
      dateOfBirth: '07/09/1982',
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({
      otpSent: true,
      message:
        'If the details match our records, a one time password has been sent to your email address. It is valid for 10 minutes.',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await t.mailTo('taken.over@example.net')).toEqual([]);

    const reset = await inject('POST', '/api/pay/update_Password', null, {
      email: 'taken.over@example.net',
      firstName: 'Ana',
      dateOfBirth: '07/09/1982',
      OneTimePassword: '123456',
      UpdatedPassword: 'a takeover passphrase 2026',
    });
    expect(reset.statusCode).toBe(400);
    expect((await inject('GET', '/api/pay/get_Client', ana)).statusCode).toBe(200);
    expect((await t.signIn('ACT10003', DEMO_CLIENT_PASSWORD)).length).toBeGreaterThan(0);
  });

  it('cannot change her phone number', async () => {
    const form = await profileOf(alvarez, 'ACT10003');
    const changed = await inject('POST', '/api/pay/update_Client?id=ACT10003', alvarez, {
      ...form,
      phone: '3055559999',
    });
    expect(changed.statusCode).toBe(403);
    expect(changed.json()).toMatchObject({ error: PHONE_REFUSED, fields: { phone: PHONE_REFUSED } });
    expect((await rowOf('ACT10003')).phone).toBe(form.phone);
  });

  it('still edits the rest of her profile, and nothing is announced', async () => {
    const form = await profileOf(alvarez, 'ACT10003');
    const before = await subjects('ana.lima@example.com');
    const changed = await inject('POST', '/api/pay/update_Client?id=ACT10003', alvarez, {
      ...form,
      clinicName: 'Brickell Regenerative Clinic',
      preferredAddressCity: 'Coral Gables',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().client.clinicName).toBe('Brickell Regenerative Clinic');
    expect(await subjects('ana.lima@example.com')).toEqual(before);
  });
});

describe("the client's own change of e-mail address", () => {
  it('is announced to the old and the new address', async () => {
    const sam = await t.signIn('ACT10004');
    const form = await profileOf(sam);
    const changed = await inject('POST', '/api/pay/update_Client', sam, {
      ...form,
      email: 'sam.patel@new.example.org',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const row = await rowOf('ACT10004');
    expect(row.email).toBe('sam.patel@new.example.org');
    expect(row.emailChangedAt?.toISOString()).toBe(t.clock.now().toISOString());

    for (const address of ['sam.patel@example.com', 'sam.patel@new.example.org']) {
      const [notice] = await t.mailTo(address);
      expect(notice?.subject, address).toBe('Client Portal: your e-mail address was changed');
      expect(notice?.textBody).toContain('Dear Sam,');
      expect(notice?.textBody).toContain('(Client ID ACT10004) was changed from your account on');
      expect(notice?.textBody).toContain(
        'E-mail address: changed from sam.patel@example.com to sam.patel@new.example.org.',
      );
      expect(notice?.textBody).toContain(
        `If you did not make or ask for this change, please contact us right away at ${CONTACT} so we can secure your account.`,
      );
    }
  });

  it('sends no recovery code to the new address within a day of the change, and sends one after', async () => {
    const details = { email: 'sam.patel@new.example.org', firstName: 'Sam', dateOfBirth: '01/23/1990' };
    t.clock.advance(23 * HOUR);
    const tooSoon = await requestCode(details);
    expect(tooSoon.statusCode).toBe(200);
    expect(tooSoon.json().otpSent).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await codesTo('sam.patel@new.example.org')).toEqual([]);

    t.clock.advance(HOUR + 1000);
    expect((await requestCode(details)).statusCode).toBe(200);
    await vi.waitFor(async () => expect(await codesTo('sam.patel@new.example.org')).toHaveLength(1));
  });

  it('of only letter case changes nothing a notice would tell', async () => {
    const sam = await t.signIn('ACT10004');
    const form = await profileOf(sam);
    const before = (await t.mailTo('sam.patel@new.example.org')).length;
    const changed = await inject('POST', '/api/pay/update_Client', sam, {
      ...form,
      email: 'Sam.Patel@New.Example.org',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await t.mailTo('Sam.Patel@New.Example.org')).length).toBe(0);
    expect((await t.mailTo('sam.patel@new.example.org')).length).toBe(before);
  });

  it("of the phone number is announced to the address of record, the numbers' last digits only", async () => {
    const jane = await t.signIn('ACT10001');
    const form = await profileOf(jane);
    const changed = await inject('POST', '/api/pay/update_Client', jane, { ...form, phone: '3055550777' });
    expect(changed.statusCode, changed.body).toBe(200);
    const [notice] = await t.mailTo('jane.doe@example.com');
    expect(notice?.subject).toBe('Client Portal: your phone number was changed');
    expect(notice?.textBody).toContain(
      `Phone number: changed from ending in ${form.phone?.slice(-4)} to ending in 0777.`,
    );
    expect(notice?.textBody).not.toContain('3055550777');
    expect((await rowOf('ACT10001')).emailChangedAt).toBeNull();
  });
});

describe("staff's change of a client's e-mail address", () => {
  it('is announced to the old and the new address and delays recovery codes too', async () => {
    const admin = await staffSession(t);
    const record = await inject('GET', '/api/staff/client?id=ACT10002', admin);
    const client = record.json().client;
    const form = Object.fromEntries(clientInformationFieldOrder.map((f) => [f, client[f]]));
    const changed = await inject('POST', '/api/staff/update_client', admin, {
      clientId: 'ACT10002',
      ...form,
      email: 'john.roe@corrected.example.org',
      phone: '3055550888',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    for (const address of ['john.roe@example.com', 'john.roe@corrected.example.org']) {
      const [notice] = await t.mailTo(address);
      expect(notice?.subject, address).toBe(
        'Client Portal: your e-mail address and phone number were changed',
      );
      expect(notice?.textBody).toContain("(Client ID ACT10002) were changed by the bank's staff on");
      expect(notice?.textBody).toContain(
        'E-mail address: changed from john.roe@example.com to john.roe@corrected.example.org.',
      );
      expect(notice?.textBody).toContain('to ending in 0888.');
      expect(notice?.textBody).toContain(CONTACT);
    }
    expect((await rowOf('ACT10002')).emailChangedAt?.toISOString()).toBe(t.clock.now().toISOString());
  });
});

describe('the registering physician before the welcome link is used', () => {
  const person = {
    FirstName: 'Iris',
    LastName: 'Welcome',
    Dob: '05/06/1987',
    Ship_date: '12/31/2049',
    Email: 'iris.typo@example.con',
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
  };

  const welcomeToken = async (address: string) => {
    const [mail] = (await t.mailTo(address)).filter((m) => m.subject.includes('welcome'));
    return /\/welcome\/([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '')?.[1] ?? null;
  };
  const linkWorks = async (token: string) =>
    (await inject('GET', `/api/pay/get_WelcomeLink?token=${token}`, null)).statusCode === 200;

  it('corrects the e-mail: the new address gets a new link, the old link stops, both addresses are told (and so when staff correct it)', async () => {
    // The cases before moved the clock by a day: a new session.
    alvarez = await t.signInPhysician('PHY20001');
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/pay/send_ProcessData',
      headers: { cookie: alvarez, 'idempotency-key': 'contact-channels-iris' },
      payload: person,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const actId = sent.json().ClientId as string;
    const oldToken = await welcomeToken('iris.typo@example.con');
    expect(oldToken).not.toBeNull();

    const form = await profileOf(alvarez, actId);
    const corrected = await inject('POST', `/api/pay/update_Client?id=${actId}`, alvarez, {
      ...form,
      email: 'iris.welcome@example.com',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect((await rowOf(actId)).email).toBe('iris.welcome@example.com');

    const newToken = await welcomeToken('iris.welcome@example.com');
    expect(newToken).not.toBeNull();
    expect(await linkWorks(oldToken as string)).toBe(false);
    expect(await linkWorks(newToken as string)).toBe(true);
    const [welcome] = (await t.mailTo('iris.welcome@example.com')).filter((m) =>
      m.subject.includes('welcome'),
    );
    expect(welcome?.textBody).toContain(`Your Client ID is ${actId}.`);
    expect(welcome?.textBody).toContain('any link we sent before no longer works');

    for (const address of ['iris.typo@example.con', 'iris.welcome@example.com']) {
      const notices = (await t.mailTo(address)).filter(
        (m) => m.subject === 'Client Portal: your e-mail address was changed',
      );
      expect(notices, address).toHaveLength(1);
      expect(notices[0]?.textBody).toContain('was changed by Dr. Maria Alvarez on');
    }

    // Staff correct it again: the link moves on to the address staff entered.
    const admin = await staffSession(t);
    const staffRecord = (await inject('GET', `/api/staff/client?id=${actId}`, admin)).json().client;
    const byStaff = await inject('POST', '/api/staff/update_client', admin, {
      clientId: actId,
      ...Object.fromEntries(clientInformationFieldOrder.map((f) => [f, staffRecord[f] || CLINIC[f] || ''])),
      email: 'iris.w@example.com',
    });
    expect(byStaff.statusCode, byStaff.body).toBe(200);
    const staffToken = await welcomeToken('iris.w@example.com');
    expect(staffToken).not.toBeNull();
    expect(await linkWorks(newToken as string)).toBe(false);
    expect(await linkWorks(staffToken as string)).toBe(true);

    // The phone stays the client's even now.
    const phone = await inject('POST', `/api/pay/update_Client?id=${actId}`, alvarez, {
      ...(await profileOf(alvarez, actId)),
      phone: '3055550101',
    });
    expect(phone.statusCode).toBe(403);
    expect(phone.json().error).toBe(PHONE_REFUSED);

    // Once the client has used the link, the address is theirs alone.
    const used = await inject('POST', '/api/pay/set_WelcomePassword', null, {
      token: staffToken,
      password: 'Blue heron over the bay 42',
    });
    expect(used.statusCode, used.body).toBe(200);
    const after = await inject('POST', `/api/pay/update_Client?id=${actId}`, alvarez, {
      ...(await profileOf(alvarez, actId)),
      email: 'iris.again@example.com',
    });
    expect(after.statusCode).toBe(403);
    expect(after.json().error).toBe(EMAIL_REFUSED);
    expect((await rowOf(actId)).email).toBe('iris.w@example.com');
    expect(await t.mailTo('iris.again@example.com')).toEqual([]);
  });
});

describe('a password reset', () => {
  it("signs the account's other sessions out and tells the address of record", async () => {
    const other = await t.signIn('ACT10005');
    const details = { email: 'lucia.moreno@example.com', firstName: 'Lucia', dateOfBirth: '07/21/1984' };
    expect((await requestCode(details)).statusCode).toBe(200);
    const code = await vi.waitFor(async () => {
      const [latest] = await codesTo('lucia.moreno@example.com');
      expect(latest).toBeDefined();
      return latest as string;
    });
    const reset = await inject('POST', '/api/pay/update_Password', null, {
      ...details,
      OneTimePassword: code,
      UpdatedPassword: 'lucia chooses a long passphrase',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await inject('GET', '/api/pay/get_Client', other)).statusCode).toBe(401);
    const [notice] = await t.mailTo('lucia.moreno@example.com');
    expect(notice?.subject).toBe('Client Portal: your password was changed');
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/pay/login',
      payload: { username: 'ACT10005', password: 'lucia chooses a long passphrase' },
    });
    expect(cookieOf(signedIn)).toMatch(/=/);
  });
});
