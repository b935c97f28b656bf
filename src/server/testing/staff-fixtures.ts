import { generate } from 'otplib';
import { expect } from 'vitest';
import { DEMO_STAFF_EMAIL, DEMO_STAFF_PASSWORD, DEMO_STAFF_TOTP_SECRET } from '../db/seed';
import { cookieOf, type TestApp } from './test-app';

/** Staff sign-ins for API tests: the whole two-step sign-in, on the test app's clock. */

/** The code an authenticator shows at the start of the clock's next 30-second step (each is good once). */
export async function freshTotpCode(t: TestApp, secret: string): Promise<string> {
  const ms = t.clock.now().getTime();
  t.clock.advance(30_000 - (ms % 30_000) + 1_000);
  return generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
}

/** A signed-in staff member's session cookie (password, then a fresh TOTP code). */
export async function staffSession(
  t: TestApp,
  email = DEMO_STAFF_EMAIL,
  password = DEMO_STAFF_PASSWORD,
  secret = DEMO_STAFF_TOTP_SECRET,
): Promise<string> {
  const half = await t.app.inject({ method: 'POST', url: '/api/staff/login', payload: { email, password } });
  expect(half.statusCode, half.body).toBe(200);
  const whole = await t.app.inject({
    method: 'POST',
    url: '/api/staff/verify_totp',
    headers: { cookie: cookieOf(half) },
    payload: { code: await freshTotpCode(t, secret) },
  });
  expect(whole.statusCode, whole.body).toBe(200);
  return cookieOf(whole);
}

/**
 * An admin creates a member (`staff` level unless said), who changes the initial password and
 * enrols: their session.
 */
export async function staffLevelMember(
  t: TestApp,
  admin: string,
  email: string,
  name = 'Level Staff',
  level: 'staff' | 'admin' = 'staff',
): Promise<string> {
  const post = (url: string, cookie: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: { cookie }, payload });
  const created = await post('/api/staff/create_staff', admin, {
    email,
    name,
    level,
  });
  expect(created.statusCode, created.body).toBe(200);
  const initial = created.json<{ initialPassword: string }>().initialPassword;
  const half = await t.app.inject({
    method: 'POST',
    url: '/api/staff/login',
    payload: { email, password: initial },
  });
  expect(half.statusCode, half.body).toBe(200);
  const changed = await post('/api/staff/change_initial_password', cookieOf(half), {
    password: `${initial}-own`,
  });
  expect(changed.statusCode, changed.body).toBe(200);
  const enrolment = await t.app.inject({
    method: 'GET',
    url: '/api/staff/enrolment',
    headers: { cookie: cookieOf(half) },
  });
  const { secret } = enrolment.json<{ secret: string }>();
  const enrolled = await post('/api/staff/enrol_totp', cookieOf(half), {
    code: await freshTotpCode(t, secret),
  });
  expect(enrolled.statusCode, enrolled.body).toBe(200);
  return cookieOf(enrolled);
}
