import { and, asc, eq, lte } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../db/client';
import { outboxMessages } from '../db/schema';
import type { Clock } from '../lib/clock';
import { readDocumentForDelivery } from '../lib/document-store';
import type { Transaction } from '../lib/run-once';

/** A file attached from the documents (kept encrypted there, decrypted only to be sent). */
export interface MailAttachment {
  documentId: string;
  filename: string;
  contentType: string;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}

interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** Where mail leaves the portal: SMTP, or nowhere (the outbox is the mailbox, demo mode). */
export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  deliver(message: OutgoingMessage): Promise<void>;
  close(): Promise<void>;
}

/** Real SMTP through nodemailer. */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async deliver(message) {
      // Copies: nodemailer rewrites the attachment objects it is given (content to base64).
      await transport.sendMail({ from, ...message, attachments: message.attachments.map((a) => ({ ...a })) });
    },
    async close() {
      transport.close();
    },
  };
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Without SMTP_URL the outbox row is the delivered mail; the log names the subject only. */
export function outboxOnlyTransport(log: Log): MailTransport {
  return {
    kind: 'outbox',
    async deliver(message) {
      log.info({ mail: { subject: message.subject } }, 'mail kept in the outbox');
    },
    async close() {},
  };
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /**
   * Writes the mail in the caller's transaction, so it leaves only if the change it tells of is
   * committed, and exactly once per `dedupeKey`. Call `kick()` after the commit.
   */
  enqueue(tx: Database | Transaction, mail: Mail, options?: { dedupeKey?: string }): Promise<void>;
  /** Writes the mail and delivers it soon: for mail that goes with no change (a code, a notice). */
  send(mail: Mail, options?: { dedupeKey?: string }): Promise<void>;
  /** Delivers what is due, in the background (after a commit). */
  kick(): void;
  /** Delivers what is due now; the job calls it every minute, with retries and backoff. */
  deliverDue(limit?: number): Promise<{ sent: number; failed: number }>;
  close(): Promise<void>;
}

const MAX_ATTEMPTS = 10;
/** 30 s, 1 min, 2 min ... capped at 1 hour between attempts. */
function retryDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

export interface OutboxDeps {
  db: Database;
  clock: Clock;
  documentsKey: Buffer;
  transport: MailTransport;
  from: string;
  log: Log;
}

/**
 * The transactional outbox: every e-mail is a row first, written with the change it tells of,
 * then delivered by `deliverDue` (right after the commit, and by the mail job for whatever a
 * crash or an SMTP failure left), so a receipt is never lost and never sent twice.
 */
export function createMailer(deps: OutboxDeps): Mailer {
  const { db, clock, documentsKey, transport, log } = deps;
  let running: Promise<unknown> | null = null;
  let again = false;

  async function deliverOne(row: typeof outboxMessages.$inferSelect): Promise<boolean> {
    // Claim the row for this attempt (another process may be delivering too).
    const now = clock.now();
    const [claimed] = await db
      .update(outboxMessages)
      .set({
        attempts: row.attempts + 1,
        nextAttemptAt: new Date(now.getTime() + retryDelayMs(row.attempts + 1)),
      })
      .where(
        and(
          eq(outboxMessages.id, row.id),
          eq(outboxMessages.status, 'pending'),
          eq(outboxMessages.attempts, row.attempts),
        ),
      )
      .returning({ id: outboxMessages.id });
    if (!claimed) return false;
    try {
      const attachments = [];
      for (const attachment of JSON.parse(row.attachmentsJson ?? '[]') as MailAttachment[]) {
        const document = await readDocumentForDelivery(db, documentsKey, attachment.documentId);
        if (!document) throw new Error('an attachment is missing');
        attachments.push({
          filename: attachment.filename,
          contentType: attachment.contentType,
          content: document.content,
        });
      }
      await transport.deliver({ to: row.recipient, subject: row.subject, text: row.textBody, attachments });
      await db
        .update(outboxMessages)
        .set({ status: 'sent', sentAt: clock.now(), lastError: null })
        .where(eq(outboxMessages.id, row.id));
      return true;
    } catch (error) {
      const failedForGood = row.attempts + 1 >= MAX_ATTEMPTS;
      const reason = error instanceof Error ? error.name : 'Error';
      await db
        .update(outboxMessages)
        .set({ lastError: reason, ...(failedForGood ? { status: 'failed' as const } : {}) })
        .where(eq(outboxMessages.id, row.id))
        .catch(() => {});
      log.warn({ mail: { id: row.id, attempts: row.attempts + 1, error: reason } }, 'mail not delivered yet');
      return false;
    }
  }

  async function deliverDue(limit = 20) {
    let sent = 0;
    let failed = 0;
    const due = await db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.status, 'pending'), lte(outboxMessages.nextAttemptAt, clock.now())))
      .orderBy(asc(outboxMessages.createdAt))
      .limit(limit);
    for (const row of due) {
      if (await deliverOne(row)) sent += 1;
      else failed += 1;
    }
    return { sent, failed };
  }

  const mailer: Mailer = {
    kind: transport.kind,
    async enqueue(tx, mail, options = {}) {
      await tx
        .insert(outboxMessages)
        .values({
          recipient: mail.to,
          subject: mail.subject,
          textBody: mail.text,
          attachmentsJson: mail.attachments?.length ? JSON.stringify(mail.attachments) : null,
          dedupeKey: options.dedupeKey ?? null,
          nextAttemptAt: clock.now(),
        })
        .onConflictDoNothing();
    },
    async send(mail, options) {
      await mailer.enqueue(db, mail, options);
      mailer.kick();
    },
    kick() {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          await deliverDue().catch((error: unknown) =>
            log.warn(
              { mail: { error: error instanceof Error ? error.name : 'Error' } },
              'mail delivery failed',
            ),
          );
        } while (again);
      })().finally(() => {
        running = null;
      });
    },
    deliverDue,
    async close() {
      await running;
      await transport.close();
    },
  };
  return mailer;
}
