import path from 'node:path';
import { z } from 'zod';
import { authPolicy } from '../domain/auth-policy';
import type { BankDetails } from '../domain/site';
import { staffPolicy } from '../domain/staff';

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
    error: 'must be one of true, false, 1, 0, yes, no, on, off',
  })
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const urlText = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );

/** The bank's details in demo mode: placeholders, in the README. */
const DEMO_BANK: BankDetails = {
  name: 'ACT',
  phone: '3055550100',
  payee: 'Stem Cell Bank',
  remitTo: ['Attn: Accounts Receivable', '1450 Brickell Avenue, Suite 1900', 'Miami, FL 33131'],
  privacyUrl: 'https://www.stemcellbank.example.com/privacy',
};

const positiveInt = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .positive();

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: urlText(['postgres:', 'postgresql:']).optional(),
  DATABASE_MIGRATION_URL: urlText(['postgres:', 'postgresql:']).optional(),
  SMTP_URL: urlText(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z
    .string()
    .min(3, 'must be an e-mail address')
    .default('Client Portal <no-reply@portal.localhost>'),
  PUBLIC_URL: urlText(['http:', 'https:']).optional(),
  CONTACT_URL: urlText(['http:', 'https:']).default('https://www.stemcellbank.example.com/contact-us'),
  DEMO: booleanText.optional(),
  COMPANY_NAME: z.string().trim().min(1, 'must not be empty').max(80).optional(),
  COMPANY_PHONE: z
    .string()
    .transform((v) => v.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, ''))
    .pipe(z.string().regex(/^\d{10}$/, 'must be a 10-digit US phone number'))
    .optional(),
  REMIT_TO_PAYEE: z.string().trim().min(1, 'must not be empty').max(120).optional(),
  REMIT_TO_ADDRESS: z
    .string()
    .transform((v) =>
      v
        .split('|')
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(120)).min(2, 'must be the address lines separated by |'))
    .optional(),
  PRIVACY_URL: urlText(['http:', 'https:']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_LOGIN_PER_IP: positiveInt.default(50),
  RATE_LIMIT_RECOVERY_PER_IP: positiveInt.default(20),
  DATABASE_POOL_SIZE: positiveInt.default(10),
  LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  RATE_LIMIT_VERIFY_PER_IP: positiveInt.default(30),
  RATE_LIMIT_PAYMENT_PER_IP: positiveInt.default(30),
  RATE_LIMIT_PAYMENT_PER_CLIENT: positiveInt.default(10),
  RATE_LIMIT_REFUSALS_PER_CLIENT: positiveInt.default(60),
  DOCUMENTS_KEY: z
    .string()
    .refine(
      (v) => Buffer.from(v, 'base64').length === 32,
      'must be 32 bytes in base64 (openssl rand -base64 32)',
    )
    .optional(),
  PAYMENT_GATEWAY: z
    .enum(['sandbox', 'authorize-net'], { error: 'must be sandbox or authorize-net' })
    .optional(),
  TRUST_PROXY: booleanText.optional(),
  RUN_ONCE_LEASE_MS: positiveInt.default(15_000),
  RECONCILE_INTERVAL_MS: positiveInt.default(60_000),
  ANET_API_LOGIN_ID: z.string().min(1).optional(),
  ANET_TRANSACTION_KEY: z.string().min(1).optional(),
  ANET_CLIENT_KEY: z.string().min(1).optional(),
  ANET_ENVIRONMENT: z
    .enum(['sandbox', 'production'], { error: 'must be sandbox or production' })
    .default('sandbox'),
  CARRIER: z.enum(['offline', 'fedex'], { error: 'must be offline or fedex' }).optional(),
  SMS: z.enum(['offline', 'twilio'], { error: 'must be offline or twilio' }).default('offline'),
  TWILIO_BASE_URL: urlText(['https:', 'http:']).default('https://api.twilio.com'),
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM: z.string().min(1).optional(),
  FEDEX_BASE_URL: urlText(['https:', 'http:']).default('https://apis-sandbox.fedex.com'),
  FEDEX_CLIENT_ID: z.string().min(1).optional(),
  FEDEX_CLIENT_SECRET: z.string().min(1).optional(),
  FEDEX_ACCOUNT_NUMBER: z
    .string()
    .regex(/^\d{9}$/, 'must be the 9-digit FedEx account number')
    .optional(),
  /** The laboratory's phone, printed as the sender's on FedEx labels (10 digits). */
  FEDEX_SENDER_PHONE: z
    .string()
    .regex(/^\d{10}$/, 'must be 10 digits')
    .default('9545550100'),
  /** How long an hour of the offline carrier's scans lasts (shortened for demos and browser tests). */
  OFFLINE_CARRIER_HOUR_MS: positiveInt.default(3_600_000),
  /**
   * The idle sign-out of clients and physicians, in seconds: the spec's 5 minutes, or shorter
   * (a kiosk, the browser journey that waits for the warning); never longer.
   */
  IDLE_SIGN_OUT_SECONDS: positiveInt
    .min(10, 'must be at least 10 seconds')
    .max(authPolicy.idleTimeoutMs / 1000, "must be at most 300 seconds (the spec's 5 minutes)")
    .default(authPolicy.idleTimeoutMs / 1000),
  /** The back office's idle sign-out, in seconds: 15 minutes, or shorter. */
  STAFF_IDLE_SIGN_OUT_SECONDS: positiveInt
    .min(10, 'must be at least 10 seconds')
    .max(staffPolicy.idleTimeoutMs / 1000, 'must be at most 900 seconds (15 minutes)')
    .default(staffPolicy.idleTimeoutMs / 1000),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * The owner role that migrates (the tables, pg-boss's schema) and grants the app role of
   * `databaseUrl` its rights; the same as `databaseUrl` when not set.
   */
  databaseMigrationUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  /** Where "contact us" leads: the bank's own contact page. */
  contactUrl: string;
  /** The bank's own details: its name, phone, where checks go, its privacy notice. */
  bank: BankDetails;
  demo: boolean;
  logLevel: string;
  rateLimits: {
    loginPerIp: number;
    recoveryPerIp: number;
    /**
     * Card and bank account saves and charges that reach the gateway, per hour: declines count too
     * (no card-testing).
     */
    paymentPerIp: number;
    paymentPerClient: number;
    /** Payment submissions refused before the gateway (a date, a changed total), per client and hour. */
    refusalsPerClient: number;
  };
  poolSize: number;
  /** Behind a load balancer: take the client's address from X-Forwarded-For (for the per-IP limits). */
  trustProxy: boolean;
  /** Encrypts documents at rest (base64, 32 bytes); absent: a key generated once in DATA_DIR (demo only). */
  documentsKey: string | undefined;
  /** Signs the public payment links; absent: a key generated once in DATA_DIR. */
  linkSecret: string | undefined;
  verifyPerIp: number;
  /**
   * How long a payment or signing in progress stays its process's without renewal: a process
   * that dies mid-way has its work taken over this long after (renewed every third of it).
   */
  leaseMs: number;
  /** How often the reconciliation sweep runs (and once at start). */
  reconcileIntervalMs: number;
  /** Cookies get the __Host- prefix and Secure when the portal is served over HTTPS. */
  secureCookies: boolean;
  /** After this long without activity a session ends, on the server and in the page. */
  idleSignOutMs: { portal: number; staff: number };
  /** Demo mode's e-mail page: never on a portal served over HTTPS, where real clients may be. */
  devOutbox: boolean;
  /** Said in the log at start: settings that work but are risky. */
  warnings: string[];
  payments:
    | { gateway: 'sandbox' }
    | {
        gateway: 'authorize-net';
        apiLoginId: string;
        transactionKey: string;
        clientKey: string;
        environment: 'sandbox' | 'production';
      };
  /** Address validation and rate quotes: the offline table (default) or FedEx's REST API. */
  carrier:
    | { kind: 'offline'; hourMs: number }
    | {
        kind: 'fedex';
        baseUrl: string;
        clientId: string;
        clientSecret: string;
        accountNumber: string;
        senderPhone: string;
      };
  /** Text messages: the offline outbox (default) or Twilio's REST API. */
  sms:
    | { kind: 'offline' }
    | { kind: 'twilio'; baseUrl: string; accountSid: string; authToken: string; from: string };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the configuration from environment variables; every bad value is named with its reason. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) =>
          `${String(issue.path[0])}=${JSON.stringify(present[String(issue.path[0])])}: ${issue.message}`,
      ),
    );
  }
  const e = parsed.data;
  if (e.DATABASE_MIGRATION_URL && !e.DATABASE_URL) {
    throw new ConfigError([
      'DATABASE_MIGRATION_URL: must be set only with DATABASE_URL (the owner role migrates the database the portal serves from)',
    ]);
  }
  if (e.PAYMENT_GATEWAY === 'authorize-net') {
    const missing = (['ANET_API_LOGIN_ID', 'ANET_TRANSACTION_KEY', 'ANET_CLIENT_KEY'] as const).filter(
      (k) => !e[k],
    );
    if (missing.length > 0) {
      throw new ConfigError(missing.map((k) => `${k}: must be set when PAYMENT_GATEWAY=authorize-net`));
    }
  }
  if (e.SMS === 'twilio') {
    const missing = (['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const).filter(
      (k) => !e[k],
    );
    if (missing.length > 0) {
      throw new ConfigError(missing.map((k) => `${k}: must be set when SMS=twilio`));
    }
  }
  if (e.CARRIER === 'fedex') {
    const missing = (['FEDEX_CLIENT_ID', 'FEDEX_CLIENT_SECRET', 'FEDEX_ACCOUNT_NUMBER'] as const).filter(
      (k) => !e[k],
    );
    if (missing.length > 0) {
      throw new ConfigError(missing.map((k) => `${k}: must be set when CARRIER=fedex`));
    }
  }
  const demo = e.DEMO ?? !e.DATABASE_URL;
  // Outside demo mode the gateway is a choice, never a default: the sandbox approves without money moving.
  if (!demo && !e.PAYMENT_GATEWAY) {
    throw new ConfigError([
      'PAYMENT_GATEWAY: must be set when demo mode is off (authorize-net, or sandbox for a test installation)',
    ]);
  }
  if (!demo && !e.DOCUMENTS_KEY) {
    throw new ConfigError([
      'DOCUMENTS_KEY: must be set when demo mode is off (it encrypts the stored documents)',
    ]);
  }
  // Links signed on one server must open on every other: outside demo mode the key is shared config.
  if (!demo && !e.LINK_SECRET) {
    throw new ConfigError([
      'LINK_SECRET: must be set when demo mode is off (32 characters or more, the same on every server)',
    ]);
  }
  // The bank's details reach clients (footers, check instructions): outside demo mode they are its own.
  const bankSettings = [
    'COMPANY_NAME',
    'COMPANY_PHONE',
    'REMIT_TO_PAYEE',
    'REMIT_TO_ADDRESS',
    'PRIVACY_URL',
  ] as const;
  const missingBank = bankSettings.filter((k) => e[k] === undefined);
  if (!demo && missingBank.length > 0) {
    throw new ConfigError(
      missingBank.map((k) => `${k}: must be set when demo mode is off (the bank's details clients see)`),
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const secureCookies = publicUrl.startsWith('https:');
  const warnings: string[] = [];
  // Only DEMO=true gets here with a DATABASE_URL: demo mode there is always asked for.
  if (demo && e.DATABASE_URL) {
    warnings.push(
      'Demo mode is on with DATABASE_URL: demo accounts with published passwords are seeded into that database. Never use it for real clients (unset DEMO).',
    );
  }
  // Outside demo mode the offline carrier is allowed (a test installation) but should be a choice.
  if (!demo && !e.CARRIER) {
    warnings.push(
      'CARRIER is not set outside demo mode: addresses are not checked with FedEx and FedEx shipping is priced from the offline rate table (set CARRIER=fedex, or CARRIER=offline for a test installation).',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseMigrationUrl: e.DATABASE_MIGRATION_URL ?? e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl,
    contactUrl: e.CONTACT_URL,
    bank: {
      name: e.COMPANY_NAME ?? DEMO_BANK.name,
      phone: e.COMPANY_PHONE ?? DEMO_BANK.phone,
      payee: e.REMIT_TO_PAYEE ?? DEMO_BANK.payee,
      remitTo: e.REMIT_TO_ADDRESS ?? DEMO_BANK.remitTo,
      privacyUrl: e.PRIVACY_URL ?? DEMO_BANK.privacyUrl,
    },
    demo,
    logLevel: e.LOG_LEVEL,
    rateLimits: {
      loginPerIp: e.RATE_LIMIT_LOGIN_PER_IP,
      recoveryPerIp: e.RATE_LIMIT_RECOVERY_PER_IP,
      paymentPerIp: e.RATE_LIMIT_PAYMENT_PER_IP,
      paymentPerClient: e.RATE_LIMIT_PAYMENT_PER_CLIENT,
      refusalsPerClient: e.RATE_LIMIT_REFUSALS_PER_CLIENT,
    },
    poolSize: e.DATABASE_POOL_SIZE,
    linkSecret: e.LINK_SECRET,
    documentsKey: e.DOCUMENTS_KEY,
    verifyPerIp: e.RATE_LIMIT_VERIFY_PER_IP,
    secureCookies,
    devOutbox: demo && !e.SMTP_URL && !secureCookies,
    warnings,
    trustProxy: e.TRUST_PROXY ?? false,
    leaseMs: e.RUN_ONCE_LEASE_MS,
    reconcileIntervalMs: e.RECONCILE_INTERVAL_MS,
    idleSignOutMs: {
      portal: e.IDLE_SIGN_OUT_SECONDS * 1000,
      staff: e.STAFF_IDLE_SIGN_OUT_SECONDS * 1000,
    },
    payments:
      e.PAYMENT_GATEWAY === 'authorize-net'
        ? {
            gateway: 'authorize-net',
            apiLoginId: e.ANET_API_LOGIN_ID as string,
            transactionKey: e.ANET_TRANSACTION_KEY as string,
            clientKey: e.ANET_CLIENT_KEY as string,
            environment: e.ANET_ENVIRONMENT,
          }
        : { gateway: 'sandbox' },
    carrier:
      e.CARRIER === 'fedex'
        ? {
            kind: 'fedex',
            baseUrl: e.FEDEX_BASE_URL,
            clientId: e.FEDEX_CLIENT_ID as string,
            clientSecret: e.FEDEX_CLIENT_SECRET as string,
            accountNumber: e.FEDEX_ACCOUNT_NUMBER as string,
            senderPhone: e.FEDEX_SENDER_PHONE,
          }
        : { kind: 'offline', hourMs: e.OFFLINE_CARRIER_HOUR_MS },
    sms:
      e.SMS === 'twilio'
        ? {
            kind: 'twilio',
            baseUrl: e.TWILIO_BASE_URL,
            accountSid: e.TWILIO_ACCOUNT_SID as string,
            authToken: e.TWILIO_AUTH_TOKEN as string,
            from: e.TWILIO_FROM as string,
          }
        : { kind: 'offline' },
  };
}
