import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { documents } from '../../db/system-schema';
import { clients } from '../clients/schema';

/**
 * The newborn agreement module's tables: a newborn's finance agreement and its installments. Only this module's folder
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
    /** The late charge of the terms signed: the price book's, of the version in force at signing. */
    lateChargeCents: integer().notNull().default(5000),
    totalFinancedCents: integer().notNull(),
    signedAt: timestamp({ withTimezone: true }),
    signerIp: text(),
    userAgent: text(),
    documentId: uuid().references(() => documents.id),
    /** The signing's operation holding the agreement while its deposit is charged (see newborn-signing.ts). */
    signingOperationId: uuid(),
    /** How the deposit was paid and the installments are charged (the client's method on file of this kind). */
    paymentKind: text({ enum: ['card', 'ach'] }),
    /** The deposit's payment in the ledger, and what it charged (the deposit and its card fee). */
    depositPaymentId: uuid(),
    depositTotalCents: integer(),
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
 * One monthly installment of a signed agreement, written at signing from its schedule
 * (src/domain/newborn-agreement.ts `installmentSchedule`): charged on its due date to the method
 * on file (newborn-installments.ts), held by `claimOperationId` while it charges so that two
 * processes or two days never charge it twice; a decline is tried again on days 3, 7 and 14
 * (a soft one); still unpaid 30 days after its due date it takes one late charge.
 */
export const newbornInstallments = pgTable(
  'newborn_installments',
  {
    id: uuid().primaryKey().defaultRandom(),
    agreementId: uuid()
      .notNull()
      .references(() => newbornAgreements.id, { onDelete: 'cascade' }),
    clientId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    number: integer().notNull(),
    dueDate: date({ mode: 'string' }).notNull(),
    paymentCents: integer().notNull(),
    interestCents: integer().notNull(),
    principalCents: integer().notNull(),
    balanceCents: integer().notNull(),
    /** due: to charge on its due date; retrying: declined, tried again on `nextTryOn`; unpaid: declined with no try left; late: unpaid 30 days after its due date (its late charge added); paid. */
    status: text({ enum: ['due', 'retrying', 'unpaid', 'late', 'paid'] })
      .notNull()
      .default('due'),
    tries: integer().notNull().default(0),
    nextTryOn: date({ mode: 'string' }),
    lastDecline: text(),
    lateChargeCents: integer().notNull().default(0),
    claimOperationId: uuid(),
    paidAt: timestamp({ withTimezone: true }),
    /** The billing day it was paid. */
    paidOn: date({ mode: 'string' }),
    paymentId: uuid(),
    /** What the payment charged: the installment, any late charge and the card fee. */
    paidTotalCents: integer(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('newborn_installments_number_key').on(t.agreementId, t.number),
    index().on(t.clientId),
    index('newborn_installments_open_idx').on(t.status, t.dueDate).where(sql`${t.status} <> 'paid'`),
    check('newborn_installments_amounts_check', sql`${t.paymentCents} >= 0 and ${t.lateChargeCents} >= 0`),
  ],
);
