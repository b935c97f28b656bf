import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, recordedCheck } from '../../db/columns';
import { clients } from '../clients/schema';
import { physicians } from '../physicians/schema';

/**
 * The payments module's tables: payment methods on file, the payment ledger, annual storage fees
 * and the public payment pages' confirmed identifications. Only this module's folder imports them;
 * the other modules call its functions (scripts/check-boundaries.ts).
 */

/** A payment method on file: gateway references and display data only, never a full number. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The owner: a client, or a physician who keeps a card on file to pay for their clients. */
    clientId: uuid().references(() => clients.id, { onDelete: 'cascade' }),
    physicianId: uuid().references(() => physicians.id, { onDelete: 'cascade' }),
    kind: text({ enum: ['card', 'ach'] }).notNull(),
    brand: text(),
    last4: text().notNull(),
    expiryMonth: integer(),
    expiryYear: integer(),
    holderFirstName: text(),
    holderLastName: text(),
    nameOnAccount: text(),
    /** ACH only: the bank's ABA routing number, public bank data shown back to the client. */
    routingNumber: text(),
    billingEmail: text(),
    billingZip: text(),
    country: text(),
    gateway: text().notNull().default('sandbox'),
    gatewayCustomerRef: text(),
    gatewayPaymentRef: text(),
    isDefault: boolean().notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId),
    index().on(t.physicianId),
    check('payment_methods_one_owner', sql`num_nonnulls(${t.clientId}, ${t.physicianId}) = 1`),
  ],
);

/**
 * One year of annual storage: due on its date, overdue while unpaid past it. The billing run
 * (storage-renewals.ts) writes one row per client and storage year when the year's notice goes,
 * with the amount fixed then; older rows (before renewals) have no year number.
 */
export const annualStorageFees = pgTable(
  'annual_storage_fees',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    dueDate: date({ mode: 'string' }).notNull(),
    amountCents: integer().notNull(),
    paidAt: timestamp({ withTimezone: true }),
    paymentId: uuid(),
    /**
     * A renewal's amount by ACH (the annual maintenance fee), fixed with `amountCents` (by card or
     * check) when its notice went. A year paid later (Payment Information, a link, a vial request)
     * is charged the amount fixed for its method, with no fee on top, whatever price version is in
     * force by then (storage-billing.ts storageYearsCharge); null on older rows, which are owed
     * `amountCents` with the card fee in force on a card.
     */
    achAmountCents: integer(),
    /** The storage year's number (1: the year after the included first one); null on older rows. */
    yearNumber: integer(),
    /** When paid, storage is paid until this day (the next anniversary). */
    coversUntil: date({ mode: 'string' }),
    status: text({ enum: ['noticed', 'retrying', 'overdue', 'paid', 'waived', 'covered'] })
      .notNull()
      .default('noticed'),
    /** The billing day the notice went, and the day the method is (first) charged. */
    noticeOn: date({ mode: 'string' }),
    chargeOn: date({ mode: 'string' }),
    /** How the notice said it would be paid: card, ach, check or none. */
    methodKind: text(),
    /** The renewal charge's operation holding the year while it charges (see storage-renewals.ts). */
    claimOperationId: uuid(),
    tries: integer().notNull().default(0),
    nextTryOn: date({ mode: 'string' }),
    lastDecline: text(),
    /** The billing day it was paid, by autopay, a saved method or a check. */
    paidOn: date({ mode: 'string' }),
    /** Paid after at least one failed try. */
    recovered: boolean().notNull().default(false),
    /** A staff waiver or deferral: who, why. */
    note: text(),
    /** A year paid by check: the check as staff recorded it (the storage checks queue). */
    ...recordedCheck(),
    /** That check's receipt (a document of the client's). */
    receiptDocumentId: uuid(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId),
    uniqueIndex('annual_storage_fees_year_key').on(t.clientId, t.yearNumber),
    index('annual_storage_fees_open_idx')
      .on(t.status, t.chargeOn)
      .where(sql`${t.status} in ('noticed', 'retrying')`),
  ],
);

/**
 * The billing run's bookkeeping: the last day it ran, so each day runs once and in order. One
 * row for the bank ('all'); a test's run limited to its own clients keeps its own.
 */
export const billingRuns = pgTable('billing_runs', {
  scope: text().primaryKey(),
  lastDay: date({ mode: 'string' }).notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * The payment ledger: one row per submission that may charge, keyed by the idempotency key the
 * web sends, holding the amounts the server computed, the outcome and the answer to replay.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    idempotencyKey: text().notNull(),
    requestHash: text().notNull(),
    source: text().notNull(),
    purpose: text().notNull(),
    methodKind: text({ enum: ['card', 'ach'] }).notNull(),
    paymentMethodId: uuid(),
    /** Set when a physician paid for the client with the physician's own card. */
    paidByPhysicianId: uuid().references(() => physicians.id, { onDelete: 'set null' }),
    amountCents: integer().notNull(),
    feeCents: integer().notNull(),
    totalCents: integer().notNull(),
    status: text({ enum: ['in_progress', 'approved', 'declined', 'error', 'saved', 'returned'] }).notNull(),
    /** The run-once operation this row belongs to (its lease says whether someone is still at it). */
    operationId: uuid(),
    /**
     * Our reference for the charge, committed before the gateway is called and sent as its invoice
     * number: reconciliation finds the charge by it when the outcome was never recorded.
     */
    reference: text(),
    chargeStartedAt: timestamp({ withTimezone: true }),
    /** The gateway customer and the method charged, as they were when the charge was sent. */
    gatewayCustomerRef: text(),
    methodBrand: text(),
    methodLast4: text(),
    gatewayTransactionId: text(),
    message: text(),
    responseJson: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_idempotency_key_key').on(t.clientId, t.idempotencyKey),
    uniqueIndex('payments_reference_key').on(t.reference),
    index().on(t.clientId),
    index().on(t.operationId),
  ],
);

/**
 * A confirmed identification on a public payment page: for 15 minutes it lets that browser save
 * a payment method for that one client, and nothing else. The browser holds a random token whose
 * SHA-256 is the id.
 */
export const paymentVerifications = pgTable(
  'payment_verifications',
  {
    id: text().primaryKey(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** A save went through with it: good only to replay that save (the same key), nothing new. */
    spentAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.clientId)],
);

/**
 * Refunds and voids: ledger entries linked to the charge they give back (never more than it,
 * checked under a lock on the charge's row), keyed by their operation and sent with our
 * reference, so that a refund whose answer was lost is found again at the gateway.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid().primaryKey().defaultRandom(),
    paymentId: uuid()
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    operationId: uuid(),
    amountCents: integer().notNull(),
    reason: text().notNull(),
    /** The staff member who asked for it (null: the client, by a cancellation). */
    requestedBy: uuid(),
    /** A refund of a settled charge, or a void of one still in its open batch (whole). */
    kind: text({ enum: ['refund', 'void'] }),
    /**
     * `awaiting_approval`: asked for above the price book's approval limit, nothing sent; it holds
     * its amount against the charge (as one under way does) until an admin other than the one who
     * asked approves it (then `in_progress` and on) or declines it (`declined`, nothing sent).
     */
    status: text({
      enum: ['awaiting_approval', 'in_progress', 'refunded', 'voided', 'failed', 'declined'],
    }).notNull(),
    /** The admin who approved or declined a refund that awaited approval, and when. */
    decidedBy: uuid(),
    decidedAt: timestamp({ withTimezone: true }),
    reference: text().notNull(),
    gatewayTransactionId: text(),
    message: text(),
    /**
     * What owes the refund when something other than a staff member's choice does (a cancelled
     * vial request: `vial-request:<id>`): at most one live refund per charge and source.
     */
    source: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index().on(t.paymentId),
    index().on(t.clientId),
    uniqueIndex('refunds_reference_key').on(t.reference),
    uniqueIndex('refunds_one_live_per_source')
      .on(t.paymentId, t.source)
      .where(sql`${t.source} is not null and ${t.status} <> 'failed'`),
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
  ],
);
