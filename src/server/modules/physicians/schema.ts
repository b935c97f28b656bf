import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { clients } from '../clients/schema';

/**
 * The physicians module's tables: a physician's account and the clients they may act for. Only this
 * module's folder imports them; the other modules call its functions (scripts/check-boundaries.ts).
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
