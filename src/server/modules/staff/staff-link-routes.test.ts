import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentLinkMessages, staffMessages } from '../../../domain/staff';
import { auditEvents, clients, smsMessages } from '../../db/schema';
import { DEMO_STAFF_EMAIL } from '../../db/seed';
import { staffSession } from '../../testing/staff-fixtures';
import { cookieOf, startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let admin: string;
const logLines: string[] = [];

async function post(url: string, cookie: string | undefined, payload: object, ip = '10.9.8.1') {
  return t.app.inject({ method: 'POST', url, payload, remoteAddress: ip, headers: cookie ? { cookie } : {} });
}

/** The link in a text (e-mail or SMS). */
function linkIn(text: string): URL {
  const match = text.match(/https?:\/\/\S+\?t=[\w.-]+/);
  expect(match, text).not.toBeNull();
  return new URL(match?.[0] as string);
}

function verifyByLink(token: string) {
  return post('/api/pay/set_verifyClientData', undefined, { mode: 'link', t: token }, '10.3.9.9');
}

beforeAll(async () => {
  t = await startTestApp(
    { RATE_LIMIT_LOGIN_PER_IP: '1000', LOG_LEVEL: 'info' },
    {
      logStream: { write: (line) => logLines.push(line) },
    },
  );
  admin = await staffSession(t);
});
afterAll(async () => t?.close());

describe('POST /api/staff/send_payment_link', () => {
  it('e-mails John a signed link that opens the e-mail variant of the public page identified, audited, the link never logged', async () => {
    const response = await post('/api/staff/send_payment_link', admin, {
      clientId: 'ACT10002',
      channel: 'email',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ channel: 'email', sentTo: 'j***@example.com' });
    expect(response.body).not.toContain('t=');
    const [mail] = await t.mailTo('john.roe@example.com');
    expect(mail?.subject).toBe(paymentLinkMessages.emailSubject);
    const link = linkIn(mail?.textBody ?? '');
    expect(link.pathname).toBe('/updatepaymentinformation');
    const token = link.searchParams.get('t') as string;
    const verified = await verifyByLink(token);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().amountDue.overdueCents).toBe(67962);

    const [john] = await t.db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.clientActId, 'ACT10002'));
    const [row] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'send-payment-link'))
      .orderBy(desc(auditEvents.at));
    expect(row?.clientId).toBe(john?.id);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(logLines.join('\n')).not.toContain(token);
  });

  it('the link expires after 7 days', async () => {
    await post('/api/staff/send_payment_link', admin, { clientId: 'ACT10003', channel: 'email' });
    const [mail] = await t.mailTo('ana.lima@example.com');
    const token = linkIn(mail?.textBody ?? '').searchParams.get('t') as string;
    t.clock.advance(6 * 24 * 3600_000);
    expect((await verifyByLink(token)).statusCode).toBe(200);
    t.clock.advance(24 * 3600_000 + 60_000);
    expect((await verifyByLink(token)).statusCode).toBe(400);
    admin = await staffSession(t);
  });

  it('texts the link to the offline SMS outbox; it opens the text-message variant', async () => {
    const response = await post('/api/staff/send_payment_link', admin, {
      clientId: 'ACT10002',
      channel: 'sms',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().sentTo).toMatch(/^\*\*\*-\*\*\*-\d{4}$/);
    const [sms] = await t.db.select().from(smsMessages).orderBy(desc(smsMessages.createdAt)).limit(1);
    expect(sms?.status).toBe('sent');
    expect(sms?.recipient).toMatch(/^\+1\d{10}$/);
    const link = linkIn(sms?.body ?? '');
    expect(link.pathname).toBe('/updatepaymentinfo');
    expect((await verifyByLink(link.searchParams.get('t') as string)).statusCode).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: '/dev/sms-outbox' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(link.pathname);
  });

  it('at most 5 links per client per hour, whatever the channel', async () => {
    t.clock.advance(3600_000);
    admin = await staffSession(t);
    for (let i = 0; i < 5; i += 1) {
      const ok = await post('/api/staff/send_payment_link', admin, {
        clientId: 'ACT10004',
        channel: i % 2 ? 'sms' : 'email',
      });
      expect(ok.statusCode, ok.body).toBe(200);
    }
    const sixth = await post('/api/staff/send_payment_link', admin, {
      clientId: 'ACT10004',
      channel: 'email',
    });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toBe(paymentLinkMessages.tooMany);
    // Another client is not held back.
    expect(
      (await post('/api/staff/send_payment_link', admin, { clientId: 'ACT10001', channel: 'email' }))
        .statusCode,
    ).toBe(200);
  });

  it('an unknown client is 404; a client session gets 404; without a session 401 or 404', async () => {
    expect(
      (await post('/api/staff/send_payment_link', admin, { clientId: 'ACT99999', channel: 'email' }))
        .statusCode,
    ).toBe(404);
    const client = await t.signIn('ACT10001');
    const asClient = await post('/api/staff/send_payment_link', client, {
      clientId: 'ACT10001',
      channel: 'email',
    });
    expect(asClient.statusCode).toBe(404);
    const none = await post('/api/staff/send_payment_link', undefined, {
      clientId: 'ACT10001',
      channel: 'email',
    });
    expect([401, 404]).toContain(none.statusCode);
    const bad = await post('/api/staff/send_payment_link', admin, { clientId: 'ACT10001', channel: 'fax' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /api/staff/audit_search filters', () => {
  async function search(query: string) {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/staff/audit_search?${query}`,
      remoteAddress: '10.9.8.1',
      headers: { cookie: admin },
    });
    return response;
  }

  it('by Client ID, action, actor and a date range, all together', async () => {
    const today = t.clock.now().toISOString().slice(0, 10);
    const found = await search(
      `clientId=act10004&action=send-payment-link&actor=staff@&from=${today}&to=${today}`,
    );
    expect(found.statusCode, found.body).toBe(200);
    const events = found.json<{ events: Array<{ clientACTId: string; action: string; actor: string }> }>()
      .events;
    expect(events).toHaveLength(5);
    expect(events.every((e) => e.clientACTId === 'ACT10004' && e.action === 'send-payment-link')).toBe(true);
    expect(events[0]?.actor).toBe(DEMO_STAFF_EMAIL);
    const tomorrow = new Date(t.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    expect((await search(`clientId=ACT10004&from=${tomorrow}`)).json().events).toHaveLength(0);
    expect((await search(`clientId=ACT10004&actor=PHY20001`)).json().events).toHaveLength(0);
    expect((await search('from=2026-13-45')).statusCode).toBe(400);
  });

  it('refuses a day that is not on the calendar or outside 2000-2100 with 400 and a message, never 500', async () => {
    for (const [query, message] of [
      ['to=9999-12-31', 'Please enter a date from 01/01/2000 to 12/31/2100'],
      ['from=0000-01-01', 'Please enter a valid date'],
      ['from=1999-12-31', 'Please enter a date from 01/01/2000 to 12/31/2100'],
      ['from=12/31/1999', 'Please enter a date from 01/01/2000 to 12/31/2100'],
      ['to=2026-02-30', 'Please enter a valid date'],
      ['to=02/30/2026', 'Please enter a valid date'],
      ['to=2027-02-29', 'Please enter a valid date'],
      ['from=2026-2-3', 'Please enter a date as MM/DD/YYYY'],
      ['from=2/3/2026', 'Please enter a date as MM/DD/YYYY'],
    ] as const) {
      const answer = await search(query);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.body, query).toContain(message);
    }
    // Typed as every back-office date (MM/DD/YYYY), or YYYY-MM-DD.
    for (const query of [
      'from=2000-01-01',
      'to=2100-12-31',
      'to=2028-02-29',
      'from=01/01/2000',
      'to=02/29/2028',
    ]) {
      expect((await search(query)).statusCode, query).toBe(200);
    }
  });
});

describe('forced initial password change', () => {
  it('a member an admin created sets their own password before anything else answers, by the client rules', async () => {
    const created = await post('/api/staff/create_staff', admin, {
      email: 'first.day@example.com',
      name: 'First Day',
      level: 'staff',
    });
    expect(created.statusCode, created.body).toBe(200);
    const initial = created.json<{ initialPassword: string }>().initialPassword;
    const login = await post('/api/staff/login', undefined, {
      email: 'first.day@example.com',
      password: initial,
    });
    expect(login.json()).toEqual({ next: 'password' });
    const half = cookieOf(login);
    const get = (url: string) =>
      t.app.inject({ method: 'GET', url, remoteAddress: '10.9.8.1', headers: { cookie: half } });
    expect((await get('/api/staff/session')).json()).toEqual({ stage: 'second-factor', next: 'password' });
    // Nothing else answers: not the enrolment, not a code, not the back office.
    expect((await get('/api/staff/enrolment')).statusCode).toBe(404);
    expect((await post('/api/staff/enrol_totp', half, { code: '123456' })).statusCode).toBe(404);
    expect((await post('/api/staff/verify_totp', half, { code: '123456' })).statusCode).toBe(404);
    expect((await get('/api/staff/clients?q=John')).statusCode).toBe(404);
    // The client password rules, and not the initial one again.
    const short = await post('/api/staff/change_initial_password', half, { password: 'short' });
    expect(short.statusCode).toBe(400);
    const same = await post('/api/staff/change_initial_password', half, { password: initial });
    expect(same.statusCode).toBe(400);
    expect(same.json().error).toBe(staffMessages.samePassword);
    const changed = await post('/api/staff/change_initial_password', half, {
      password: 'My own passphrase 2026',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ next: 'enrol' });
    expect((await get('/api/staff/enrolment')).statusCode).toBe(200);
    // Once only; the initial password no longer signs in, the new one does.
    expect(
      (await post('/api/staff/change_initial_password', half, { password: 'Another one 2026!' })).statusCode,
    ).toBe(404);
    expect(
      (await post('/api/staff/login', undefined, { email: 'first.day@example.com', password: initial }))
        .statusCode,
    ).toBe(401);
    const again = await post('/api/staff/login', undefined, {
      email: 'first.day@example.com',
      password: 'My own passphrase 2026',
    });
    expect(again.json()).toEqual({ next: 'enrol' });
  });
});
