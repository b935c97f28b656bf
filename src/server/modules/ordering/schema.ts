import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  type PgColumn,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { CELL_REQUEST_STATUSES } from '../../../domain/cell-request-cancellation';
import { TRACKING_STATUSES } from '../../../domain/shipment';
import { createdAt } from '../../db/columns';
import { clients } from '../clients/schema';

/**
 * The ordering module's tables: vial requests, Banking and Storage Plans orders and store orders.
 * Only this module's folder imports them; the other modules call its functions (scripts/check-
 * boundaries.ts).
 */

/** A cancelled order's refunds owed: set once all are done (refunded or voided), or the sweep's next try. */
const owedRefundColumns = () => ({
  cancelRefundsSettledAt: timestamp({ withTimezone: true }),
  /** A refund refused for now (the charge not settled yet): when the sweep tries again. */
  cancelRefundsNextTryAt: timestamp({ withTimezone: true }),
});
const refundsOwedIndex = (name: string, t: { cancelledAt: PgColumn; cancelRefundsSettledAt: PgColumn }) =>
  index(name)
    .on(t.cancelledAt)
    .where(sql`${t.cancelledAt} is not null and ${t.cancelRefundsSettledAt} is null`);

/**
 * A client's order of vials shipped to a clinic (the Stem Cell Request Form): what was ordered,
 * where and when it goes, what it cost and how it was paid, and its timeline. A row is claimed
 * (pending, the pre-paid vials reserved) before anything is charged, and confirmed (requested)
 * with the charge; a declined charge deletes it and gives the vials back.
 */
export const vialRequests = pgTable(
  'vial_requests',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    operationId: uuid().notNull(),
    idempotencyKey: text().notNull(),
    status: text({ enum: CELL_REQUEST_STATUSES }).notNull(),
    vials: integer().notNull(),
    /** Bio-Insurance vials taken (10 million cells each): one per requested vial they cover. */
    bioInsuranceVialsUsed: integer().notNull(),
    /** Longevity vials taken (1 million cells each): what a give-back returns, exactly. */
    longevityVialsUsed: integer().notNull(),
    /**
     * Requested vials the Longevity vials taken cover: 10 Longevity vials a vial (vial-request-price.ts);
     * requests before migration 0043 took one Longevity vial a vial, and cover as many.
     */
    longevityCoveredVials: integer().notNull(),
    cpp: boolean().notNull(),
    tissue: text().notNull(),
    infectiousDisease: text().notNull(),
    infectiousDiseaseName: text().notNull().default(''),
    clinicName: text().notNull().default(''),
    shippingMethod: text({ enum: ['FedEx', 'ACT VIP'] }).notNull(),
    shipmentDate: date({ mode: 'string' }).notNull(),
    contactFirstName: text().notNull(),
    contactLastName: text().notNull(),
    shippingEmail: text().notNull(),
    phone: text().notNull(),
    street: text().notNull(),
    city: text().notNull(),
    state: text().notNull(),
    zip: text().notNull(),
    country: text().notNull(),
    addressVerified: boolean().notNull(),
    saveAddress: boolean().notNull().default(false),
    vialsCents: integer().notNull(),
    cppCents: integer().notNull(),
    shippingCents: integer().notNull(),
    /**
     * Annual storage overdue paid with the order (DESIGN.md 8 item 30): how many years, their
     * amount and their own card fee, all within the one charge. Not the request's: a cancellation
     * refunds none of it.
     */
    overdueStorageYears: integer().notNull().default(0),
    overdueStorageCents: integer().notNull().default(0),
    overdueStorageFeeCents: integer().notNull().default(0),
    /** The card fee of the whole charge, the overdue storage's included. */
    processingFeeCents: integer().notNull(),
    totalCents: integer().notNull(),
    paymentMethod: text().notNull(),
    paymentDescription: text().notNull().default(''),
    /** ACT VIP: the bank confirms the shipping price later; it is not charged with the order. */
    shippingPriceToBeConfirmed: boolean().notNull(),
    /**
     * A request a physician placed for a client they act for (issue 23): the physician, whether
     * their own method paid, and the client's objection window (set at confirmation; the vials ship
     * only after it). An objection within it cancels the request at no cost: when, and the note.
     */
    physicianId: uuid(),
    /** The physician's name as the request shows it ("Dr. First Last"), kept as it was when placed. */
    orderedBy: text(),
    paidByPhysician: boolean().notNull().default(false),
    objectionDeadline: timestamp({ withTimezone: true }),
    objectedAt: timestamp({ withTimezone: true }),
    objectionNote: text(),
    paymentId: uuid(),
    transactionId: text(),
    clientActivityId: uuid(),
    requestedAt: timestamp({ withTimezone: true }),
    approvedByPractitionerAt: timestamp({ withTimezone: true }),
    vipPriceConfirmedAt: timestamp({ withTimezone: true }),
    /** ACT VIP: the price staff confirmed, the staff submission charging it, and its ledger row. */
    vipPriceCents: integer(),
    vipPriceOperationId: uuid(),
    vipPaymentId: uuid(),
    /**
     * A price above the price book's approval limit: who entered it and when; it is charged once an
     * admin other than them approves it (vipPriceApprovedBy).
     */
    vipPriceEnteredBy: uuid(),
    vipPriceEnteredAt: timestamp({ withTimezone: true }),
    vipPriceApprovedBy: uuid(),
    shippedAt: timestamp({ withTimezone: true }),
    trackingNumber: text(),
    /**
     * Shipping (issue 22): a FedEx label made through the carrier (`carrier`, the label document,
     * the package's declared contents and dry shipper's id, the label's operation while it is made)
     * or, for ACT VIP, the courier staff recorded with its reference (`trackingNumber`). Tracked
     * until delivered (`lastTrackedAt`); the clinic then confirms the cells arrived frozen.
     */
    carrier: text({ enum: ['offline', 'fedex'] }),
    labelOperationId: uuid(),
    labelDocumentId: uuid(),
    declaredContents: text(),
    dryShipperId: text(),
    courier: text(),
    lastTrackedAt: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    deliveryConfirmedAt: timestamp({ withTimezone: true }),
    deliveryArrivedFrozen: boolean(),
    deliveryConfirmationNote: text(),
    /**
     * A cancellation (spec 3's policy): when, by whom (null: the client), why, and its terms fixed
     * then: the refund owed (sent through the payments module, one live refund per charge), the
     * replacement fee kept and the pre-paid vials given back or forfeited.
     */
    cancelledAt: timestamp({ withTimezone: true }),
    cancelledBy: uuid(),
    cancelReason: text(),
    cancelPhase: text({ enum: ['full', 'late'] }),
    cancelRefundCents: integer(),
    cancelKeptCents: integer(),
    cancelReturnedVials: integer(),
    cancelForfeitedVials: integer(),
    /** Each charge's refund owed: `[{ paymentId, cents }]`. */
    cancelRefundsJson: text(),
    ...owedRefundColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId, t.createdAt),
    refundsOwedIndex('vial_requests_refunds_owed', t),
    uniqueIndex('vial_requests_operation_key').on(t.operationId),
    check('vial_requests_vials_check', sql`${t.vials} between 1 and 10`),
  ],
);

/**
 * Banking and Storage Plans orders (send_StoragePlan). A card or ACH order is charged and applied
 * at once ('paid'): the storage paid-until date moves on by the plan's years, the vials are added.
 * A check order waits for the check ('awaiting_check') and applies nothing until the bank records
 * the check ('check_received', checkReceivedAt, by the back office).
 */
export const storagePlanOrders = pgTable(
  'storage_plan_orders',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    operationId: uuid().notNull(),
    idempotencyKey: text().notNull(),
    status: text({ enum: ['pending', 'paid', 'awaiting_check', 'check_received'] }).notNull(),
    annualStoragePlan: text().notNull(),
    storageYears: integer().notNull(),
    storageCents: integer().notNull(),
    plan: text().notNull(),
    bankingPlanName: text(),
    bioInsuranceVials: integer().notNull(),
    longevityVials: integer().notNull(),
    bankingCents: integer().notNull(),
    processingFeeCents: integer().notNull(),
    totalCents: integer().notNull(),
    tissue: text().notNull(),
    paymentMethod: text().notNull(),
    paymentDescription: text().notNull().default(''),
    paymentId: uuid(),
    transactionId: text(),
    clientActivityId: uuid(),
    /** The paid-until date before and after the order was applied (null until applied). */
    paidUntilBefore: date({ mode: 'string' }),
    paidUntilAfter: date({ mode: 'string' }),
    appliedAt: timestamp({ withTimezone: true }),
    checkReceivedAt: timestamp({ withTimezone: true }),
    /** A check order's check as staff recorded it (the back office's plan checks queue). */
    checkNumber: text(),
    checkAmountCents: integer(),
    checkDate: date({ mode: 'string' }),
    checkRecordedBy: uuid(),
    /**
     * The unused part taken back by an admin with a reason (issue 22), once: the storage years
     * not begun and the vials not used, what they refund (by the gateway under the source
     * `storage-plan:<id>`, or by a check staff mail for a check order), and the paid-until date
     * it left. The order stays 'paid': what it still gives is the rest.
     */
    takenBackAt: timestamp({ withTimezone: true }),
    takenBackBy: uuid(),
    takeBackReason: text(),
    /** The admin's Idempotency-Key: their repeat answers the take-back; anyone else's is refused. */
    takeBackKey: text(),
    yearsTakenBack: integer(),
    bioInsuranceVialsTakenBack: integer(),
    longevityVialsTakenBack: integer(),
    takeBackRefundCents: integer(),
    takeBackRefundByCheck: boolean(),
    paidUntilAfterTakeBack: date({ mode: 'string' }),
    ...owedRefundColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId, t.createdAt),
    index().on(t.status),
    index('storage_plan_orders_refunds_owed')
      .on(t.takenBackAt)
      .where(sql`${t.takenBackAt} is not null and ${t.cancelRefundsSettledAt} is null`),
    uniqueIndex('storage_plan_orders_operation_key').on(t.operationId),
  ],
);

/**
 * Store orders (send_CP_StoreRequest): Stem Cell Face Serum, charged at once and kept for the bank
 * to ship ('ordered'; a back-office issue ships it: shippedAt, trackingNumber). A physician may
 * order for a client they act for (physicianId), paying with the physician's own method.
 */
export const storeOrders = pgTable(
  'store_orders',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    physicianId: uuid(),
    operationId: uuid().notNull(),
    idempotencyKey: text().notNull(),
    status: text({ enum: ['pending', 'ordered', 'shipped', 'delivered', 'cancelled'] }).notNull(),
    item: text().notNull(),
    quantity: integer().notNull(),
    perBottleCents: integer().notNull(),
    itemsCents: integer().notNull(),
    shippingCents: integer().notNull(),
    processingFeeCents: integer().notNull(),
    totalCents: integer().notNull(),
    shippingMethod: text().notNull(),
    shipmentDate: date({ mode: 'string' }).notNull(),
    contactFirstName: text().notNull(),
    contactLastName: text().notNull(),
    shippingEmail: text().notNull(),
    phone: text().notNull(),
    street: text().notNull(),
    city: text().notNull(),
    state: text().notNull(),
    zip: text().notNull(),
    country: text().notNull(),
    saveAddress: boolean().notNull().default(false),
    paymentMethod: text().notNull(),
    paymentDescription: text().notNull().default(''),
    paymentId: uuid(),
    transactionId: text(),
    clientActivityId: uuid(),
    orderedAt: timestamp({ withTimezone: true }),
    shippedAt: timestamp({ withTimezone: true }),
    trackingNumber: text(),
    shippedBy: uuid(),
    /**
     * A label made by the carrier (issue 22): which carrier, the label kept as a document, the
     * label operation under way, the declared contents; tracked until delivered (`lastTrackedAt`).
     * A tracking number typed by staff has no carrier and is not tracked.
     */
    carrier: text({ enum: ['offline', 'fedex'] }),
    labelOperationId: uuid(),
    labelDocumentId: uuid(),
    declaredContents: text(),
    lastTrackedAt: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    deliveredBy: uuid(),
    /**
     * A cancellation before shipping (issue 22): when, by whom (null: the client), why, and the
     * refund owed then (the whole charge), sent through the payments module like a vial request's.
     */
    cancelledAt: timestamp({ withTimezone: true }),
    cancelledBy: uuid(),
    cancelReason: text(),
    cancelRefundCents: integer(),
    ...owedRefundColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId, t.createdAt),
    index().on(t.status),
    refundsOwedIndex('store_orders_refunds_owed', t),
    uniqueIndex('store_orders_operation_key').on(t.operationId),
  ],
);

/** A carrier's scans of a shipped vial request, one per status (the first seen), for its timeline. */
export const shipmentEvents = pgTable(
  'shipment_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    vialRequestId: uuid()
      .notNull()
      .references(() => vialRequests.id, { onDelete: 'cascade' }),
    status: text({ enum: TRACKING_STATUSES }).notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    place: text().notNull(),
    description: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('shipment_events_one_per_status').on(t.vialRequestId, t.status)],
);
