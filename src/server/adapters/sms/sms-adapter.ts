import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { smsMessages } from '../../db/schema';
import type { Clock } from '../../lib/clock';

/** One text message: a phone number and a short body (the body may hold a signed link: never log it). */
export interface TextMessage {
  to: string;
  body: string;
}

/** Where text messages leave the portal: nowhere (the offline outbox is the phone), or a provider. */
export interface SmsTransport {
  readonly kind: 'offline' | 'twilio';
  /** Hands the message to the provider; throws when it was not accepted. */
  deliver(message: TextMessage): Promise<void>;
}

/** SMS=offline: the stored row is the delivered message (demo mode, tests, a test installation). */
export function offlineSmsTransport(): SmsTransport {
  return { kind: 'offline', async deliver() {} };
}

/** Twilio's REST API (Messages resource), credentials from the environment. */
export function twilioSmsTransport(options: {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  fetchImpl?: typeof fetch;
}): SmsTransport {
  const doFetch = options.fetchImpl ?? fetch;
  return {
    kind: 'twilio',
    async deliver(message) {
      const url = `${options.baseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
      const response = await doFetch(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ To: message.to, From: options.from, Body: message.body }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status < 200 || response.status >= 300) {
        throw new Error(`SMS provider answered ${response.status}`);
      }
    },
  };
}

export interface SmsSender {
  readonly kind: 'offline' | 'twilio';
  /** Stores the message, then hands it to the transport; answers whether it left. */
  send(message: TextMessage): Promise<boolean>;
}

/** Every text message is a row first (the offline outbox, and a record of what was sent). */
export function createSmsSender(deps: {
  db: Database;
  clock: Clock;
  transport: SmsTransport;
  log: { warn: (obj: object, msg: string) => void };
}): SmsSender {
  const { db, clock, transport, log } = deps;
  return {
    kind: transport.kind,
    async send(message) {
      const [row] = await db
        .insert(smsMessages)
        .values({ recipient: message.to, body: message.body, createdAt: clock.now() })
        .returning({ id: smsMessages.id });
      try {
        await transport.deliver(message);
        await db
          .update(smsMessages)
          .set({ status: 'sent', sentAt: clock.now() })
          .where(eq(smsMessages.id, row?.id as string));
        return true;
      } catch (error) {
        // The error names the provider's status only: never the body, which holds the link.
        const reason = error instanceof Error ? error.message : 'Error';
        log.warn({ sms: { error: reason } }, 'text message not delivered');
        await db
          .update(smsMessages)
          .set({ status: 'failed', lastError: reason.slice(0, 200) })
          .where(eq(smsMessages.id, row?.id as string));
        return false;
      }
    },
  };
}

/** The newest text messages (the demo outbox page). */
export async function recentSmsMessages(db: Database, limit = 50) {
  return db.select().from(smsMessages).orderBy(desc(smsMessages.createdAt)).limit(limit);
}
