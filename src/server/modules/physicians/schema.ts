import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';

/**
 * The physicians module's table: a physician's account. Only this module's folder imports it; the
 * other modules call its functions (scripts/check-boundaries.ts).
 */

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
