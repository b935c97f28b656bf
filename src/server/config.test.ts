import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const LINK_SECRET = 'a-shared-link-signing-key-of-32-characters';
const DOCUMENTS_KEY = Buffer.alloc(32, 1).toString('base64');
/** The bank's details, which outside demo mode are its own. */
const BANK = {
  COMPANY_NAME: 'Hudson Cell Bank',
  COMPANY_PHONE: '+1 (212) 555-0199',
  REMIT_TO_PAYEE: 'Hudson Cell Bank LLC',
  REMIT_TO_ADDRESS: 'Lockbox 4411 | PO Box 70230 | Newark, NJ 07101',
  PRIVACY_URL: 'https://hudson.example.org/privacy',
};

describe('configuration from the environment', () => {
  it('defaults to port 3000, ./data, the embedded database, the outbox and demo mode', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toMatch(/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.demo).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.secureCookies).toBe(false);
  });

  it("signs out after the spec's 5 minutes idle (15 in the back office), or sooner when set, never later", () => {
    expect(loadConfig({}).idleSignOutMs).toEqual({ portal: 300_000, staff: 900_000 });
    expect(
      loadConfig({ IDLE_SIGN_OUT_SECONDS: '20', STAFF_IDLE_SIGN_OUT_SECONDS: '60' }).idleSignOutMs,
    ).toEqual({ portal: 20_000, staff: 60_000 });
    expect(() => loadConfig({ IDLE_SIGN_OUT_SECONDS: '301' })).toThrow(/IDLE_SIGN_OUT_SECONDS="301"/);
    expect(() => loadConfig({ IDLE_SIGN_OUT_SECONDS: '5' })).toThrow(/at least 10 seconds/);
    expect(() => loadConfig({ STAFF_IDLE_SIGN_OUT_SECONDS: '901' })).toThrow(/STAFF_IDLE_SIGN_OUT_SECONDS/);
  });

  it('turns demo mode off by default with PostgreSQL, and on when asked', () => {
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://localhost/portal',
        PAYMENT_GATEWAY: 'sandbox',
        LINK_SECRET,
        DOCUMENTS_KEY,
        ...BANK,
      }).demo,
    ).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/portal', DEMO: 'true' }).demo).toBe(true);
    expect(
      loadConfig({ DEMO: 'off', PAYMENT_GATEWAY: 'sandbox', LINK_SECRET, DOCUMENTS_KEY, ...BANK }).demo,
    ).toBe(false);
  });

  it('migrates as the owner role of DATABASE_MIGRATION_URL, by default the role of DATABASE_URL', () => {
    const one = loadConfig({ DATABASE_URL: 'postgres://portal_app@db/portal', DEMO: 'true' });
    expect(one.databaseMigrationUrl).toBe('postgres://portal_app@db/portal');
    const two = loadConfig({
      DATABASE_URL: 'postgres://portal_app@db/portal',
      DATABASE_MIGRATION_URL: 'postgres://portal_owner@db/portal',
      DEMO: 'true',
    });
    expect(two.databaseUrl).toBe('postgres://portal_app@db/portal');
    expect(two.databaseMigrationUrl).toBe('postgres://portal_owner@db/portal');
    expect(loadConfig({}).databaseMigrationUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_MIGRATION_URL: 'postgres://portal_owner@db/portal' })).toThrow(
      'DATABASE_MIGRATION_URL: must be set only with DATABASE_URL (the owner role migrates the database the portal serves from)',
    );
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://portal_app@db/portal', DATABASE_MIGRATION_URL: 'mysql://x' }),
    ).toThrow('DATABASE_MIGRATION_URL="mysql://x": must be a URL starting with postgres:// or postgresql://');
  });

  it('warns at start when demo mode runs on a DATABASE_URL, and only then', () => {
    const asked = loadConfig({ DATABASE_URL: 'postgres://localhost/portal', DEMO: 'true' });
    expect(asked.warnings).toEqual([expect.stringMatching(/Demo mode is on with DATABASE_URL/)]);
    expect(loadConfig({}).warnings).toEqual([]);
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://localhost/portal',
        PAYMENT_GATEWAY: 'sandbox',
        CARRIER: 'offline',
        LINK_SECRET,
        DOCUMENTS_KEY,
        ...BANK,
      }).warnings,
    ).toEqual([]);
  });

  it('shows the demo outbox only in demo mode, without SMTP and never over HTTPS', () => {
    expect(loadConfig({}).devOutbox).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com' }).devOutbox).toBe(false);
    expect(loadConfig({ DEMO: 'true', PUBLIC_URL: 'https://portal.example.com' }).devOutbox).toBe(false);
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).devOutbox).toBe(false);
    expect(
      loadConfig({ DEMO: 'false', PAYMENT_GATEWAY: 'sandbox', LINK_SECRET, DOCUMENTS_KEY, ...BANK })
        .devOutbox,
    ).toBe(false);
  });

  it('reads the payment attempt limits, 30 an hour per IP and 10 per client by default', () => {
    expect(loadConfig({}).rateLimits).toMatchObject({ paymentPerIp: 30, paymentPerClient: 10 });
    expect(
      loadConfig({ RATE_LIMIT_PAYMENT_PER_IP: '5', RATE_LIMIT_PAYMENT_PER_CLIENT: '2' }).rateLimits,
    ).toMatchObject({ paymentPerIp: 5, paymentPerClient: 2 });
    expect(() => loadConfig({ RATE_LIMIT_PAYMENT_PER_IP: '0' })).toThrow(/RATE_LIMIT_PAYMENT_PER_IP/);
  });

  it('outside demo mode, makes the payment gateway a choice, never a silent sandbox', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/portal' })).toThrow(
      /PAYMENT_GATEWAY: must be set/,
    );
    expect(() => loadConfig({ DEMO: 'false', PAYMENT_GATEWAY: 'authorize-net' })).toThrow(
      /ANET_API_LOGIN_ID: must be set/,
    );
  });

  it('keeps text messages offline by default, and uses Twilio only with all of its credentials', () => {
    expect(loadConfig({}).sms).toEqual({ kind: 'offline' });
    expect(() => loadConfig({ SMS: 'pigeon' })).toThrow(/SMS="pigeon": must be offline or twilio/);
    expect(() => loadConfig({ SMS: 'twilio', TWILIO_ACCOUNT_SID: 'AC1' })).toThrow(
      /TWILIO_AUTH_TOKEN: must be set when SMS=twilio/,
    );
    expect(
      loadConfig({
        SMS: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC1',
        TWILIO_AUTH_TOKEN: 'token',
        TWILIO_FROM: '+15550001111',
      }).sms,
    ).toEqual({
      kind: 'twilio',
      baseUrl: 'https://api.twilio.com',
      accountSid: 'AC1',
      authToken: 'token',
      from: '+15550001111',
    });
  });

  it('uses the offline carrier by default, and FedEx only with all of its credentials', () => {
    // The offline carrier's hour is an hour unless shortened (demos and browser tests).
    expect(loadConfig({}).carrier).toEqual({ kind: 'offline', hourMs: 3_600_000 });
    expect(loadConfig({ OFFLINE_CARRIER_HOUR_MS: '500' }).carrier).toEqual({ kind: 'offline', hourMs: 500 });
    expect(() => loadConfig({ CARRIER: 'fedex', FEDEX_CLIENT_ID: 'key' })).toThrow(
      /FEDEX_CLIENT_SECRET: must be set when CARRIER=fedex/,
    );
    expect(() => loadConfig({ CARRIER: 'ups' })).toThrow(/CARRIER="ups": must be offline or fedex/);
    expect(() =>
      loadConfig({
        CARRIER: 'fedex',
        FEDEX_CLIENT_ID: 'key',
        FEDEX_CLIENT_SECRET: 'secret',
        FEDEX_ACCOUNT_NUMBER: '12345',
      }),
    ).toThrow(/FEDEX_ACCOUNT_NUMBER="12345": must be the 9-digit FedEx account number/);
    expect(
      loadConfig({
        CARRIER: 'fedex',
        FEDEX_CLIENT_ID: 'key',
        FEDEX_CLIENT_SECRET: 'secret',
        FEDEX_ACCOUNT_NUMBER: '740561073',
      }).carrier,
    ).toEqual({
      kind: 'fedex',
      baseUrl: 'https://apis-sandbox.fedex.com',
      clientId: 'key',
      clientSecret: 'secret',
      accountNumber: '740561073',
      senderPhone: '9545550100',
    });
    expect(() => loadConfig({ FEDEX_SENDER_PHONE: '954-555' })).toThrow(
      /FEDEX_SENDER_PHONE="954-555": must be 10 digits/,
    );
  });

  it('warns outside demo mode when the carrier was not chosen', () => {
    const production = { DEMO: 'false', PAYMENT_GATEWAY: 'sandbox', LINK_SECRET, DOCUMENTS_KEY, ...BANK };
    expect(loadConfig(production).warnings).toEqual([expect.stringMatching(/CARRIER is not set/)]);
    expect(loadConfig({ ...production, CARRIER: 'offline' }).warnings).toEqual([]);
  });

  it("outside demo mode, needs the bank's own details; in demo mode, shows placeholders", () => {
    const production = {
      DEMO: 'false',
      PAYMENT_GATEWAY: 'sandbox',
      LINK_SECRET,
      DOCUMENTS_KEY,
      CARRIER: 'offline',
    };
    expect(() => loadConfig(production)).toThrow(
      /COMPANY_NAME: must be set when demo mode is off[\s\S]*COMPANY_PHONE[\s\S]*REMIT_TO_PAYEE[\s\S]*REMIT_TO_ADDRESS[\s\S]*PRIVACY_URL/,
    );
    expect(loadConfig({ ...production, ...BANK }).bank).toEqual({
      name: 'Hudson Cell Bank',
      phone: '2125550199',
      payee: 'Hudson Cell Bank LLC',
      remitTo: ['Lockbox 4411', 'PO Box 70230', 'Newark, NJ 07101'],
      privacyUrl: 'https://hudson.example.org/privacy',
    });
    expect(() => loadConfig({ COMPANY_PHONE: '555-0199' })).toThrow(
      /COMPANY_PHONE.*must be a 10-digit US phone number/,
    );
    expect(() => loadConfig({ REMIT_TO_ADDRESS: 'Newark' })).toThrow(
      /REMIT_TO_ADDRESS.*address lines separated by \|/,
    );
    expect(loadConfig({}).bank).toEqual({
      name: 'ACT',
      phone: '3055550100',
      payee: 'Stem Cell Bank',
      remitTo: ['Attn: Accounts Receivable', '1450 Brickell Avenue, Suite 1900', 'Miami, FL 33131'],
      privacyUrl: 'https://www.stemcellbank.example.com/privacy',
    });
  });

  it('outside demo mode, needs the documents key, and refuses one of the wrong length', () => {
    expect(() => loadConfig({ DEMO: 'false', PAYMENT_GATEWAY: 'sandbox', LINK_SECRET })).toThrow(
      /DOCUMENTS_KEY: must be set/,
    );
    expect(() => loadConfig({ DOCUMENTS_KEY: 'c2hvcnQ=' })).toThrow(/DOCUMENTS_KEY=.*must be 32 bytes/);
  });

  it('uses secure cookies when the public address is HTTPS', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com/' })).toMatchObject({
      publicUrl: 'https://portal.example.com',
      secureCookies: true,
    });
  });

  it('names every bad value with its reason', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SMTP_URL: 'http://mail',
        DEMO: 'maybe',
        PUBLIC_URL: 'ftp://x',
      });
      expect.unreachable('a bad configuration must throw');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT="eighty": must be a port number/);
      expect(problems).toMatch(/DATABASE_URL="mysql:\/\/x": must be a URL starting with postgres:/);
      expect(problems).toMatch(/SMTP_URL="http:\/\/mail": must be a URL starting with smtp:/);
      expect(problems).toMatch(/DEMO="maybe": must be one of/);
      expect(problems).toMatch(/PUBLIC_URL="ftp:\/\/x"/);
    }
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT="70000": must be between 0 and 65535/);
  });
});
