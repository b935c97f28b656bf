import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authMessages, authPolicy } from '../../../domain/auth';
import { passwordResetCodes, sessions } from '../../db/schema';
import { DEMO_CLIENT_PASSWORD } from '../../db/seed';
import { sha256Hex } from '../../lib/secrets';
import { cookieOf, startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', RATE_LIMIT_RECOVERY_PER_IP: '1000' });
});
afterAll(() => t.close());

function login(username: string, password: string, ip = '10.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/login',
    payload: { username, password },
    remoteAddress: ip,
  });
}

describe('POST /api/pay/login', () => {
  it('signs in with the right Client ID and password and sets an HttpOnly session cookie', async () => {
    const response = await login('ACT10001', DEMO_CLIENT_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({
      login: true,
      clientACTId: 'ACT10001',
      clientLastName: 'Doe',
    });
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
  });

  it('accepts the Client ID in any letter case', async () => {
    expect((await login('act10001', DEMO_CLIENT_PASSWORD)).statusCode).toBe(200);
  });

  it('answers the spec message for empty fields', async () => {
    const response = await login('', '');
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      username: authMessages.clientIdRequired,
      password: authMessages.passwordRequired,
    });
  });

  it('answers a wrong password and an unknown Client ID identically', async () => {
    const wrong = await login('ACT10002', 'not-the-password');
    const unknown = await login('ACT99999', 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: authMessages.loginFailed, code: 'INVALID_CREDENTIALS' });
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('issues a new session id at every sign-in and ends the one the browser had', async () => {
    const first = await t.signIn('ACT10001');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/login',
      payload: { username: 'ACT10001', password: DEMO_CLIENT_PASSWORD },
      headers: { cookie: first },
    });
    const second = cookieOf(response);
    expect(second).not.toBe(first);
    const old = await t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie: first } });
    expect(old.statusCode).toBe(401);
  });

  it('stores only a hash of the session token', async () => {
    const cookie = await t.signIn('ACT10001');
    const token = cookie.split('=')[1] as string;
    const rows = await t.db.select({ id: sessions.id }).from(sessions);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.id === token)).toBe(false);
    expect(token.length).toBeGreaterThanOrEqual(43);
  });
});

describe('lockout after 10 failed sign-ins', () => {
  it('locks the Client ID for 15 minutes, refusing even the right password with the same message', async () => {
    for (let i = 0; i < authPolicy.lockoutFailures; i++) {
      expect((await login('ACT10002', `wrong-${i}`, `10.9.0.${i}`)).statusCode).toBe(401);
    }
    const locked = await login('ACT10002', DEMO_CLIENT_PASSWORD, '10.9.1.1');
    expect(locked.statusCode).toBe(401);
    expect(locked.json().error).toBe(authMessages.loginFailed);

    const mails = await t.mailTo('john.roe@example.com');
    expect(mails[0]?.subject).toMatch(/locked/i);

    t.clock.advance(authPolicy.lockoutMs - 1000);
    expect((await login('ACT10002', DEMO_CLIENT_PASSWORD, '10.9.1.1')).statusCode).toBe(401);
    t.clock.advance(2000);
    expect((await login('ACT10002', DEMO_CLIENT_PASSWORD, '10.9.1.1')).statusCode).toBe(200);
  });

  it('judges at most 10 of 59 wrong passwords sent at once: one lock, one notice, and the right password refused', async () => {
    const burst = await Promise.all(
      Array.from({ length: 59 }, (_, i) => login('ACT10003', `wrong-burst-${i}`, `10.7.${i}.1`)),
    );
    expect(burst.every((r) => r.statusCode === 401)).toBe(true);
    const notices = (await t.mailTo('ana.lima@example.com')).filter((m) => /locked/i.test(m.subject));
    expect(notices).toHaveLength(1);
    const right = await login('ACT10003', DEMO_CLIENT_PASSWORD, '10.7.99.1');
    expect(right.statusCode).toBe(401);
    expect(right.json().error).toBe('Client ID or Password not matched, Please try again.');
  });

  it('locks an unknown Client ID the same way, so a lock reveals nothing', async () => {
    for (let i = 0; i < authPolicy.lockoutFailures + 1; i++) {
      const response = await login('ACT55555', 'whatever', '10.8.0.1');
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe(authMessages.loginFailed);
    }
  });
});

describe('per-IP rate limit', () => {
  it('answers 429 with Retry-After once an address exceeds its sign-in attempts', async () => {
    const limited = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '3' });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await limited.app.inject({
          method: 'POST',
          url: '/api/pay/login',
          payload: { username: `ACT0000${i}`, password: 'x' },
          remoteAddress: '10.7.7.7',
        });
        expect(r.statusCode).toBe(401);
      }
      const blocked = await limited.app.inject({
        method: 'POST',
        url: '/api/pay/login',
        payload: { username: 'ACT10001', password: DEMO_CLIENT_PASSWORD },
        remoteAddress: '10.7.7.7',
      });
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      const elsewhere = await limited.app.inject({
        method: 'POST',
        url: '/api/pay/login',
        payload: { username: 'ACT10001', password: DEMO_CLIENT_PASSWORD },
        remoteAddress: '10.7.7.8',
      });
      expect(elsewhere.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('sessions', () => {
  it('refuses portal calls without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/pay/get_Client' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHENTICATED');
  });

  it('keeps a session alive with activity and ends it after 5 minutes idle', async () => {
    const cookie = await t.signIn('ACT10001');
    const get = () => t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie } });
    t.clock.advance(authPolicy.idleTimeoutMs - 1000);
    expect((await get()).statusCode).toBe(200);
    t.clock.advance(authPolicy.idleTimeoutMs - 1000);
    expect((await get()).statusCode).toBe(200);
    t.clock.advance(authPolicy.idleTimeoutMs + 1000);
    expect((await get()).statusCode).toBe(401);
    const id = sha256Hex(cookie.split('=')[1] as string);
    expect(await t.db.select().from(sessions).where(eq(sessions.id, id))).toEqual([]);
  });

  it('ends a session sooner on the server when the idle sign-out is set shorter (IDLE_SIGN_OUT_SECONDS)', async () => {
    const short = await startTestApp({ IDLE_SIGN_OUT_SECONDS: '20' });
    try {
      const cookie = await short.signIn('ACT10001');
      const ping = () => short.app.inject({ method: 'POST', url: '/api/pay/keepalive', headers: { cookie } });
      short.clock.advance(19_000);
      expect((await ping()).statusCode).toBe(200);
      short.clock.advance(19_000);
      expect((await ping()).statusCode).toBe(200);
      short.clock.advance(21_000);
      expect((await ping()).statusCode).toBe(401);
      // The page learns it with the session, to warn and sign out when the server would.
      const again = await short.signIn('ACT10001');
      const probe = await short.app.inject({
        method: 'GET',
        url: '/api/pay/session',
        headers: { cookie: again },
      });
      expect(probe.json()).toMatchObject({ signedIn: true, idleTimeoutMs: 20_000 });
    } finally {
      await short.close();
    }
  });

  it('keeps a session alive while the person is active in a page without other calls', async () => {
    const cookie = await t.signIn('ACT10001');
    for (let minute = 0; minute < 8; minute++) {
      t.clock.advance(60_000);
      const ping = await t.app.inject({ method: 'POST', url: '/api/pay/keepalive', headers: { cookie } });
      expect(ping.statusCode).toBe(200);
    }
    const save = await t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie } });
    expect(save.statusCode).toBe(200);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/pay/keepalive' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('does not extend a session when only the session probe is called', async () => {
    const cookie = await t.signIn('ACT10001');
    t.clock.advance(authPolicy.idleTimeoutMs - 10_000);
    const probe = await t.app.inject({ method: 'GET', url: '/api/pay/session', headers: { cookie } });
    expect(probe.json()).toMatchObject({ signedIn: true, clientACTId: 'ACT10001' });
    t.clock.advance(20_000);
    const after = await t.app.inject({ method: 'GET', url: '/api/pay/session', headers: { cookie } });
    expect(after.json()).toEqual({ signedIn: false });
  });

  it('ends every session after 12 hours, however active', async () => {
    const cookie = await t.signIn('ACT10001');
    for (let elapsed = 0; elapsed < authPolicy.absoluteSessionMs - 240_000; elapsed += 240_000) {
      t.clock.advance(240_000);
      const r = await t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie } });
      expect(r.statusCode).toBe(200);
    }
    t.clock.advance(240_000);
    const r = await t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie } });
    expect(r.statusCode).toBe(401);
  });

  it('honours a session ended by another server process within a second', async () => {
    const cookie = await t.signIn('ACT10001');
    const get = () => t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie } });
    expect((await get()).statusCode).toBe(200);
    await t.db.delete(sessions).where(eq(sessions.id, sha256Hex(cookie.split('=')[1] as string)));
    t.clock.advance(1001);
    expect((await get()).statusCode).toBe(401);
  });

  it('signs out: the old cookie no longer works', async () => {
    const cookie = await t.signIn('ACT10001');
    const out = await t.app.inject({ method: 'POST', url: '/api/pay/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/portal_session=;/);
    const r = await t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie } });
    expect(r.statusCode).toBe(401);
  });
});

describe('password recovery', () => {
  const jane = { email: 'jane.doe@example.com', firstName: 'Jane', dateOfBirth: '1975-03-14' };

  // Each case starts in a fresh hour, clear of the 3-codes-an-hour limit.
  beforeEach(() => t.clock.advance(60 * 60 * 1000));

  // The e-mail goes out after the answer: a case waits for the one its request sent.
  let codesBefore = 0;
  const codeMails = (atLeast = 0) =>
    vi.waitFor(async () => {
      const mails = (await t.mailTo(jane.email)).filter((m) => /one time password/.test(m.subject));
      expect(mails.length).toBeGreaterThanOrEqual(atLeast);
      return mails;
    });

  async function requestCode(details: Record<string, string> = jane, ip = '10.2.0.1') {
    codesBefore = (await codeMails()).length;
    return t.app.inject({ method: 'GET', url: '/api/pay/get_otp', query: details, remoteAddress: ip });
  }

  async function latestCode(): Promise<string> {
    const [mail] = await codeMails(codesBefore + 1);
    const code = /one time password is (\d{6})/.exec(mail?.textBody ?? '')?.[1];
    if (!code) throw new Error('no code in the latest e-mail');
    return code;
  }

  function reset(code: string, password: string, details: Record<string, string> = jane) {
    return t.app.inject({
      method: 'POST',
      url: '/api/pay/update_Password',
      payload: { ...details, OneTimePassword: code, UpdatedPassword: password },
      remoteAddress: '10.2.0.1',
    });
  }

  it('answers the same whether or not the details match, and never returns the code', async () => {
    // The unknown details first: they send no e-mail, so the count before the matching request holds.
    const unknown = await requestCode({ ...jane, firstName: 'Janet' });
    const matching = await requestCode();
    expect(matching.statusCode).toBe(200);
    expect(unknown.json()).toEqual(matching.json());
    expect(matching.json()).toEqual({ otpSent: true, message: authMessages.otpSent });
    const code = await latestCode();
    expect(matching.body).not.toContain(code);
  });

  it('refuses a code request made from another site (a link or an image sends no Origin), sending nothing', async () => {
    for (const url of ['/api/pay/get_otp', '/api/pay/get_physician_otp']) {
      for (const site of ['cross-site', 'same-site', 'none']) {
        const codesBefore = (await t.db.select().from(passwordResetCodes)).length;
        const refused = await t.app.inject({
          method: 'GET',
          url,
          query: url.endsWith('get_otp')
            ? jane
            : { physicianId: 'PHY20001', email: 'maria.alvarez@example.com' },
          headers: { 'sec-fetch-site': site },
          remoteAddress: '10.2.0.9',
        });
        expect(refused.statusCode, `${url} ${site}`).toBe(403);
        expect(refused.json()).toMatchObject({
          code: 'FORBIDDEN_ORIGIN',
          error: 'This request came from another site and was refused.',
        });
        expect((await t.db.select().from(passwordResetCodes)).length).toBe(codesBefore);
      }
    }
  });

  it("answers the portal's own pages: the browser's Sec-Fetch-Site: same-origin, or the web client's header", async () => {
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { 'x-portal-client': 'web' }]) {
      const before = (await codeMails()).length;
      const answer = await t.app.inject({
        method: 'GET',
        url: '/api/pay/get_otp',
        query: jane,
        headers,
        remoteAddress: '10.2.0.8',
      });
      expect(answer.statusCode, JSON.stringify(headers)).toBe(200);
      await codeMails(before + 1);
    }
  });

  it('stores the code hashed', async () => {
    await requestCode();
    const code = await latestCode();
    const rows = await t.db.select({ codeHash: passwordResetCodes.codeHash }).from(passwordResetCodes);
    expect(rows.every((r) => r.codeHash !== code && !r.codeHash.includes(code))).toBe(true);
  });

  it('refuses a future date of birth and empty fields with the spec messages', async () => {
    const response = await requestCode({ email: '', firstName: '', dateOfBirth: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      email: authMessages.emailRequired,
      firstName: authMessages.firstNameRequired,
      dateOfBirth: authMessages.dateOfBirthRequired,
    });
    const future = await requestCode({ ...jane, dateOfBirth: '2999-01-01' });
    expect(future.statusCode).toBe(400);
  });

  it('takes the date of birth as the spec sends it, MM/DD/YYYY, as well as YYYY-MM-DD', async () => {
    const spec = { ...jane, dateOfBirth: '03/14/1975' };
    // Counted, not taken as the newest: on the test's still clock the code's e-mail and the notice
    // can carry the same time.
    const notices = async () =>
      (await t.mailTo(jane.email)).filter((m) => /password was changed/.test(m.subject)).length;
    const noticesBefore = await notices();
    const response = await requestCode(spec);
    expect(response.statusCode).toBe(200);
    const code = await latestCode();
    // Reset to the demo password, so the cases after this one still sign in with it.
    const done = await reset(code, DEMO_CLIENT_PASSWORD, spec);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().message).toBe(authMessages.passwordUpdated);
    expect(await notices()).toBe(noticesBefore + 1);

    for (const dateOfBirth of ['14/03/1975', '3/14/1975', '02/30/1975', '1975-3-14']) {
      const refused = await requestCode({ ...jane, dateOfBirth });
      expect(refused.statusCode, dateOfBirth).toBe(400);
      expect(refused.json().fields, dateOfBirth).toEqual({ dateOfBirth: authMessages.dateOfBirthRequired });
    }
  });

  it('resets the password with the code, once, and ends the client’s other sessions', async () => {
    const otherSession = await t.signIn('ACT10001');
    await requestCode();
    const code = await latestCode();
    const response = await reset(code, 'a brand new long passphrase');
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(authMessages.passwordUpdated);

    const old = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_Client',
      headers: { cookie: otherSession },
    });
    expect(old.statusCode).toBe(401);
    expect((await login('ACT10001', DEMO_CLIENT_PASSWORD)).statusCode).toBe(401);
    expect((await login('ACT10001', 'a brand new long passphrase')).statusCode).toBe(200);

    const again = await reset(code, 'another long passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('INVALID_CODE');
    const notices = async () =>
      (await t.mailTo(jane.email)).filter((m) => /password was changed/.test(m.subject));
    await vi.waitFor(async () => expect(await notices()).not.toHaveLength(0));
  });

  it('refuses a wrong code, and after 5 tries refuses even the right one', async () => {
    await requestCode();
    const code = await latestCode();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < authPolicy.otpMaxTries; i++) {
      const r = await reset(wrong, 'yet another long passphrase');
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(authMessages.otpInvalid);
    }
    expect((await reset(code, 'yet another long passphrase')).statusCode).toBe(400);
  });

  it('refuses an expired code after 10 minutes', async () => {
    await requestCode();
    const code = await latestCode();
    t.clock.advance(authPolicy.otpValidityMs + 1000);
    const r = await reset(code, 'expired code passphrase');
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('INVALID_CODE');
  });

  it('keeps only the newest code valid', async () => {
    await requestCode();
    const first = await latestCode();
    await requestCode();
    const second = await latestCode();
    if (first !== second) expect((await reset(first, 'first code passphrase')).statusCode).toBe(400);
    expect((await reset(second, 'second code passphrase')).statusCode).toBe(200);
  });

  it('refuses short and common new passwords with a clear message, before using up the code', async () => {
    await requestCode();
    const code = await latestCode();
    const short = await reset(code, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.UpdatedPassword).toBe(authMessages.passwordTooShort);
    const common = await reset(code, 'Password123456!');
    expect(common.statusCode).toBe(400);
    expect(common.json().fields.UpdatedPassword).toBe(authMessages.passwordTooCommon);
    expect((await reset(code, 'a sound and long passphrase')).statusCode).toBe(200);
  });

  it('sends at most 3 codes an hour to one account', async () => {
    const before = (await codeMails()).length;
    for (let i = 0; i < 5; i++) expect((await requestCode()).statusCode).toBe(200);
    const mails = await codeMails(before + authPolicy.otpPerHourPerAccount);
    expect(mails.length - before).toBe(authPolicy.otpPerHourPerAccount);
  });
});
