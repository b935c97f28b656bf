import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app';

/**
 * A route of the client-and-physician scope open to one of its roles (config.roles) answers the
 * other role the same 404 as a route that does not exist, before its body is read: not the route's
 * 400 with its field errors.
 */
let t: TestApp;
let client: string;
let physician: string;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
  client = await t.signIn('ACT10001');
  physician = await t.signInPhysician('PHY20001');
});
afterAll(() => t.close());

const post = (cookie: string, url: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'idempotency-key': `route-roles-${Math.random()}` },
    payload: payload as Record<string, unknown>,
  });

describe('a route for only some of its scope’s roles', () => {
  // (send_CellRequest is open to a physician for a client they act for: issue 23.)
  for (const url of ['/api/pay/send_StoragePlan', '/api/pay/get_StoragePlanQuote']) {
    it(`${url}: a physician with an empty body gets the 404 of an unknown route; a client gets the 400`, async () => {
      const unknown = await post(physician, '/api/pay/no_such_call', {});
      expect(unknown.statusCode).toBe(404);
      const asPhysician = await post(physician, url, {});
      expect(asPhysician.statusCode).toBe(404);
      expect(asPhysician.json()).toEqual({ code: 'NOT_FOUND', error: 'Not found' });
      expect(asPhysician.json()).toEqual(unknown.json());
      // Unreadable JSON too: the role is checked before the body is parsed.
      const unreadable = await t.app.inject({
        method: 'POST',
        url,
        headers: {
          cookie: physician,
          'content-type': 'application/json',
          'idempotency-key': 'route-roles-x',
        },
        payload: '{"NumberOfVials":',
      });
      expect(unreadable.statusCode).toBe(404);

      const asClient = await post(client, url, {});
      expect(asClient.statusCode).toBe(400);
      expect(asClient.json().code).toBe('VALIDATION');
    });
  }

  it('set_CellRequestApproval: a client with an empty body gets the 404; a physician gets the 400', async () => {
    const asClient = await post(client, '/api/pay/set_CellRequestApproval', {});
    expect(asClient.statusCode).toBe(404);
    expect(asClient.json()).toEqual({ code: 'NOT_FOUND', error: 'Not found' });
    const asPhysician = await post(physician, '/api/pay/set_CellRequestApproval', {});
    expect(asPhysician.statusCode).toBe(400);
  });

  it('a route of the shared scope for both roles still takes both', async () => {
    const asPhysician = await post(physician, '/api/pay/get_ClientVialsService', {});
    const asClient = await post(client, '/api/pay/get_ClientVialsService', {});
    expect(asPhysician.statusCode).not.toBe(404);
    expect(asClient.statusCode).not.toBe(404);
  });
});
