import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../db/client';
import { outboxMessages } from '../db/schema';
import type { Clock } from '../lib/clock';
import { readDocumentForDelivery } from '../lib/document-store';
import type { Transaction } from '../lib/run-once';

/**
 * A file attached to a mail: one of the documents (kept encrypted there, decrypted only to be
 * sent), or a payment's receipt, drawn when the mail is sent (a renewal run charging thousands of
 * clients does not draw thousands of PDFs while it charges).
 */
export type MailAttachment = { filename: string; contentType: string } & (
  | { documentId: string }
  | { receiptOfPaymentId: string }
);

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

/**
 * Without SMTP_URL the outbox row is the delivered mail. The log says only that one was kept:
 * subjects and addresses name clients, and logs hold no personal data.
 */
export function outboxOnlyTransport(log: Log): MailTransport {
  return {
    kind: 'outbox',
    async deliver(message) {
      log.info({ mail: { attachments: message.attachments.length } }, 'mail kept in the outbox');
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
  /** As `enqueue`, for many mails in one statement (a billing run's receipts). */
  enqueueMany(
    tx: Database | Transaction,
    mails: readonly { mail: Mail; dedupeKey?: string }[],
  ): Promise<void>;
  /** Writes the mail and delivers it soon: for mail that goes with no change (a code, a notice). */
  send(mail: Mail, options?: { dedupeKey?: string }): Promise<void>;
  /** Delivers what is due, in the background (after a commit). */
  kick(): void;
  /**
   * Delivers everything due now, in batches of `batchSize` until one is not full; the job calls
   * it every minute, with retries and backoff.
   */
  deliverDue(batchSize?: number): Promise<{ sent: number; failed: number }>;
  close(): Promise<void>;
}

const MAX_ATTEMPTS = 10;
/** Between attempts: 30 s, 1 min, 2 min ... capped at 1 hour. */
const RETRY_BASE_SECONDS = 30;
const RETRY_CAP_SECONDS = 60 * 60;
/** Rows claimed and sent side by side at a time (each an SMTP connection). */
const DELIVERY_BATCH = 10;

export interface OutboxDeps {
  db: Database;
  clock: Clock;
  documentsKey: Buffer;
  transport: MailTransport;
  from: string;
  log: Log;
  /** Draws the receipt PDF of an approved payment (null when there is none). */
  drawReceipt?: (paymentId: string) => Promise<Uint8Array | null>;
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

  type OutboxRow = typeof outboxMessages.$inferSelect;

  /**
   * Claims up to `limit` due rows in one statement, oldest first. `skip locked` lets processes
   * delivering at the same time take different rows instead of waiting on one another; the claim
   * counts the attempt and moves the row's next attempt past its backoff, so a process that dies
   * mid-send leaves it due again later, and one that is sending holds it until then.
   */
  async function claimBatch(limit: number): Promise<OutboxRow[]> {
    const now = clock.now();
    const due = db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.status, 'pending'), lte(outboxMessages.nextAttemptAt, now)))
      .orderBy(asc(outboxMessages.createdAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    return db
      .update(outboxMessages)
      .set({
        attempts: sql`${outboxMessages.attempts} + 1`,
        nextAttemptAt: sql`${now.toISOString()}::timestamptz + least(${RETRY_CAP_SECONDS}, ${RETRY_BASE_SECONDS} * power(2, ${outboxMessages.attempts})) * interval '1 second'`,
      })
      .where(inArray(outboxMessages.id, due))
      .returning();
  }

  async function attachmentContent(attachment: MailAttachment): Promise<Buffer | null> {
    if ('documentId' in attachment) {
      const document = await readDocumentForDelivery(db, documentsKey, attachment.documentId);
      return document?.content ?? null;
    }
    const drawn = await deps.drawReceipt?.(attachment.receiptOfPaymentId);
    return drawn ? Buffer.from(drawn) : null;
  }

  const outboxRow = (mail: Mail, dedupeKey: string | undefined) => ({
    recipient: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    attachmentsJson: mail.attachments?.length ? JSON.stringify(mail.attachments) : null,
    dedupeKey: dedupeKey ?? null,
    nextAttemptAt: clock.now(),
  });

  /** Sends one claimed row (`attempts` already counts this attempt); whether it left. */
  async function deliverOne(row: OutboxRow): Promise<boolean> {
    try {
      const attachments = [];
      for (const attachment of JSON.parse(row.attachmentsJson ?? '[]') as MailAttachment[]) {
        // The outbox is the mailbox (demo mode): nothing leaves, so nothing is drawn or decrypted.
        const content = transport.kind === 'outbox' ? Buffer.alloc(0) : await attachmentContent(attachment);
        if (!content) throw new Error('an attachment is missing');
        attachments.push({ filename: attachment.filename, contentType: attachment.contentType, content });
      }
      await transport.deliver({ to: row.recipient, subject: row.subject, text: row.textBody, attachments });
      await db
        .update(outboxMessages)
        .set({ status: 'sent', sentAt: clock.now(), lastError: null })
        .where(eq(outboxMessages.id, row.id));
      return true;
    } catch (error) {
      const failedForGood = row.attempts >= MAX_ATTEMPTS;
      const reason = error instanceof Error ? error.name : 'Error';
      await db
        .update(outboxMessages)
        .set({ lastError: reason, ...(failedForGood ? { status: 'failed' as const } : {}) })
        .where(eq(outboxMessages.id, row.id))
        .catch(() => {});
      log.warn({ mail: { id: row.id, attempts: row.attempts, error: reason } }, 'mail not delivered yet');
      return false;
    }
  }

  /**
   * Delivers what is due, batch after batch while batches come back full (a burst of orders is
   * sent now, not 20 a minute), the rows of a batch side by side. Between batches it lets the
   * event loop serve requests.
   */
  async function deliverDue(batchSize = DELIVERY_BATCH) {
    let sent = 0;
    let failed = 0;
    for (;;) {
      const batch = await claimBatch(batchSize);
      const outcomes = await Promise.all(batch.map(deliverOne));
      sent += outcomes.filter(Boolean).length;
      failed += outcomes.length - outcomes.filter(Boolean).length;
      if (batch.length < batchSize) return { sent, failed };
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  const mailer: Mailer = {
    kind: transport.kind,
    async enqueue(tx, mail, options = {}) {
      await tx.insert(outboxMessages).values(outboxRow(mail, options.dedupeKey)).onConflictDoNothing();
    },
    async enqueueMany(tx, mails) {
      if (mails.length === 0) return;
      await tx
        .insert(outboxMessages)
        .values(mails.map(({ mail, dedupeKey }) => outboxRow(mail, dedupeKey)))
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

/** The newest e-mails of the outbox (the demo outbox page). */
export async function recentOutboxMessages(db: Database, limit = 50) {
  return db.select().from(outboxMessages).orderBy(desc(outboxMessages.createdAt)).limit(limit);
}
