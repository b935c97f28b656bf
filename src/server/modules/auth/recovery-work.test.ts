import * as argon2 from '@node-rs/argon2';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authPolicy } from '../../../domain/auth';
import { startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Password recovery takes as long whether or not the details match a client (DESIGN.md section 3):
 * proven by the work, not by a stopwatch (a timed test is flaky on a shared machine). Every path
 * of get_otp and of update_Password does the same number of Argon2 hashes and verifications.
 * bench/recovery-timing.ts measures the time itself.
 */

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, hash: vi.fn(real.hash), verify: vi.fn(real.verify) };
});

const jane = { email: 'jane.doe@example.com', firstName: 'Jane', dateOfBirth: '1975-03-14' };
const stranger = { ...jane, firstName: 'Janet' };

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_RECOVERY_PER_IP: '1000', RATE_LIMIT_LOGIN_PER_IP: '1000' });
});
afterAll(() => t.close());
beforeEach(() => t.clock.advance(60 * 60 * 1000));

/** The Argon2 work one request did. */
async function workOf(request: () => Promise<{ statusCode: number }>) {
  vi.mocked(argon2.hash).mockClear();
  vi.mocked(argon2.verify).mockClear();
  const response = await request();
  return {
    status: response.statusCode,
    hashes: vi.mocked(argon2.hash).mock.calls.length,
    verifies: vi.mocked(argon2.verify).mock.calls.length,
  };
}

const requestCode = (details: Record<string, string>) => () =>
  t.app.inject({ method: 'GET', url: '/api/pay/get_otp', query: details, remoteAddress: '10.4.0.1' });

const reset = (details: Record<string, string>, code: string) => () =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/update_Password',
    payload: { ...details, OneTimePassword: code, UpdatedPassword: `a long new passphrase ${code}` },
    remoteAddress: '10.4.0.1',
  });

const codeMails = async () => (await t.mailTo(jane.email)).filter((m) => /one time password/.test(m.subject));

async function latestCode(before: number): Promise<string> {
  const [mail] = await vi.waitFor(async () => {
    const mails = await codeMails();
    expect(mails.length).toBeGreaterThan(before);
    return mails;
  });
  const code = /one time password is (\d{6})/.exec(mail?.textBody ?? '')?.[1];
  if (!code) throw new Error('no code in the latest e-mail');
  return code;
}

// The first miss makes the dummy hash once per process; done here so it is not counted below.
beforeAll(async () => {
  await reset(stranger, '123456')();
});

describe('password recovery does the same hashing work whether or not the details match', () => {
  it('get_otp: a match, a miss and a match over the hourly limit each hash one code', async () => {
    const match = await workOf(requestCode(jane));
    const miss = await workOf(requestCode(stranger));
    for (let i = 1; i < authPolicy.otpPerHourPerAccount; i++) await requestCode(jane)();
    const overLimit = await workOf(requestCode(jane));
    expect(match).toEqual({ status: 200, hashes: 1, verifies: 0 });
    expect(miss).toEqual(match);
    expect(overLimit).toEqual(match);
  });

  it('update_Password: a miss, a wrong code, no code and the right code each verify one code and hash one password', async () => {
    const noCode = await workOf(reset(jane, '123456'));
    const before = (await codeMails()).length;
    await requestCode(jane)();
    const code = await latestCode(before);
    const wrong = code === '000000' ? '111111' : '000000';
    const miss = await workOf(reset(stranger, code));
    const wrongCode = await workOf(reset(jane, wrong));
    const right = await workOf(reset(jane, code));

    expect(miss).toEqual({ status: 400, hashes: 1, verifies: 1 });
    expect(noCode).toEqual(miss);
    expect(wrongCode).toEqual(miss);
    expect(right).toEqual({ status: 200, hashes: 1, verifies: 1 });
  });
});
