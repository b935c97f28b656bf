import { date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { recordedCheck } from '../../db/columns';
import { clients } from '../clients/schema';
import { physicians } from '../physicians/schema';

/**
 * The initial processing module's tables: new samples sent by physicians and the welcome links of
 * the clients they registered. Only this module's folder imports them; the other modules call its
 * functions (scripts/check-boundaries.ts).
 */

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
    ...recordedCheck(),
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
