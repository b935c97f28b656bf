import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twilioSmsTransport } from './sms-adapter';

/** A tiny stand-in for Twilio's Messages resource: checks the credentials, records the form. */
let server: http.Server;
let baseUrl: string;
const received: Array<{ url: string; auth: string; form: URLSearchParams }> = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const form = new URLSearchParams(body);
      received.push({ url: request.url ?? '', auth: request.headers.authorization ?? '', form });
      const ok = request.headers.authorization === `Basic ${Buffer.from('AC123:secret').toString('base64')}`;
      response.writeHead(ok ? 201 : 401, { 'content-type': 'application/json' });
      response.end(JSON.stringify(ok ? { sid: 'SM1', status: 'queued' } : { code: 20003 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('twilioSmsTransport', () => {
  it('posts To, From and Body to the account Messages resource with basic auth', async () => {
    const transport = twilioSmsTransport({
      baseUrl,
      accountSid: 'AC123',
      authToken: 'secret',
      from: '+15550001111',
    });
    await transport.deliver({ to: '+14075550199', body: 'Hello https://x.example/updatepaymentinfo?t=a.b' });
    const last = received.at(-1);
    expect(last?.url).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(last?.form.get('To')).toBe('+14075550199');
    expect(last?.form.get('From')).toBe('+15550001111');
    expect(last?.form.get('Body')).toContain('/updatepaymentinfo?t=a.b');
  });

  it('throws when the provider refuses, naming only the status', async () => {
    const transport = twilioSmsTransport({
      baseUrl,
      accountSid: 'AC123',
      authToken: 'wrong',
      from: '+15550001111',
    });
    await expect(transport.deliver({ to: '+14075550199', body: 'secret link' })).rejects.toThrow(
      'SMS provider answered 401',
    );
  });
});
