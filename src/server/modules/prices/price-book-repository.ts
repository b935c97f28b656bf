import { and, desc, eq, gt, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { todayFor } from '../../../domain/client';
import {
  ENTRIES_ADDED_LATER,
  type PriceAmounts,
  type PriceBook,
  type PriceVersion,
  priceAmountsSchema,
  priceBookOf,
  SHIPPED_PRICE_AMOUNTS,
} from '../../../domain/price-book';
import type { Database, Executor } from '../../db/client';
import { staffNames } from '../staff/staff-accounts';
import { priceBookVersions } from './schema';

/** The book an order is priced by, and which version it is (0: as shipped). */
export interface PriceBookInForce {
  version: number;
  effectiveOn: string | null;
  amounts: PriceAmounts;
  book: PriceBook;
}

/**
 * The amounts a stored version holds. A row that no longer reads as a whole book (a key missing or
 * not whole cents) is a fault of ours, never something to price from: it throws rather than
 * quietly pricing an order at $0.
 */
function amountsOf(version: number, stored: unknown): PriceAmounts {
  // An entry added since the version was stored reads as shipped; any other gap is a fault.
  const withLater =
    typeof stored === 'object' && stored !== null ? { ...ENTRIES_ADDED_LATER, ...stored } : stored;
  const parsed = priceAmountsSchema.safeParse(withLater);
  if (!parsed.success) throw new Error(`price book version ${version} is not a whole book`);
  return parsed.data;
}

/**
 * A version that counts (in force, scheduled or past): not withdrawn, and approved by a second admin
 * when it raises the ACT VIP approval limit. One awaiting that approval never prices anything.
 */
const counts = and(
  isNull(priceBookVersions.withdrawnAt),
  or(eq(priceBookVersions.approvalRequired, false), isNotNull(priceBookVersions.approvedAt)),
);

/**
 * The version in force at an instant: the newest one whose day (in the bank's time zone) has come,
 * the later version on the same day, never a withdrawn one nor one awaiting approval; the book as
 * shipped before any.
 */
export async function priceBookInForce(db: Executor, at: Date): Promise<PriceBookInForce> {
  return priceBookOn(db, todayFor(at));
}

/** The version in force on a day (YYYY-MM-DD, the bank's): the billing run prices each day it runs by it. */
export async function priceBookOn(db: Executor, day: string): Promise<PriceBookInForce> {
  const inForce = await versionOn(db, day);
  return { ...inForce, book: priceBookOf(inForce.amounts) };
}

/** Every version, newest first, with the book as shipped last, each marked with its state on `today`. */
export async function priceVersions(db: Database, at: Date): Promise<PriceVersion[]> {
  const versions = await db
    .select()
    .from(priceBookVersions)
    .orderBy(desc(priceBookVersions.effectiveOn), desc(priceBookVersions.version));
  const names = await staffNames(
    db,
    versions.flatMap((row) => [row.createdBy, row.approvedBy]),
  );
  const rows = versions.map((row) => ({
    row,
    createdBy: names.get(row.createdBy) ?? null,
    approvedBy: row.approvedBy ? (names.get(row.approvedBy) ?? null) : null,
  }));
  const inForce = await priceBookInForce(db, at);
  const today = todayFor(at);
  const listed: PriceVersion[] = rows.map(({ row, createdBy, approvedBy }) => ({
    version: row.version,
    effectiveOn: row.effectiveOn,
    note: row.note,
    createdBy,
    createdAt: row.createdAt.toISOString(),
    withdrawnAt: row.withdrawnAt?.toISOString() ?? null,
    approvedBy: row.approvedAt ? approvedBy : null,
    state: row.withdrawnAt
      ? 'withdrawn'
      : row.approvalRequired && !row.approvedAt
        ? 'awaiting approval'
        : row.version === inForce.version
          ? 'in force'
          : row.effectiveOn > today
            ? 'scheduled'
            : 'past',
    amounts: amountsOf(row.version, row.amounts),
  }));
  listed.push({
    version: 0,
    effectiveOn: null,
    note: 'The prices as shipped',
    createdBy: null,
    createdAt: null,
    withdrawnAt: null,
    approvedBy: null,
    state: inForce.version === 0 ? 'in force' : 'past',
    amounts: SHIPPED_PRICE_AMOUNTS,
  });
  return listed;
}

/** The version in force on a day (the newest whose day has come by then), or the book as shipped. */
async function versionOn(
  db: Executor,
  day: string,
): Promise<{ version: number; effectiveOn: string | null; amounts: PriceAmounts }> {
  const [row] = await db
    .select()
    .from(priceBookVersions)
    .where(and(lte(priceBookVersions.effectiveOn, day), counts))
    .orderBy(desc(priceBookVersions.effectiveOn), desc(priceBookVersions.version))
    .limit(1);
  return row
    ? { version: row.version, effectiveOn: row.effectiveOn, amounts: amountsOf(row.version, row.amounts) }
    : { version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS };
}

const samePrices = (a: PriceAmounts, b: PriceAmounts) =>
  (Object.keys(SHIPPED_PRICE_AMOUNTS) as (keyof PriceAmounts)[]).every((key) => a[key] === b[key]);

/**
 * Adds a version (append-only); the caller has checked the day is today or later. Idempotent: when
 * the prices asked for are those in force on that day already (a double click, a retry, or no change
 * at all), or those of a version on that day still awaiting approval, nothing is added and that
 * version is the answer. The table lock makes two such requests at once add one version, not two.
 *
 * A version whose ACT VIP approval limit is above the lower of the limits in force today and on its
 * day awaits a second admin's approval (another admin than its author) before it counts: one admin
 * alone never lifts the second approval of a VIP price. Lowering or keeping the limit needs none.
 */
export async function addPriceVersion(
  db: Database,
  input: { effectiveOn: string; note: string; amounts: PriceAmounts; staffId: string; today: string },
): Promise<{ version: number; added: boolean; awaitingApproval: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${priceBookVersions} in exclusive mode`);
    const current = await versionOn(tx, input.effectiveOn);
    if (samePrices(current.amounts, input.amounts)) {
      return { version: current.version, added: false, awaitingApproval: false };
    }
    const awaiting = await tx
      .select()
      .from(priceBookVersions)
      .where(
        and(
          eq(priceBookVersions.effectiveOn, input.effectiveOn),
          isNull(priceBookVersions.withdrawnAt),
          eq(priceBookVersions.approvalRequired, true),
          isNull(priceBookVersions.approvedAt),
        ),
      );
    const same = awaiting.find((row) => samePrices(amountsOf(row.version, row.amounts), input.amounts));
    if (same) return { version: same.version, added: false, awaitingApproval: true };
    const todays = await versionOn(tx, input.today);
    const limitNow = Math.min(current.amounts.vipPriceApproval, todays.amounts.vipPriceApproval);
    const approvalRequired = input.amounts.vipPriceApproval > limitNow;
    const [row] = await tx
      .insert(priceBookVersions)
      .values({
        effectiveOn: input.effectiveOn,
        note: input.note,
        amounts: input.amounts,
        createdBy: input.staffId,
        approvalRequired,
      })
      .returning({ version: priceBookVersions.version });
    if (!row) throw new Error('price version not recorded');
    return { version: row.version, added: true, awaitingApproval: approvalRequired };
  });
}

/**
 * Approves a version awaiting approval, once: an admin other than its author (the conditional
 * update decides between two admins). It takes effect on its day, or on the day of the approval when
 * that day has passed (an order already placed keeps its price). The answer says what happened.
 */
export async function approvePriceVersion(
  db: Database,
  input: { version: number; staffId: string; at: Date },
): Promise<'approved' | 'own version' | 'not awaiting' | 'unknown'> {
  const today = todayFor(input.at);
  const changed = await db
    .update(priceBookVersions)
    .set({
      approvedAt: input.at,
      approvedBy: input.staffId,
      effectiveOn: sql`greatest(${priceBookVersions.effectiveOn}, ${today}::date)`,
    })
    .where(
      and(
        eq(priceBookVersions.version, input.version),
        eq(priceBookVersions.approvalRequired, true),
        isNull(priceBookVersions.approvedAt),
        isNull(priceBookVersions.withdrawnAt),
        ne(priceBookVersions.createdBy, input.staffId),
      ),
    )
    .returning({ version: priceBookVersions.version });
  if (changed.length > 0) return 'approved';
  const [row] = await db.select().from(priceBookVersions).where(eq(priceBookVersions.version, input.version));
  if (!row) return 'unknown';
  // Approved already by this admin (a double click): the same answer as the first.
  if (row.approvedBy === input.staffId && !row.withdrawnAt) return 'approved';
  const awaiting = row.approvalRequired && !row.approvedAt && !row.withdrawnAt;
  return awaiting && row.createdBy === input.staffId ? 'own version' : 'not awaiting';
}

/**
 * Withdraws a version not yet in force, once: the conditional update decides between two admins.
 * Whether it changed anything is the answer (false: in force already, past, withdrawn or unknown).
 */
export async function withdrawPriceVersion(
  db: Database,
  input: { version: number; staffId: string; at: Date },
): Promise<boolean> {
  const changed = await db
    .update(priceBookVersions)
    .set({ withdrawnAt: input.at, withdrawnBy: input.staffId })
    .where(
      and(
        eq(priceBookVersions.version, input.version),
        isNull(priceBookVersions.withdrawnAt),
        // Not yet in force: its day to come, or still awaiting approval (it never took effect).
        or(
          gt(priceBookVersions.effectiveOn, todayFor(input.at)),
          and(eq(priceBookVersions.approvalRequired, true), isNull(priceBookVersions.approvedAt)),
        ),
      ),
    )
    .returning({ version: priceBookVersions.version });
  return changed.length > 0;
}
