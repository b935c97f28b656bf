import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { physicians } from '../physicians/schema';

/**
 * The clients module's tables: a client's record (contact, addresses, vials, forms done), the
 * activity timeline shown to them, and the physicians who may act for them. Only this module's
 * folder imports them; the other modules call its functions (scripts/check-boundaries.ts).
 */

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
    /** The refund or void this activity records, when it records one (its receipt is the refund's). */
    refundId: uuid(),
    amountCents: integer(),
    /** The vial request this activity records, when it records one: the row links to its page. */
    cellRequestId: uuid(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.clientId, t.closeDate),
    uniqueIndex('client_activities_payment_key').on(t.paymentId),
    uniqueIndex('client_activities_refund_key').on(t.refundId),
  ],
);

/** Which clients a physician may act for (the physicians' access to a client, see client-access.ts). */
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
