import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const clients = pgTable(
  'clients',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientActId: text().notNull(),
    passwordHash: text(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    dateOfBirth: date({ mode: 'string' }).notNull(),
    email: text().notNull(),
    phone: text().notNull().default(''),
    street: text().notNull().default(''),
    city: text().notNull().default(''),
    state: text().notNull().default(''),
    zip: text().notNull().default(''),
    country: text().notNull().default(''),
    clinicName: text().notNull().default(''),
    preferredAddressContactFullName: text().notNull().default(''),
    shippingClinicEmail: text().notNull().default(''),
    preferredAddressPhone: text().notNull().default(''),
    preferredAddressStreet: text().notNull().default(''),
    preferredAddressCity: text().notNull().default(''),
    preferredAddressState: text().notNull().default(''),
    preferredAddressZip: text().notNull().default(''),
    preferredAddressCountry: text().notNull().default(''),
    annualStoragePaidUntil: date({ mode: 'string' }),
    longevityVialsAvailable: integer().notNull().default(0),
    bioInsuranceVialsAvailable: integer().notNull().default(0),
    initialProcessingFormCompleted: boolean().notNull().default(false),
    clientConsentFormCompleted: boolean().notNull().default(false),
    infectiousDiseaseFormCompleted: boolean().notNull().default(false),
    arbSubscribed: boolean().notNull().default(false),
    physicianFormAgreement: boolean().notNull().default(false),
    dateBankedIn: date({ mode: 'string' }),
    /** The Enrollment Date of the consent agreement (the physician consent sets it). */
    enrollmentDate: date({ mode: 'string' }),
    lastBioInsurancePurchasedDate: date({ mode: 'string' }),
    /**
     * When the e-mail address last changed (null: the address the client was registered with).
     * Recovery codes are not sent to an address younger than a day.
     */
    emailChangedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [
    uniqueIndex('clients_client_act_id_key').on(sql`upper(${t.clientActId})`),
    index('clients_email_idx').on(sql`lower(${t.email})`),
  ],
);

export const physicians = pgTable(
  'physicians',
  {
    id: uuid().primaryKey().defaultRandom(),
    physicianActId: text().notNull(),
    passwordHash: text(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('physicians_physician_act_id_key').on(sql`upper(${t.physicianActId})`)],
);

/** Which clients a physician may act for. */
export const physicianClients = pgTable(
  'physician_clients',
  {
    physicianId: uuid()
      .notNull()
      .references(() => physicians.id, { onDelete: 'cascade' }),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.physicianId, t.clientId] }), index().on(t.clientId)],
);

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

/** One year of annual storage: due on its date, overdue while unpaid past it. */
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
    createdAt: createdAt(),
  },
  (t) => [index().on(t.clientId)],
);

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

export const clientActivities = pgTable(
  'client_activities',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    doseAmount: integer(),
    closeDate: date({ mode: 'string' }),
    purchasedPlanName: text(),
    stageName: text(),
    cellRequestApprovedByPractitioner: boolean(),
    /** The ledger row of the payment this activity records, when it records one (once per payment). */
    paymentId: uuid(),
    amountCents: integer(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.clientId, t.closeDate), uniqueIndex('client_activities_payment_key').on(t.paymentId)],
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

/**
 * Consecutive failed sign-ins per Client ID as typed (upper-cased), or `physician:` and the
 * Physician ID, whether or not it exists, so a lock answers the same for real and unknown IDs.
 */
export const loginFailures = pgTable('login_failures', {
  loginKey: text().primaryKey(),
  failures: integer().notNull().default(0),
  lastFailureAt: timestamp({ withTimezone: true }).notNull(),
  lockedUntil: timestamp({ withTimezone: true }),
});

/** Fixed-window counters for rate limits, shared by every server process. */
export const rateLimits = pgTable('rate_limits', {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true }).notNull(),
  hits: integer().notNull(),
});

export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Whose code it is: a client's or a physician's (exactly one of the two). */
    clientId: uuid().references(() => clients.id, { onDelete: 'cascade' }),
    physicianId: uuid().references(() => physicians.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    attempts: integer().notNull().default(0),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index().on(t.clientId, t.createdAt),
    index().on(t.physicianId, t.createdAt),
    check('password_reset_codes_one_owner', sql`num_nonnulls(${t.clientId}, ${t.physicianId}) = 1`),
  ],
);

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

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
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
      enum: ['lab_report', 'signed_agreement', 'signature', 'form_answers', 'receipt'],
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
 * A client's submission of a form (the consent agreement, the infectious disease screening).
 * One per client and form: the unique key claims the form before anything is charged, so a
 * second submission, concurrent or later, changes nothing that was signed. The answers and the
 * signature are documents (encrypted); the row keeps the facts of the signing.
 */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    form: text({ enum: ['consent', 'infectious_disease'] }).notNull(),
    /** rejected: staff refused its lab report; the client's screening is open again. */
    status: text({ enum: ['pending', 'completed', 'rejected'] }).notNull(),
    idempotencyKey: text().notNull(),
    requestHash: text().notNull(),
    submissionOption: text(),
    agreementVersion: text(),
    agreementSha256: text(),
    answersDocumentId: uuid(),
    signatureDocumentId: uuid(),
    pdfDocumentId: uuid(),
    labReportDocumentId: uuid(),
    paymentId: uuid(),
    operationId: uuid(),
    signerIp: text(),
    userAgent: text(),
    /** The physician who submitted the form for the client (the physician variants). */
    physicianId: uuid().references(() => physicians.id, { onDelete: 'set null' }),
    responseJson: text(),
    /** Staff's review of the uploaded lab report (null: awaiting review), by whom, when, why not. */
    labReportReview: text({ enum: ['accepted', 'rejected'] }),
    labReportReviewedBy: uuid(),
    labReportReviewedAt: timestamp({ withTimezone: true }),
    labReportRejectionReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // A rejected submission stays as history; the client may submit the form again.
    uniqueIndex('form_submissions_client_form_key')
      .on(t.clientId, t.form)
      .where(sql`${t.status} <> 'rejected'`),
    index().on(t.form, t.status, t.completedAt),
  ],
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
 * A new sample sent by a physician (initial sample processing, send_ProcessData): it registers the
 * client and pays the up-front banking fee by card, or waits for the check in the shipment.
 */
export const sampleSubmissions = pgTable(
  'sample_submissions',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    physicianId: uuid()
      .notNull()
      .references(() => physicians.id, { onDelete: 'cascade' }),
    tissue: text({ enum: ['Adipose', 'Bone_marrow'] }).notNull(),
    shipDate: date({ mode: 'string' }).notNull(),
    paymentKind: text({ enum: ['card', 'check'] }).notNull(),
    /** pending while the submission runs; paid by card; awaiting_check until the bank records it. */
    status: text({ enum: ['pending', 'paid', 'awaiting_check'] }).notNull(),
    amountCents: integer().notNull(),
    feeCents: integer().notNull(),
    totalCents: integer().notNull(),
    paymentId: uuid(),
    billingName: text(),
    billingEmail: text(),
    operationId: uuid(),
    /** The check staff recorded when it arrived: its number, amount, date, who and when. */
    checkNumber: text(),
    checkAmountCents: integer(),
    checkDate: date({ mode: 'string' }),
    checkRecordedBy: uuid(),
    checkRecordedAt: timestamp({ withTimezone: true }),
    /**
     * The tissue's arrival, recorded by staff: its date (the client's banked date, from which
     * every storage year runs), the vials banked, who recorded it and when.
     */
    receivedOn: date({ mode: 'string' }),
    vialsBanked: integer(),
    receivedBy: uuid(),
    receivedRecordedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.physicianId, t.createdAt), index().on(t.clientId), index().on(t.status)],
);

/** A single-use link, valid 7 days, for a new client to set their password (stored hashed). */
export const welcomeLinks = pgTable(
  'welcome_links',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('welcome_links_token_hash_key').on(t.tokenHash), index().on(t.clientId)],
);

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
    status: text({ enum: ['pending', 'requested', 'approved', 'shipped', 'delivered'] }).notNull(),
    vials: integer().notNull(),
    bioInsuranceVialsUsed: integer().notNull(),
    longevityVialsUsed: integer().notNull(),
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
    processingFeeCents: integer().notNull(),
    totalCents: integer().notNull(),
    paymentMethod: text().notNull(),
    paymentDescription: text().notNull().default(''),
    /** ACT VIP: the bank confirms the shipping price later; it is not charged with the order. */
    shippingPriceToBeConfirmed: boolean().notNull(),
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
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId, t.createdAt),
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
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId, t.createdAt),
    index().on(t.status),
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
    status: text({ enum: ['pending', 'ordered', 'shipped', 'delivered'] }).notNull(),
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
    deliveredAt: timestamp({ withTimezone: true }),
    deliveredBy: uuid(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId, t.createdAt),
    index().on(t.status),
    uniqueIndex('store_orders_operation_key').on(t.operationId),
  ],
);

/**
 * The bank's staff: e-mail (unique whatever its case), password, level, and a TOTP second factor
 * whose secret is encrypted at rest (AES-256-GCM under the documents key), null until enrolled.
 */
export const staffAccounts = pgTable(
  'staff_accounts',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    name: text().notNull(),
    passwordHash: text().notNull(),
    level: text({ enum: ['staff', 'admin'] }).notNull(),
    /** The enrolled TOTP secret, sealed (iv, tag and ciphertext, base64); null until enrolment. */
    totpSecretSealed: text(),
    /** A secret offered at enrolment, sealed, until a code from it confirms it. */
    pendingTotpSecretSealed: text(),
    /** The time step of the last code accepted: a code is good once. */
    lastTotpTimeStep: integer(),
    /** Created by an admin (who saw the initial password): the member sets their own at first sign-in. */
    mustChangePassword: boolean().notNull().default(false),
    disabledAt: timestamp({ withTimezone: true }),
    createdBy: uuid(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('staff_accounts_email_key').on(sql`lower(${t.email})`)],
);

/** A staff member's recovery codes: keyed hashes (HMAC-SHA-256), each good once. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    staffId: uuid()
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.staffId)],
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
    ip: text().notNull(),
    statusCode: integer().notNull(),
  },
  (t) => [index().on(t.clientId, t.at), index().on(t.at)],
);

/**
 * A newborn's finance agreement (spec 3): the plan's figures as the main contact is to sign them,
 * and once signed when, from where, and the signed PDF (a document). Opened by a signed, expiring
 * link naming its id (src/server/lib/link-tokens.ts); signed once (`signed_at` set with the
 * document in one transaction).
 */
export const newbornAgreements = pgTable(
  'newborn_agreements',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    mainContact: text().notNull(),
    mainContactEmail: text().notNull(),
    patientId: text().notNull(),
    annualBankingFeeCents: integer().notNull(),
    bioInsuranceFeeCents: integer().notNull(),
    downPaymentCents: integer().notNull(),
    initialProcessingFeeCents: integer().notNull(),
    interestRateBasisPoints: integer().notNull(),
    installments: integer().notNull(),
    totalFinancedCents: integer().notNull(),
    signedAt: timestamp({ withTimezone: true }),
    signerIp: text(),
    userAgent: text(),
    documentId: uuid().references(() => documents.id),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId),
    check('newborn_agreements_installments_check', sql`${t.installments} >= 1`),
    check(
      'newborn_agreements_amounts_check',
      sql`${t.totalFinancedCents} >= 0 and ${t.interestRateBasisPoints} >= 0 and ${t.downPaymentCents} >= 0`,
    ),
  ],
);

/**
 * Staff corrections of a client's profile (issue 11): one row per changed field, with who made
 * it and when; shown on the staff client record as "Profile changes". Append-only.
 */
export const clientProfileChanges = pgTable(
  'client_profile_changes',
  {
    id: uuid().primaryKey().defaultRandom(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    staffId: uuid()
      .notNull()
      .references(() => staffAccounts.id),
    at: timestamp({ withTimezone: true }).notNull(),
    field: text().notNull(),
    oldValue: text().notNull(),
    newValue: text().notNull(),
  },
  (t) => [index().on(t.clientId, t.at)],
);

/**
 * The price book's versions (issue 11): the amounts of one version (`PriceAmounts`, integer cents)
 * and the day it takes effect in the bank's time zone. An order is priced by the newest version
 * whose day has come (ties: the later version). Rows are never changed, except that a version not
 * yet in force may be withdrawn (it then never applies). With no row in force, the book as shipped
 * (version 0) applies.
 */
export const priceBookVersions = pgTable(
  'price_book_versions',
  {
    version: integer().primaryKey().generatedAlwaysAsIdentity(),
    effectiveOn: date({ mode: 'string' }).notNull(),
    amounts: jsonb().$type<Record<string, number>>().notNull(),
    note: text().notNull(),
    createdBy: uuid()
      .notNull()
      .references(() => staffAccounts.id),
    createdAt: createdAt(),
    withdrawnAt: timestamp({ withTimezone: true }),
    withdrawnBy: uuid().references(() => staffAccounts.id),
    /**
     * A version raising the ACT VIP approval limit counts (in force or scheduled) only once an admin
     * other than its author approves it: one admin alone never lifts the second approval.
     */
    approvalRequired: boolean().notNull().default(false),
    approvedAt: timestamp({ withTimezone: true }),
    approvedBy: uuid().references(() => staffAccounts.id),
  },
  (t) => [index().on(t.effectiveOn)],
);
