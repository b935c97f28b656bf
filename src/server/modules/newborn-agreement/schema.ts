import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { documents } from '../../db/system-schema';
import { clients } from '../clients/schema';

/**
 * The newborn agreement module's table: a newborn's finance agreement. Only this module's folder
 * imports them; the other modules call its functions (scripts/check-boundaries.ts).
 */

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
