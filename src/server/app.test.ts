import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, loggerOptions } from './app';
import { loadConfig } from './config';
import type { DatabaseHandle } from './db/client';
import { DEMO_CLIENT_PASSWORD } from './db/seed';
import { createTestDatabase } from './testing/test-database';

let database: DatabaseHandle;
const HASHED_ASSET = 'sign-in-page-B4x9Qz1a.js';
const ASSET_SOURCE = `export const signIn = ${JSON.stringify('Client Portal '.repeat(200))};\n`;
const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));

beforeAll(async () => {
  database = await createTestDatabase();
  fs.writeFileSync(
    path.join(webRoot, 'index.html'),
    '<!doctype html><title>Client Portal</title><div id="root"></div>',
  );
  // A hashed asset as the build leaves it: the file and its brotli and gzip copies beside it.
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(path.join(webRoot, 'assets', HASHED_ASSET), ASSET_SOURCE);
  fs.writeFileSync(path.join(webRoot, 'assets', `${HASHED_ASSET}.br`), zlib.brotliCompressSync(ASSET_SOURCE));
  fs.writeFileSync(path.join(webRoot, 'assets', `${HASHED_ASSET}.gz`), zlib.gzipSync(ASSET_SOURCE));
});
afterAll(async () => {
  await database.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

describe('the app shell', () => {
  it('serves the web app for every client-side route and JSON 404s under /api', async () => {
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      db: database.db,
      webRoot,
      logger: false,
    });
    for (const url of [
      '/',
      '/client-information',
      '/client-activity',
      '/forgot-password',
      '/form-document/Consent-form',
    ]) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toContain('<div id="root">');
    }
    const api = await app.inject({ method: 'GET', url: '/api/pay/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    await app.close();
  });

  it('serves hashed assets precompressed and cached for a year, and index.html revalidated every time', async () => {
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      db: database.db,
      webRoot,
      logger: false,
    });
    const url = `/assets/${HASHED_ASSET}`;
    const immutable = 'public, max-age=31536000, immutable';

    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe(immutable);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(ASSET_SOURCE);

    const gzip = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe(immutable);
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(ASSET_SOURCE);

    const plain = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe(immutable);
    expect(plain.body).toBe(ASSET_SOURCE);

    for (const page of ['/', '/client-information', '/index.html']) {
      const html = await app.inject({ method: 'GET', url: page, headers: { 'accept-encoding': 'br, gzip' } });
      expect(html.statusCode, page).toBe(200);
      expect(html.headers['cache-control'], page).toBe('no-cache');
      expect(html.body, page).toContain('<div id="root">');
    }
    // A page seen before is revalidated by its tag: unchanged, nothing is sent again.
    const first = await app.inject({ method: 'GET', url: '/client-information' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await app.inject({
      method: 'GET',
      url: '/client-information',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('no-cache');
    await app.close();
  });

  it('publishes the OpenAPI document at /api/docs with each call of the account area and the forms', async () => {
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      db: database.db,
      webRoot: null,
      logger: false,
    });
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const route of [
      'login',
      'logout',
      'get_Client',
      'update_Client',
      'get_otp',
      'update_Password',
      'get_ClientActivity',
      'send_ConsentData',
      'set_DiseaseData',
      'get_FormDocuments',
      'set_verifyPhysicianClientData',
      'set_PhysicianDiseaseData',
    ]) {
      expect(Object.keys(doc.paths), route).toContain(`/api/pay/${route}`);
    }
    expect(doc.paths['/api/pay/update_Client'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/pay/send_ConsentData'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/pay/set_DiseaseData'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/pay/set_PhysicianDiseaseData'].post.requestBody).toBeDefined();
    expect((await app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
    await app.close();
  });

  it('tells the sign-in page where "Contact us" leads, from CONTACT_URL', async () => {
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', CONTACT_URL: 'https://bank.example.org/help' }),
      db: database.db,
      webRoot: null,
      logger: false,
    });
    const response = await app.inject({ method: 'GET', url: '/api/pay/site_config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      contactUrl: 'https://bank.example.org/help',
      bank: {
        name: 'ACT',
        phone: '3055550100',
        payee: 'Stem Cell Bank',
        remitTo: ['Attn: Accounts Receivable', '1450 Brickell Avenue, Suite 1900', 'Miami, FL 33131'],
        privacyUrl: 'https://www.stemcellbank.example.com/privacy',
      },
    });
    await app.close();
    expect(() => loadConfig({ CONTACT_URL: 'javascript:alert(1)' })).toThrow(/CONTACT_URL/);
  });

  it('answers the health check', async () => {
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      db: database.db,
      webRoot: null,
      logger: false,
    });
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({ status: 'ok' });
    await app.close();
  });

  it('shows the outbox in demo mode without SMTP, and nowhere else', async () => {
    const demo = await buildApp({
      config: loadConfig({ DEMO: 'true' }),
      db: database.db,
      webRoot,
      logger: false,
    });
    await demo.inject({
      method: 'GET',
      url: '/api/pay/get_otp',
      headers: { 'sec-fetch-site': 'same-origin' },
      query: { email: 'jane.doe@example.com', firstName: 'Jane', dateOfBirth: '1975-03-14' },
    });
    // The e-mail is sent after the answer.
    await vi.waitFor(async () => {
      const outbox = await demo.inject({ method: 'GET', url: '/dev/outbox' });
      expect(outbox.statusCode).toBe(200);
      expect(outbox.body).toContain('Client Portal: your one time password');
    });
    await demo.close();

    for (const env of [
      {
        DEMO: 'false',
        PAYMENT_GATEWAY: 'sandbox',
        LINK_SECRET: 'a-shared-link-signing-key-of-32-characters',
        DOCUMENTS_KEY: Buffer.alloc(32, 1).toString('base64'),
        COMPANY_NAME: 'ACT',
        COMPANY_PHONE: '3055550100',
        REMIT_TO_PAYEE: 'Stem Cell Bank',
        REMIT_TO_ADDRESS: 'PO Box 1 | Miami, FL 33131',
        PRIVACY_URL: 'https://bank.example.org/privacy',
      },
      { DEMO: 'true', SMTP_URL: 'smtp://127.0.0.1:2525' },
    ]) {
      const app = await buildApp({ config: loadConfig(env), db: database.db, webRoot: null, logger: false });
      const page = await app.inject({ method: 'GET', url: '/dev/outbox' });
      expect(page.statusCode).toBe(404);
      await app.close();
    }
  });

  it('never answers /dev/outbox when PUBLIC_URL is https, even in demo mode without SMTP', async () => {
    const app = await buildApp({
      config: loadConfig({ DEMO: 'true', PUBLIC_URL: 'https://portal.example.com' }),
      db: database.db,
      webRoot: null,
      logger: false,
    });
    await app.inject({
      method: 'GET',
      url: '/api/pay/get_otp',
      headers: { 'sec-fetch-site': 'same-origin' },
      query: { email: 'jane.doe@example.com', firstName: 'Jane', dateOfBirth: '1975-03-14' },
    });
    const page = await app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('one time password');
    await app.close();
  });

  it('writes JSON logs without personal data, passwords, codes or cookies', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'trace' }),
      db: database.db,
      webRoot: null,
      logger: { ...(loggerOptions('trace') as object), stream },
    });
    const login = await app.inject({
      method: 'POST',
      url: '/api/pay/login',
      payload: { username: 'ACT10002', password: DEMO_CLIENT_PASSWORD },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    await app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie } });
    await app.inject({
      method: 'GET',
      url: '/api/pay/get_otp',
      headers: { 'sec-fetch-site': 'same-origin' },
      query: { email: 'john.roe@example.com', firstName: 'John', dateOfBirth: '1968-11-02' },
    });
    await app.close();
    const log = lines.join('');
    // One line per request at trace (and debug), none of them with what was sent.
    expect(lines.filter((line) => line.includes('"msg":"request completed"'))).toHaveLength(3);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    for (const secret of [
      DEMO_CLIENT_PASSWORD,
      'john.roe@example.com',
      '1968-11-02',
      'Roe',
      cookie.split('=')[1] as string,
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('logs each request on one line at debug, by route; at info, none', async () => {
    const logAt = async (level: 'info' | 'debug') => {
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const app = await buildApp({
        config: loadConfig({ LOG_LEVEL: level }),
        db: database.db,
        webRoot: null,
        logger: { ...(loggerOptions(level) as object), stream },
      });
      await app.inject({ method: 'GET', url: '/api/pay/site_config?who=john.roe@example.com' });
      await app.inject({ method: 'GET', url: '/api/health' });
      await app.close();
      return lines.map((line) => JSON.parse(line) as { msg: string; route?: string; statusCode?: number });
    };
    expect((await logAt('info')).filter((l) => /request/.test(l.msg))).toEqual([]);
    const debug = (await logAt('debug')).filter((l) => l.msg === 'request completed');
    expect(debug.map((l) => [l.route, l.statusCode])).toEqual([
      ['/api/pay/site_config', 200],
      ['/api/health', 200],
    ]);
    expect(JSON.stringify(debug)).not.toContain('john.roe');
  });
});
