import { isIsoDate } from '../../../domain/dates';
import type { Database, Executor } from '../../db/client';
import { lockSetting, readSetting, writeSetting } from '../../lib/system-settings';

/** Where staff blackout dates are kept: a JSON list of `YYYY-MM-DD` (staff screens will edit it). */
export const BLACKOUT_DATES_SETTING = 'shipment_blackout_dates';

/** The staff blackout dates: no FedEx shipment arrives on them. A malformed setting counts as none. */
export async function shipmentBlackoutDates(db: Database): Promise<string[]> {
  const value = await readSetting(db, BLACKOUT_DATES_SETTING);
  if (value === null) return [];
  try {
    const dates: unknown = JSON.parse(value);
    return Array.isArray(dates)
      ? dates.filter((d): d is string => typeof d === 'string' && isIsoDate(d))
      : [];
  } catch {
    return [];
  }
}

export async function setShipmentBlackoutDates(db: Executor, dates: readonly string[]): Promise<void> {
  const value = JSON.stringify([...new Set(dates.filter(isIsoDate))].sort());
  await writeSetting(db, BLACKOUT_DATES_SETTING, value);
}

/**
 * Adds or removes one blackout date, under a row lock so two admins' changes do not overwrite each
 * other. Idempotent: adding a listed date or removing an unlisted one changes nothing.
 */
export async function changeShipmentBlackoutDate(
  db: Database,
  change: 'add' | 'remove',
  date: string,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    await lockSetting(tx, BLACKOUT_DATES_SETTING, '[]');
    const current = await shipmentBlackoutDates(tx);
    const next = change === 'add' ? [...current, date] : current.filter((d) => d !== date);
    await setShipmentBlackoutDates(tx, next);
    return shipmentBlackoutDates(tx);
  });
}
