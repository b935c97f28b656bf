import { eq, gte } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, clients, staffAccounts, staffRecoveryCodes } from '../../db/schema';
import { DEMO_STAFF_EMAIL, DEMO_STAFF_PASSWORD, DEMO_STAFF_TOTP_SECRET } from '../../db/seed';
import { storeDocument } from '../../lib/document-store';
import { staffSession } from '../../testing/staff-fixtures';
import { cookieOf, startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let janeId: string;
let janeDocument: string;
const report = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

/** The code an authenticator would show now (the test's clock), or `offsetSeconds` from now. */
function codeAt(secret: string, offsetSeconds = 0) {
  return generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + offsetSeconds });
}

/** Moves the clock to the start of the next 30-second step, so a fresh code is not the last one used. */
function nextStep() {
  const ms = t.clock.now().getTime();
  t.clock.advance(30_000 - (ms % 30_000) + 1_000);
}

async function post(url: string, cookie: string | undefined, payload: object, ip = '10.9.9.9') {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: ip,
    headers: cookie ? { cookie } : {},
  });
}

async function get(url: string, cookie?: string, ip = '10.9.9.9') {
  return t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: cookie ? { cookie } : {} });
}

/** Step 1: the half session's cookie. */
async function halfSignIn(email = DEMO_STAFF_EMAIL, password = DEMO_STAFF_PASSWORD) {
  const response = await post('/api/staff/login', undefined, { email, password });
  expect(response.statusCode, response.body).toBe(200);
  return cookieOf(response);
}

/** An admin creates an account; the member signs in and enrols. Returns the secret, codes and session. */
async function newEnrolledMember(admin: string, email: string, level: 'staff' | 'admin' = 'staff') {
  const created = await post('/api/staff/create_staff', admin, { email, name: 'New Member', level });
  expect(created.statusCode, created.body).toBe(200);
  const initial = created.json<{ initialPassword: string }>().initialPassword;
  const half = await halfSignIn(email, initial);
  const password = `${initial}-own`;
  const changed = await post('/api/staff/change_initial_password', half, { password });
  expect(changed.statusCode, changed.body).toBe(200);
  expect(changed.json()).toEqual({ next: 'enrol' });
  const offer = await get('/api/staff/enrolment', half);
  expect(offer.statusCode, offer.body).toBe(200);
  const { secret, qrSvg } = offer.json<{ secret: string; qrSvg: string }>();
  expect(qrSvg).toContain('<svg');
  const enrolled = await post('/api/staff/enrol_totp', half, { code: await codeAt(secret) });
  expect(enrolled.statusCode, enrolled.body).toBe(200);
  const { recoveryCodes } = enrolled.json<{ recoveryCodes: string[] }>();
  const [row] = await t.db.select().from(staffAccounts).where(eq(staffAccounts.email, email));
  return { id: row?.id as string, password, secret, recoveryCodes, session: cookieOf(enrolled) };
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
  const [jane] = await t.db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.clientActId, 'ACT10001'));
  janeId = jane?.id as string;
  janeDocument = (
    await storeDocument(t.db, t.app.deps.documentsKey, {
      clientId: janeId,
      kind: 'signed_agreement',
      fileName: 'consent.pdf',
      contentType: 'application/pdf',
      content: report,
      now: t.clock.now(),
    })
  ).id;
});
afterAll(() => t.close());

describe('staff sign-in', () => {
  it('answers nothing staff-only until the second factor passes', async () => {
    const half = await halfSignIn();
    for (const url of ['/api/staff/clients?q=Doe', `/api/staff/client?id=${janeId}`, '/api/staff/staff']) {
      expect((await get(url, half)).statusCode, url).toBe(404);
    }
    expect(
      (await post('/api/staff/create_staff', half, { email: 'x@example.com', name: 'X', level: 'admin' }))
        .statusCode,
    ).toBe(404);
    const session = await get('/api/staff/session', half);
    expect(session.json()).toEqual({ stage: 'second-factor', next: 'totp' });
  });

  it('refuses a wrong code, a code already used (same time step) and an old code', async () => {
    nextStep();
    const half = await halfSignIn();
    expect((await post('/api/staff/verify_totp', half, { code: '000000' })).statusCode).toBe(401);
    const old = await codeAt(DEMO_STAFF_TOTP_SECRET, -120);
    const oldAnswer = await post('/api/staff/verify_totp', half, { code: old });
    expect(oldAnswer.statusCode).toBe(401);

    const code = await codeAt(DEMO_STAFF_TOTP_SECRET);
    const passed = await post('/api/staff/verify_totp', half, { code });
    expect(passed.statusCode).toBe(200);
    const whole = cookieOf(passed);
    expect(whole).not.toBe(half);
    expect((await get('/api/staff/clients?q=Doe', whole)).statusCode).toBe(200);
    // The half session's id is gone: the new one is a new id.
    expect((await get('/api/staff/session', half)).statusCode).toBe(401);

    const again = await halfSignIn();
    const replay = await post('/api/staff/verify_totp', again, { code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'INVALID_SIGN_IN_CODE' });
  });

  it('locks the account after 10 wrong codes, ending the half session, and then refuses even the right password', async () => {
    const admin = await staffSession(t);
    const member = await newEnrolledMember(admin, 'guessing@example.com');
    const half = await halfSignIn('guessing@example.com', member.password);
    for (let i = 0; i < 9; i++) {
      expect((await post('/api/staff/verify_totp', half, { code: '000000' })).statusCode).toBe(401);
    }
    expect((await get('/api/staff/session', half)).statusCode).toBe(200);
    expect((await post('/api/staff/verify_totp', half, { code: '000000' })).statusCode).toBe(401);
    expect((await get('/api/staff/session', half)).statusCode).toBe(401);
    const locked = await post('/api/staff/login', undefined, {
      email: 'guessing@example.com',
      password: member.password,
    });
    expect(locked.statusCode).toBe(401);
    t.clock.advance(15 * 60_000 + 1_000);
    await halfSignIn('guessing@example.com', member.password);
  });

  it('judges at most 10 codes of a burst sent at once, and then refuses the right code (locked)', async () => {
    const admin = await staffSession(t);
    const member = await newEnrolledMember(admin, 'burst@example.com');
    nextStep();
    const half = await halfSignIn('burst@example.com', member.password);
    const wrong = await Promise.all(
      Array.from({ length: 59 }, (_, i) =>
        post('/api/staff/verify_totp', half, { code: String(100000 + i * 7919).slice(0, 6) }),
      ),
    );
    expect(wrong.every((r) => r.statusCode === 401)).toBe(true);
    const judged = wrong.filter((r) => r.json<{ code: string }>().code === 'INVALID_SIGN_IN_CODE');
    expect(judged.length).toBeLessThanOrEqual(10);
    expect(judged.length).toBeGreaterThan(0);
    // The rest were refused unjudged: the account locked, or the half session already ended.
    for (const r of wrong.filter((r) => r.json<{ code: string }>().code !== 'INVALID_SIGN_IN_CODE')) {
      expect(r.json<{ code: string }>().code).toBe('UNAUTHENTICATED');
    }

    const right = await post('/api/staff/verify_totp', half, { code: await codeAt(member.secret) });
    expect(right.statusCode).toBe(401);
    expect(right.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const again = await post('/api/staff/login', undefined, {
      email: 'burst@example.com',
      password: member.password,
    });
    expect(again.statusCode).toBe(401);
    t.clock.advance(15 * 60_000 + 1_000);
    const after = await halfSignIn('burst@example.com', member.password);
    expect(
      (await post('/api/staff/verify_totp', after, { code: await codeAt(member.secret) })).statusCode,
    ).toBe(200);
  });

  it('judges at most 10 codes in 15 minutes even when the password is entered again between them', async () => {
    const admin = await staffSession(t);
    const member = await newEnrolledMember(admin, 'relogin@example.com');
    nextStep();
    let judged = 0;
    for (let round = 0; round < 3; round++) {
      const half = await halfSignIn('relogin@example.com', member.password);
      for (let i = 0; i < 6; i++) {
        const answer = await post('/api/staff/verify_totp', half, { code: '000000' });
        expect(answer.statusCode).toBe(401);
        if (answer.json<{ code: string }>().code === 'INVALID_SIGN_IN_CODE') judged++;
      }
    }
    expect(judged).toBe(10);
    t.clock.advance(15 * 60_000 + 1_000);
  });

  it('enrols a new member at first sign-in and gives ten recovery codes, each good once', async () => {
    const admin = await staffSession(t);
    const member = await newEnrolledMember(admin, 'recovery@example.com');
    expect(member.recoveryCodes).toHaveLength(10);
    const stored = await t.db
      .select()
      .from(staffRecoveryCodes)
      .where(eq(staffRecoveryCodes.staffId, member.id));
    expect(stored).toHaveLength(10);
    // Only their keyed hashes are kept; the secret is sealed.
    expect(stored.map((r) => r.codeHash)).not.toContain(member.recoveryCodes[0]);
    const [row] = await t.db.select().from(staffAccounts).where(eq(staffAccounts.id, member.id));
    expect(row?.totpSecretSealed).not.toContain(member.secret);

    const first = member.recoveryCodes[0] as string;
    const half = await halfSignIn('recovery@example.com', member.password);
    const used = await post('/api/staff/verify_recovery_code', half, { code: first.toUpperCase() });
    expect(used.statusCode).toBe(200);
    expect((await get('/api/staff/clients?q=Doe', cookieOf(used))).statusCode).toBe(200);

    const half2 = await halfSignIn('recovery@example.com', member.password);
    expect((await post('/api/staff/verify_recovery_code', half2, { code: first })).statusCode).toBe(401);
    const second = await post('/api/staff/verify_recovery_code', half2, { code: member.recoveryCodes[1] });
    expect(second.statusCode).toBe(200);
  });

  it('ends the sessions of a disabled account at once, and refuses its sign-in', async () => {
    const admin = await staffSession(t);
    const member = await newEnrolledMember(admin, 'leaving@example.com');
    expect((await get('/api/staff/clients?q=Doe', member.session)).statusCode).toBe(200);
    const disabled = await post('/api/staff/disable_staff', admin, { id: member.id });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect((await get('/api/staff/clients?q=Doe', member.session)).statusCode).toBe(401);
    const again = await post('/api/staff/login', undefined, {
      email: 'leaving@example.com',
      password: member.password,
    });
    expect(again.statusCode).toBe(401);
  });

  it('does not let a staff member do an admin action (404, as for a route that is not theirs)', async () => {
    const admin = await staffSession(t);
    const member = await newEnrolledMember(admin, 'plain@example.com', 'staff');
    const create = await post('/api/staff/create_staff', member.session, {
      email: 'sneaky@example.com',
      name: 'Sneaky',
      level: 'admin',
    });
    expect(create.statusCode).toBe(404);
    expect((await post('/api/staff/disable_staff', member.session, { id: member.id })).statusCode).toBe(404);
    expect((await get('/api/staff/audit_search', member.session)).statusCode).toBe(404);
    expect((await get('/api/staff/staff', member.session)).statusCode).toBe(404);
    // What staff may do, they do.
    expect((await get(`/api/staff/client?id=ACT10001`, member.session)).statusCode).toBe(200);
  });

  it('answers 404 to client and physician sessions on every staff call', async () => {
    const client = await t.signIn('ACT10001');
    const physician = await t.signInPhysician('PHY20001');
    for (const cookie of [client, physician]) {
      for (const url of [
        '/api/staff/session',
        '/api/staff/clients?q=Doe',
        `/api/staff/client?id=${janeId}`,
        `/api/staff/documents/${janeDocument}`,
        `/api/staff/audit?clientId=${janeId}`,
        '/api/staff/enrolment',
        '/api/staff/staff',
      ]) {
        expect((await get(url, cookie)).statusCode, url).toBe(404);
      }
      for (const url of [
        '/api/staff/verify_totp',
        '/api/staff/logout',
        '/api/staff/keepalive',
        '/api/staff/create_staff',
        '/api/staff/disable_staff',
      ]) {
        expect((await post(url, cookie, { code: '123456' })).statusCode, url).toBe(404);
      }
    }
  });

  it('ends a staff session after 15 minutes idle', async () => {
    const admin = await staffSession(t);
    t.clock.advance(14 * 60_000);
    expect((await get('/api/staff/clients?q=Doe', admin)).statusCode).toBe(200);
    t.clock.advance(15 * 60_000 + 1_000);
    expect((await get('/api/staff/clients?q=Doe', admin)).statusCode).toBe(401);
  });

  it('signs out', async () => {
    const admin = await staffSession(t);
    expect((await post('/api/staff/logout', admin, {})).statusCode).toBe(200);
    expect((await get('/api/staff/session', admin)).statusCode).toBe(401);
  });
});

describe('the audit trail', () => {
  it("records who read a client's record and document, as staff, client or physician, with the IP and nothing secret", async () => {
    const since = t.clock.now();
    const admin = await staffSession(t);
    expect((await get(`/api/staff/client?id=ACT10001`, admin, '10.7.7.1')).statusCode).toBe(200);
    t.clock.advance(1_000);
    const download = await get(`/api/staff/documents/${janeDocument}`, admin, '10.7.7.1');
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(report)).toBe(true);
    // A PDF opens in the browser's viewer for staff (the lab reports queue previews it in a tab).
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toMatch(/^inline; filename="[\w.-]+\.pdf"$/);

    t.clock.advance(1_000);
    const client = await t.signIn('ACT10001');
    expect((await get('/api/pay/get_Client', client, '10.7.7.2')).statusCode).toBe(200);
    t.clock.advance(1_000);
    const physician = await t.signInPhysician('PHY20001');
    expect((await get(`/api/pay/documents/${janeDocument}`, physician, '10.7.7.3')).statusCode).toBe(200);
    // A refused read is not a read.
    expect(
      (await get(`/api/pay/documents/${janeDocument}`, await t.signIn('ACT10002'), '10.7.7.4')).statusCode,
    ).toBe(404);

    const trail = await get(`/api/staff/audit?clientId=ACT10001`, admin);
    expect(trail.statusCode).toBe(200);
    const events = trail
      .json<{ events: Array<Record<string, unknown>> }>()
      .events.filter((e) => new Date(e.at as string) >= since);
    expect(events.map((e) => [e.actorRole, e.actor, e.action, e.route, e.ip])).toEqual([
      ['physician', 'PHY20001', 'read-document', 'GET /api/pay/documents/:id', '10.7.7.3'],
      ['client', 'ACT10001', 'read-client', 'GET /api/pay/get_Client', '10.7.7.2'],
      ['staff', DEMO_STAFF_EMAIL, 'read-document', 'GET /api/staff/documents/:id', '10.7.7.1'],
      ['staff', DEMO_STAFF_EMAIL, 'read-client', 'GET /api/staff/client', '10.7.7.1'],
    ]);
    expect(events.every((e) => e.clientACTId === 'ACT10001')).toBe(true);
    expect(events[0]?.documentId).toBe(janeDocument);

    const rows = await t.db.select().from(auditEvents).where(gte(auditEvents.at, since));
    // The four reads, and the admin's reading of the trail itself.
    expect(rows.filter((r) => r.action !== 'read-audit')).toHaveLength(4);
    expect(rows.filter((r) => r.action === 'read-audit').map((r) => r.clientId)).toEqual([janeId]);
    const stored = JSON.stringify(rows);
    for (const secret of [
      DEMO_STAFF_PASSWORD,
      'DemoClient#2026',
      admin.split('=')[1] as string,
      client.split('=')[1] as string,
    ]) {
      expect(stored).not.toContain(secret);
    }
    // Admins search the whole trail.
    const search = await get('/api/staff/audit_search?q=PHY20001', admin);
    expect(
      search.json<{ events: Array<{ at: string }> }>().events.filter((e) => new Date(e.at) >= since),
    ).toHaveLength(1);
  });

  it('refuses any UPDATE or DELETE of a recorded event, by the database itself', async () => {
    const [event] = await t.db.select().from(auditEvents).limit(1);
    expect(event).toBeDefined();
    const id = event?.id as string;
    await expect(
      t.db.update(auditEvents).set({ ip: '0.0.0.0' }).where(eq(auditEvents.id, id)),
    ).rejects.toThrow();
    await expect(t.db.delete(auditEvents).where(eq(auditEvents.id, id))).rejects.toThrow();
    const [after] = await t.db.select().from(auditEvents).where(eq(auditEvents.id, id));
    expect(after).toEqual(event);
  });
});
