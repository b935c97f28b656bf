import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clients } from '../clients/schema';
import { physicians } from '../physicians/schema';

/**
 * The forms module's table: a client's submissions of the consent and infectious disease forms.
 * Only this module's folder imports them; the other modules call its functions (scripts/check-
 * boundaries.ts).
 */

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
 * A form's unsent answers (issue 24): one per form, client and whoever fills it in (the client,
 * or a physician for them: `physicianId`). `sealed` is the JSON sealed under the documents key
 * (sealed-text.ts), never card data or a signature (domain/form-drafts.ts). Deleted when the
 * form is submitted, and by the clean-up job 7 days after the last save.
 */
export const formDrafts = pgTable(
  'form_drafts',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** `form:client:physician-or-self`: the one draft of this form for this person and client. */
    draftKey: text().notNull().unique(),
    form: text({ enum: ['consent', 'client-information'] }).notNull(),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    physicianId: uuid().references(() => physicians.id, { onDelete: 'cascade' }),
    sealed: text().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.clientId, t.form), index().on(t.updatedAt)],
);
