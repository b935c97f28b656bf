import { eq } from 'drizzle-orm';
import { todayFor } from '../../domain/client';
import { addDays } from '../../domain/dates';
import type { NewbornAgreementFigures } from '../../domain/newborn-agreement';
import { hashSecret } from '../lib/secrets';
import type { Database } from './client';
import { clients, newbornAgreements, systemSettings } from './schema';
import { DEMO_CLIENT_PASSWORD } from './seed';

/** The demo agreement's id: `npm run agreement-link` signs links to it without the database. */
export const DEMO_NEWBORN_AGREEMENT_ID = '6e3b0f7a-2c41-4d8e-9a5b-1f0c7d2e8a10';

/** Mia Nguyen's plan (ACT10020, a newborn banked from cord tissue): $2,670.00 at 6% over 12 months. */
export const DEMO_NEWBORN_FIGURES: NewbornAgreementFigures = {
  mainContact: 'Linh Nguyen',
  patientId: 'ACT10020',
  annualBankingFeeCents: 17_500,
  bioInsuranceFeeCents: 25_000,
  downPaymentCents: 25_000,
  initialProcessingFeeCents: 249_500,
  interestRateBasisPoints: 600,
  installments: 12,
  totalFinancedCents: 267_000,
};

/**
 * Demo data for the newborn finance agreement (beside the app in demo mode, like the back
 * office's): Mia Nguyen (ACT10020), a newborn client whose mother Linh is the main contact, with
 * one unsigned agreement. No other demo story uses her. Once.
 */
export async function seedDemoNewbornAgreement(db: Database, now: Date): Promise<boolean> {
  const [done] = await db
    .select()
    .from(systemSettings)
    .where(eq(systemSettings.key, 'demo_newborn_agreement_seeded'))
    .limit(1);
  if (done) return false;
  const today = todayFor(now);
  await db.transaction(async (tx) => {
    const [mia] = await tx
      .insert(clients)
      .values({
        clientActId: 'ACT10020',
        passwordHash: await hashSecret(DEMO_CLIENT_PASSWORD),
        firstName: 'Mia',
        lastName: 'Nguyen',
        dateOfBirth: addDays(today, -21),
        email: 'linh.nguyen@example.com',
        phone: '3055550190',
        street: '2100 Coral Way',
        city: 'Miami',
        state: 'FL',
        zip: '33145',
        country: 'United States',
        preferredAddressContactFullName: 'Linh Nguyen',
      })
      .onConflictDoNothing()
      .returning({ id: clients.id });
    if (mia) {
      await tx.insert(newbornAgreements).values({
        id: DEMO_NEWBORN_AGREEMENT_ID,
        clientId: mia.id,
        mainContactEmail: 'linh.nguyen@example.com',
        ...DEMO_NEWBORN_FIGURES,
        createdAt: now,
      });
    }
    await tx
      .insert(systemSettings)
      .values({ key: 'demo_newborn_agreement_seeded', value: now.toISOString() });
  });
  return true;
}
