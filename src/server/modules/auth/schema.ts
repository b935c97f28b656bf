import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { clients } from '../clients/schema';
import { physicians } from '../physicians/schema';

/**
 * The auth module's tables: failed sign-ins and password reset codes. Only this module's folder
 * imports them; the other modules call its functions (scripts/check-boundaries.ts).
 */

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
