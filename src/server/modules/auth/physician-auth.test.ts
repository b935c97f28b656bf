import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authMessages, authPolicy } from '../../../domain/auth';
import { loginFailures, passwordResetCodes, sessions } from '../../db/schema';
import { DEMO_CLIENT_PASSWORD, DEMO_PHYSICIAN_PASSWORD } from '../../db/seed';
import { sha256Hex } from '../../lib/secrets';
import { cookieOf, startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', RATE_LIMIT_RECOVERY_PER_IP: '1000' });
});
afterAll(() => t.close());

function physicianLogin(username: string, password: string, ip = '10.3.0.1', app = t.app) {
  return app.inject({
    method: 'POST',
    url: '/api/pay/physician_login',
    payload: { username, password },
    remoteAddress: ip,
  });
}

const session = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/pay/session', headers: { cookie } });

describe('POST /api/pay/physician_login', () => {
  it('signs a physician in with the right Physician ID and password: a physician session', async () => {
    const response = await physicianLogin('phy20001', DEMO_PHYSICIAN_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({
      login: true,
      physicianACTId: 'PHY20001',
      physicianLastName: 'Alvarez',
    });
    const cookie = cookieOf(response);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256Hex(cookie.split('=')[1] as string)));
    expect(row).toMatchObject({ role: 'physician', clientId: null, actingForClientId: null });
    expect((await session(cookie)).json()).toEqual({
      signedIn: true,
      role: 'physician',
      id: response.json().result.id,
      physicianACTId: 'PHY20001',
      physicianLastName: 'Alvarez',
      actingFor: null,
      idleTimeoutMs: authPolicy.idleTimeoutMs,
    });
  });

  it('answers a wrong password and an unknown Physician ID with the same 401 and message', async () => {
    const wrong = await physicianLogin('PHY20001', 'not-the-password');
    const unknown = await physicianLogin('PHY99999', 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: authMessages.physicianLoginFailed, code: 'INVALID_CREDENTIALS' });
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('does not sign a client in as a physician, nor a physician as a client', async () => {
    expect((await physicianLogin('ACT10001', DEMO_CLIENT_PASSWORD)).statusCode).toBe(401);
    const asClient = await t.app.inject({
      method: 'POST',
      url: '/api/pay/login',
      payload: { username: 'PHY20001', password: DEMO_PHYSICIAN_PASSWORD },
    });
    expect(asClient.statusCode).toBe(401);
  });

  it('answers the Physician ID message for empty fields', async () => {
    const response = await physicianLogin('', '');
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      username: authMessages.physicianIdRequired,
      password: authMessages.passwordRequired,
    });
  });

  it('locks the Physician ID for 15 minutes after 10 failures, under a key no Client ID can share', async () => {
    for (let i = 0; i < authPolicy.lockoutFailures; i++) {
      await physicianLogin('PHY20002', `wrong-${i}`, '10.3.1.1');
    }
    const locked = await physicianLogin('PHY20002', DEMO_PHYSICIAN_PASSWORD, '10.3.1.1');
    expect(locked.statusCode).toBe(401);
    expect(locked.json().error).toBe(authMessages.physicianLoginFailed);
    const [row] = await t.db
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.loginKey, 'physician:PHY20002'));
    expect(row?.lockedUntil).not.toBeNull();
    await vi.waitFor(async () => {
      const mails = await t.mailTo('david.chen@example.com');
      expect(mails[0]?.subject).toMatch(/Physician Portal: sign-in locked/);
    });
    t.clock.advance(authPolicy.lockoutMs + 1000);
    expect((await physicianLogin('PHY20002', DEMO_PHYSICIAN_PASSWORD, '10.3.1.1')).statusCode).toBe(200);
  });

  it('answers 429 once an address exceeds its sign-in attempts (the same limit as the clients)', async () => {
    const limited = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '3' });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await physicianLogin(`PHY0000${i}`, 'x', '10.7.7.7', limited.app)).statusCode).toBe(401);
      }
      const blocked = await physicianLogin('PHY20001', DEMO_PHYSICIAN_PASSWORD, '10.7.7.7', limited.app);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      const elsewhere = await physicianLogin('PHY20001', DEMO_PHYSICIAN_PASSWORD, '10.7.7.8', limited.app);
      expect(elsewhere.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('ends a physician session after 5 minutes idle, and signs out with /logout', async () => {
    const cookie = await t.signInPhysician();
    const get = () => t.app.inject({ method: 'GET', url: '/api/pay/get_Physician', headers: { cookie } });
    expect((await get()).statusCode).toBe(200);
    t.clock.advance(authPolicy.idleTimeoutMs + 1000);
    expect((await get()).statusCode).toBe(401);

    const other = await t.signInPhysician();
    const out = await t.app.inject({ method: 'POST', url: '/api/pay/logout', headers: { cookie: other } });
    expect(out.statusCode).toBe(200);
    expect((await session(other)).json()).toEqual({ signedIn: false });
  });

  it('ends a physician session after 12 hours, however active', async () => {
    const cookie = await t.signInPhysician();
    const get = () => t.app.inject({ method: 'GET', url: '/api/pay/get_Physician', headers: { cookie } });
    for (
      let elapsed = 0;
      elapsed < authPolicy.absoluteSessionMs;
      elapsed += authPolicy.idleTimeoutMs - 1000
    ) {
      t.clock.advance(authPolicy.idleTimeoutMs - 1000);
      await get();
    }
    expect((await get()).statusCode).toBe(401);
  });
});

describe('physician password recovery', () => {
  const maria = { physicianId: 'PHY20001', email: 'maria.alvarez@example.com' };
  const codeMails = () =>
    t.mailTo(maria.email).then((mails) => mails.filter((m) => /one time password/.test(m.subject)));

  const requestCode = (details: Record<string, string>) =>
    t.app.inject({
      method: 'GET',
      url: '/api/pay/get_physician_otp',
      query: details,
      remoteAddress: '10.3.2.1',
    });
  const reset = (code: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pay/update_physician_password',
      payload: { ...maria, OneTimePassword: code, UpdatedPassword: password },
      remoteAddress: '10.3.2.1',
    });

  it('e-mails a code to the address of record, answers the same for a miss, and resets once', async () => {
    t.clock.advance(60 * 60 * 1000);
    const before = (await codeMails()).length;
    const miss = await requestCode({ ...maria, email: 'someone.else@example.com' });
    const match = await requestCode(maria);
    expect(match.statusCode).toBe(200);
    expect(match.json()).toEqual({ otpSent: true, message: authMessages.otpSent });
    expect(miss.json()).toEqual(match.json());
    const [mail] = await vi.waitFor(async () => {
      const mails = await codeMails();
      expect(mails.length).toBe(before + 1);
      return mails;
    });
    expect(mail?.subject).toBe('Physician Portal: your one time password');
    const code = /one time password is (\d{6})/.exec(mail?.textBody ?? '')?.[1] as string;
    expect(match.body).not.toContain(code);

    const otherSession = await t.signInPhysician();
    const response = await reset(code, 'a new physician passphrase');
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(authMessages.passwordUpdated);
    const old = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_Physician',
      headers: { cookie: otherSession },
    });
    expect(old.statusCode).toBe(401);
    expect((await physicianLogin('PHY20001', DEMO_PHYSICIAN_PASSWORD)).statusCode).toBe(401);
    expect((await physicianLogin('PHY20001', 'a new physician passphrase')).statusCode).toBe(200);

    const again = await reset(code, 'yet another passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('INVALID_CODE');
  });

  it("makes no code when a client's details are given to the physician recovery", async () => {
    const asClient = await t.app.inject({
      method: 'GET',
      url: '/api/pay/get_physician_otp',
      query: { physicianId: 'ACT10001', email: 'jane.doe@example.com' },
      remoteAddress: '10.3.2.2',
    });
    expect(asClient.statusCode).toBe(200);
    // The code is written before the answer: none was made for a client.
    const codes = await t.db.select().from(passwordResetCodes).where(isNotNull(passwordResetCodes.clientId));
    expect(codes).toHaveLength(0);
  });
});
