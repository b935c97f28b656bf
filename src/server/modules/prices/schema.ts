import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { staffAccounts } from '../staff/schema';

/**
 * The prices module's table: the price book's versions. Only this module's folder imports them; the
 * other modules call its functions (scripts/check-boundaries.ts).
 */

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
