import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('security headers', () => {
  it('sends a permissions policy and frame-ancestors, without X-Frame-Options, on answers and refusals alike', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/pay/no_such_call' }),
      await t.app.inject({
        method: 'GET',
        url: '/api/pay/get_otp',
        query: { email: 'jane.doe@example.com', firstName: 'Jane', dateOfBirth: '1975-03-14' },
        headers: { 'sec-fetch-site': 'cross-site' },
      }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 403]);
    for (const answer of answers) {
      expect(answer.headers['x-frame-options']).toBeUndefined();
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      const policy = String(answer.headers['permissions-policy']);
      for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()']) {
        expect(policy).toContain(feature);
      }
    }
  });
});
