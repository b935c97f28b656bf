import { lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { paymentVerifications } from './schema';

/** Forgets the public payment pages' identifications that have expired (the clean-up job). */
export async function deleteExpiredPaymentVerifications(db: Database, now: Date): Promise<void> {
  await db.delete(paymentVerifications).where(lt(paymentVerifications.expiresAt, now));
}
