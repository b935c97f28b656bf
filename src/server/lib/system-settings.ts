import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { systemSettings } from '../db/system-schema';
import type { Transaction } from './run-once';

/**
 * The installation's key-value settings (staff blackout dates, that demo data was seeded): the
 * platform owns the table, a module reads and writes its own keys through these.
 */

type Reader = Database | Transaction;

/** The setting's value; null when it was never set. */
export async function readSetting(db: Reader, key: string): Promise<string | null> {
  const [row] = await db
    .select({ value: systemSettings.value })
    .from(systemSettings)
    .where(eq(systemSettings.key, key))
    .limit(1);
  return row?.value ?? null;
}

export async function writeSetting(db: Reader, key: string, value: string): Promise<void> {
  await db
    .insert(systemSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value } });
}

/**
 * Locks the setting's row until the caller's transaction ends (creating it with `initial` first
 * when it was never set), so two changes of it run one after the other.
 */
export async function lockSetting(tx: Transaction, key: string, initial: string): Promise<void> {
  await tx
    .insert(systemSettings)
    .values({ key, value: initial })
    .onConflictDoNothing({ target: systemSettings.key });
  await tx
    .select({ key: systemSettings.key })
    .from(systemSettings)
    .where(eq(systemSettings.key, key))
    .for('update');
}
