import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { clients } from '../clients/schema';

/**
 * The staff module's tables: the bank's staff accounts, their recovery codes and their corrections
 * of client profiles. Only this module's folder imports them; the other modules call its functions
 * (scripts/check-boundaries.ts).
 */

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
