import { customType, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clients } from '../modules/clients/schema';
import { physicians } from '../modules/physicians/schema';
import { staffAccounts } from '../modules/staff/schema';
import { createdAt } from './columns';

/**
 * The platform's tables, owned by the code outside src/server/modules (lib, plugins, adapters,
 * jobs): the run-once engine's operations, the mail and SMS outboxes, documents, sessions, rate
 * limits, the audit trail, installation settings and the sandbox gateway's own store. A module
 * reaches them through the platform's functions (run-once, the document store, the mailer, ...),
 * not by importing them (scripts/check-boundaries.ts).
 */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The sandbox gateway's own store, a stand-in for the external service: tokens it issued to
 * browsers and the payment methods it keeps. Like a real gateway it never shows a full number
 * back, and unlike one it does not even keep it: only the last 4 digits and the test behaviour.
 */
export const sandboxTokens = pgTable('sandbox_tokens', {
  token: text().primaryKey(),
  kind: text({ enum: ['card', 'ach'] }).notNull(),
  brand: text(),
  last4: text().notNull(),
  expiryMonth: integer(),
  expiryYear: integer(),
  behavior: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
});

export const sandboxPaymentMethods = pgTable(
  'sandbox_payment_methods',
  {
    paymentRef: text().primaryKey(),
    customerRef: text().notNull(),
    kind: text({ enum: ['card', 'ach'] }).notNull(),
    brand: text(),
    last4: text().notNull(),
    expiryMonth: integer(),
    expiryYear: integer(),
    behavior: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.customerRef)],
);

/** Server-side sessions; the browser holds only the random token whose SHA-256 is the id. */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    /** `staff_pending`: a staff member past the password who has not yet passed the second factor. */
    role: text({ enum: ['client', 'physician', 'staff_pending', 'staff'] }).notNull(),
    clientId: uuid().references(() => clients.id, { onDelete: 'cascade' }),
    physicianId: uuid().references(() => physicians.id, { onDelete: 'cascade' }),
    staffId: uuid().references(() => staffAccounts.id, { onDelete: 'cascade' }),
    staffLevel: text({ enum: ['staff', 'admin'] }),
    /** A physician's session: the client they chose to act for, if any. */
    actingForClientId: uuid().references(() => clients.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.clientId), index().on(t.physicianId), index().on(t.staffId)],
);

/** Fixed-window counters for rate limits, shared by every server process. */
export const rateLimits = pgTable('rate_limits', {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true }).notNull(),
  hits: integer().notNull(),
});

/**
 * The mail outbox: every e-mail is written here in the same transaction as the change it tells of,
 * then delivered by a job (SMTP, with retries and backoff) or, without SMTP_URL, kept here to read
 * at /dev/outbox in demo mode. Attachments are documents (encrypted), named by id.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    recipient: text().notNull(),
    subject: text().notNull(),
    textBody: text().notNull(),
    /** [{ documentId, filename, contentType }] */
    attachmentsJson: text(),
    /** What the mail is about ('payment:<id>', 'form:<id>'): one mail per fact, however often it is written. */
    dedupeKey: text(),
    status: text({ enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('outbox_messages_dedupe_key').on(t.dedupeKey), index().on(t.status, t.nextAttemptAt)],
);

/**
 * Text messages the portal sent (payment links): a row first, then handed to the SMS provider; with
 * SMS=offline the row is the delivered message, read at /dev/sms-outbox in demo mode.
 */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    recipient: text().notNull(),
    body: text().notNull(),
    status: text({ enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.createdAt)],
);

/** Key-value facts about this installation (e.g. that demo data was seeded). */
export const systemSettings = pgTable('system_settings', {
  key: text().primaryKey(),
  value: text().notNull(),
});

/**
 * Documents kept for a client (signed agreements, signatures, lab reports): encrypted at rest
 * with AES-256-GCM, with the SHA-256 of the plain content to prove what was stored.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    kind: text({
      enum: ['lab_report', 'signed_agreement', 'signature', 'form_answers', 'receipt', 'shipping_label'],
    }).notNull(),
    fileName: text().notNull(),
    contentType: text().notNull(),
    sizeBytes: integer().notNull(),
    sha256: text().notNull(),
    iv: bytea().notNull(),
    authTag: bytea().notNull(),
    ciphertext: bytea().notNull(),
    /** The run-once operation that stored it: a failed operation's documents are removed with it. */
    operationId: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.clientId), index().on(t.operationId)],
);

/**
 * The run-once engine (src/server/lib/run-once.ts): one row per submission that must happen once
 * (a payment, a signed form, an order), keyed by its Idempotency-Key within a scope. The claim is
 * committed before any side effect; the outcome with its effects; a lease, renewed while the work
 * runs, tells a live owner from a dead one, whose work reconciliation then settles.
 */
export const operations = pgTable(
  'operations',
  {
    id: uuid().primaryKey().defaultRandom(),
    scope: text().notNull(),
    idempotencyKey: text().notNull(),
    kind: text().notNull(),
    requestHash: text().notNull(),
    status: text({ enum: ['running', 'succeeded', 'failed'] }).notNull(),
    /** Who holds the work now (random per attempt); a takeover gives it a new one. */
    leaseToken: text().notNull(),
    leaseUntil: timestamp({ withTimezone: true }).notNull(),
    /** What the operation needs to be settled by someone else (ids of its ledger row, form, ...). */
    stateJson: text(),
    responseJson: text(),
    /** A refusal to replay: { status, code, message, fields }. */
    errorJson: text(),
    attempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('operations_scope_key').on(t.scope, t.idempotencyKey),
    index().on(t.status, t.leaseUntil),
  ],
);

/**
 * The sandbox gateway's record of its transactions, like a processor's: reconciliation looks a
 * charge up here by our reference. A charge settles at the first batch cut-off after it was made;
 * `voided` before that, it never moves money.
 */
export const sandboxTransactions = pgTable(
  'sandbox_transactions',
  {
    transactionId: text().primaryKey(),
    reference: text().notNull(),
    customerRef: text().notNull(),
    paymentRef: text().notNull(),
    amountCents: integer().notNull(),
    status: text({ enum: ['approved', 'declined', 'returned', 'voided'] }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.customerRef, t.reference)],
);

/**
 * The sandbox gateway's refunds, each linked to the charge it gives back (as a processor links a
 * credit to its debit). Only refunds it accepted are recorded, as a processor records no transaction
 * for a refused one; `voided` before its batch settles, a refund gives nothing back.
 */
export const sandboxRefunds = pgTable(
  'sandbox_refunds',
  {
    transactionId: text().primaryKey(),
    chargeTransactionId: text()
      .notNull()
      .references(() => sandboxTransactions.transactionId),
    reference: text().notNull(),
    customerRef: text().notNull(),
    amountCents: integer().notNull(),
    status: text({ enum: ['refunded', 'voided'] }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.customerRef, t.reference), index().on(t.chargeTransactionId)],
);

/**
 * Who read or changed a client's personal data, payment display data or documents: appended by
 * one hook per scope, never updated or deleted by the portal. Never a password, code, token or
 * card number: the action, the route pattern and the ids only. No foreign keys, so the trail
 * outlives what it tells of.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    at: timestamp({ withTimezone: true }).notNull(),
    // public: someone on a public page (a signed link, the payment pages); actorId is then the nil UUID.
    actorRole: text({ enum: ['client', 'physician', 'staff', 'public'] }).notNull(),
    actorId: uuid().notNull(),
    clientId: uuid(),
    action: text().notNull(),
    /** The method and route pattern, e.g. `GET /api/staff/documents/:id`. */
    route: text().notNull(),
    /** The document read, when the action reads one. */
    documentId: uuid(),
    /** The money the change moved (a payment settled, a refund, a check recorded), in cents. */
    amountCents: integer(),
    ip: text().notNull(),
    statusCode: integer().notNull(),
  },
  (t) => [index().on(t.clientId, t.at), index().on(t.at)],
);
