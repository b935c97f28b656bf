import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationMessages as v } from '../domain/client-verification';
import { createPaymentLinkToken, linkSecret } from './lib/link-tokens';
import { startTestApp, type TestApp } from './testing/test-app';

// The bodies of set_verifyClientData exactly as spec 1 and 3 (section 5) send them: no `mode`.
let t: TestApp;
const LINK_SECRET = 'a-test-link-secret-of-at-least-32-characters';

beforeAll(async () => {
  t = await startTestApp({ LINK_SECRET, RATE_LIMIT_VERIFY_PER_IP: '1000' });
});
afterAll(() => t.close());

function verify(body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pay/set_verifyClientData',
    payload: body,
    remoteAddress: '10.4.0.1',
  });
}

describe('set_verifyClientData takes the spec bodies without a mode field', () => {
  it('confirms by Client ID and last name', async () => {
    const response = await verify({ ClientId: 'ACT10001', ClientLastname: 'Doe' });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(v.confirmed);
    expect(typeof response.json().verification).toBe('string');
  });

  it('confirms by first name, last name, e-mail and date of birth', async () => {
    const response = await verify({
      ClientFirstName: 'John',
      Clientlastname: 'Roe',
      ClientEmail: 'john.roe@example.com',
      ClientDob: '11/02/1968',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(v.confirmed);
  });

  it('confirms by the token of a payment link', async () => {
    const token = createPaymentLinkToken(linkSecret('.tmp/unused', LINK_SECRET), 'ACT10001', t.clock.now());
    const response = await verify({ t: token });
    expect(response.statusCode).toBe(200);
  });

  it('names the missing fields of the shape the body started', async () => {
    const byId = await verify({ ClientId: 'ACT10001' });
    expect(byId.statusCode).toBe(400);
    expect(byId.json().fields).toEqual({ ClientLastname: v.lastNameRequired });

    const byContact = await verify({ ClientFirstName: 'John', ClientDob: '02/30/1968' });
    expect(byContact.statusCode).toBe(400);
    expect(byContact.json().fields).toEqual({
      Clientlastname: v.lastNameRequired,
      ClientEmail: v.emailRequired,
      ClientDob: v.dobInvalid,
    });
  });

  it('still takes the mode field the portal pages send', async () => {
    const response = await verify({ mode: 'id', ClientId: 'ACT10001', ClientLastname: 'Doe' });
    expect(response.statusCode).toBe(200);
  });
});
