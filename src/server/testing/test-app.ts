import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { PORTAL_CLIENT_HEADER, PORTAL_CLIENT_VALUE } from '../../domain/portal-client';
import { createCarrier } from '../adapters/carrier';
import type { CarrierAdapter } from '../adapters/carrier/carrier-adapter';
import type { MailAttachment } from '../adapters/mailer';
import { createPaymentGateway } from '../adapters/payments';
import type { PaymentGateway } from '../adapters/payments/payment-gateway';
import { buildApp, loggerOptions } from '../app';
import { loadConfig } from '../config';
import type { Database, DatabaseHandle } from '../db/client';
import { documents, outboxMessages } from '../db/schema';
import { DEMO_CLIENT_PASSWORD, DEMO_PHYSICIAN_PASSWORD, seedDemoStaff } from '../db/seed';
import { drawReceipt } from '../modules/payments/receipts';
import { ManualClock } from './manual-clock';
import { createTestDatabase } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  /** The database handle, for what runs beside the app (the background jobs). */
  database: DatabaseHandle;
  /**
   * The database as its owner role: for what a test does that the app's restricted role may not
   * (DDL to make a write fail). The app's own `db` on PGlite or with one role.
   */
  ownerDb: Database;
  clock: ManualClock;
  close(): Promise<void>;
  /** Signs in and returns the Cookie header of the new session. */
  signIn(clientId?: string, password?: string, ip?: string): Promise<string>;
  /** Signs a physician in (PHY20001 by default) and returns the Cookie header of the new session. */
  signInPhysician(physicianId?: string, password?: string, ip?: string): Promise<string>;
  /** E-mails the portal wrote to its outbox for this address, newest first. */
  mailTo(address: string): Promise<Array<{ subject: string; textBody: string }>>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const URL_IN_TEXT = /https?:\/\/\S+/g;

/**
 * Every e-mail a test reads is checked that it quotes no database id to the person reading it
 * (issue 24: orders and references by their short number, SP-6F1C2B9E); a link may carry one.
 */
function expectNoBareId(mail: { subject: string; textBody: string }) {
  const quoted = UUID.exec(`${mail.subject}\n${mail.textBody.replace(URL_IN_TEXT, '')}`);
  if (quoted) {
    throw new Error(
      `The e-mail "${mail.subject}" quotes the id ${quoted[0]}: use its short number (orderNumber)`,
    );
  }
}

/**
 * Requests in tests are the portal's own pages calling, as the web's API client does (it sends
 * its header on every call), unless the test says what the browser sent (`Sec-Fetch-Site`),
 * as a test of a call from another site does.
 */
function callsAsOurOwnPages(app: FastifyInstance) {
  const inject = app.inject.bind(app) as (options: InjectOptions) => Promise<LightMyRequestResponse>;
  const asOurPages = (options: InjectOptions) => {
    const headers = { ...(options.headers ?? {}) };
    const saysWhereFrom = Object.keys(headers).some((name) => name.toLowerCase() === 'sec-fetch-site');
    return saysWhereFrom
      ? options
      : { ...options, headers: { [PORTAL_CLIENT_HEADER]: PORTAL_CLIENT_VALUE, ...headers } };
  };
  Object.assign(app, { inject: (options: InjectOptions) => inject(asOurPages(options)) });
}

export function cookieOf(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  if (!first) throw new Error(`no session cookie in the answer (${response.statusCode} ${response.body})`);
  return first.split(';')[0] as string;
}

async function signInAt(app: FastifyInstance, url: string, username: string, password: string, ip: string) {
  const response = await app.inject({
    method: 'POST',
    url,
    payload: { username, password },
    remoteAddress: ip,
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return cookieOf(response);
}

/** Limits high enough for test files that save and charge many times; their own test proves the limits. */
export const MANY_PAYMENT_ATTEMPTS = {
  RATE_LIMIT_PAYMENT_PER_IP: '10000',
  RATE_LIMIT_PAYMENT_PER_CLIENT: '10000',
  RATE_LIMIT_REFUSALS_PER_CLIENT: '10000',
} as const;

/**
 * The real app on a fresh copy of the seeded database, with a clock the test moves. With a
 * `logStream`, the app logs (at info or `logLevel`, through the production logger options) into it.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: {
    /** Wraps the gateway the app would use (the sandbox), to make it fail the way a test needs. */
    gateway?: (real: PaymentGateway) => PaymentGateway;
    /** Wraps the carrier the app would use (the offline one), to make it fail the way a test needs. */
    carrier?: (real: CarrierAdapter) => CarrierAdapter;
    logStream?: { write(line: string): void };
    /** The level `logStream` gets (info by default; debug adds a line per request). */
    logLevel?: 'info' | 'debug';
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const clock = new ManualClock();
  const config = loadConfig({ DEMO: 'true', LOG_LEVEL: 'silent', DATA_DIR: '.tmp/test-data', ...env });
  const gateway = options.gateway?.(createPaymentGateway(config, database.db, clock));
  const carrier = options.carrier?.(createCarrier(config));
  const logger = options.logStream ? loggerOptions(options.logLevel ?? 'info', options.logStream) : false;
  const app = await buildApp({
    config,
    db: database.db,
    clock,
    webRoot: null,
    logger,
    ...(gateway ? { gateway } : {}),
    ...(carrier ? { carrier } : {}),
  });
  await app.ready();
  await seedDemoStaff(database.db, app.deps.documentsKey);
  callsAsOurOwnPages(app);
  return {
    app,
    db: database.db,
    database,
    ownerDb: database.owner.db,
    clock,
    async close() {
      await app.close();
      await database.close();
    },
    signIn(clientId = 'ACT10001', password = DEMO_CLIENT_PASSWORD, ip = '10.1.1.1') {
      return signInAt(app, '/api/pay/login', clientId, password, ip);
    },
    signInPhysician(physicianId = 'PHY20001', password = DEMO_PHYSICIAN_PASSWORD, ip = '10.1.1.1') {
      return signInAt(app, '/api/pay/physician_login', physicianId, password, ip);
    },
    async mailTo(address) {
      const rows = await database.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.recipient, address))
        .orderBy(desc(outboxMessages.createdAt));
      // The mail as it leaves: its text, then a line naming each attached document.
      return Promise.all(
        rows.map(async (row) => {
          const attached = JSON.parse(row.attachmentsJson ?? '[]') as MailAttachment[];
          const lines = await Promise.all(
            attached.map(async (a) => {
              let size = 0;
              if ('documentId' in a) {
                const [doc] = await database.db
                  .select({ size: documents.sizeBytes })
                  .from(documents)
                  .where(eq(documents.id, a.documentId));
                size = doc?.size ?? 0;
              } else {
                size = (await drawReceipt(database.db, a.receiptOfPaymentId, new Date()))?.length ?? 0;
              }
              return `[Attachment: ${a.filename}, ${a.contentType}, ${size} bytes]`;
            }),
          );
          const mail = { subject: row.subject, textBody: [row.textBody, ...lines].join('\n\n') };
          expectNoBareId(mail);
          return mail;
        }),
      );
    },
  };
}
