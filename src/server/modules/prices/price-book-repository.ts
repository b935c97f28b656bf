import { and, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
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
import type { Database } from '../../db/client';
import { priceBookVersions, staffAccounts } from '../../db/schema';

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
 * The version in force at an instant: the newest one whose day (in the bank's time zone) has come,
 * the later version on the same day, never a withdrawn one; the book as shipped before any.
 */
export async function priceBookInForce(db: Database, at: Date): Promise<PriceBookInForce> {
  const inForce = await versionOn(db, todayFor(at));
  return { ...inForce, book: priceBookOf(inForce.amounts) };
}

/** Every version, newest first, with the book as shipped last, each marked with its state on `today`. */
export async function priceVersions(db: Database, at: Date): Promise<PriceVersion[]> {
  const rows = await db
    .select({ row: priceBookVersions, createdBy: staffAccounts.name })
    .from(priceBookVersions)
    .leftJoin(staffAccounts, eq(staffAccounts.id, priceBookVersions.createdBy))
    .orderBy(desc(priceBookVersions.effectiveOn), desc(priceBookVersions.version));
  const inForce = await priceBookInForce(db, at);
  const today = todayFor(at);
  const listed: PriceVersion[] = rows.map(({ row, createdBy }) => ({
    version: row.version,
    effectiveOn: row.effectiveOn,
    note: row.note,
    createdBy,
    createdAt: row.createdAt.toISOString(),
    withdrawnAt: row.withdrawnAt?.toISOString() ?? null,
    state: row.withdrawnAt
      ? 'withdrawn'
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
    state: inForce.version === 0 ? 'in force' : 'past',
    amounts: SHIPPED_PRICE_AMOUNTS,
  });
  return listed;
}

/** The version in force on a day (the newest whose day has come by then), or the book as shipped. */
async function versionOn(
  db: Database,
  day: string,
): Promise<{ version: number; effectiveOn: string | null; amounts: PriceAmounts }> {
  const [row] = await db
    .select()
    .from(priceBookVersions)
    .where(and(lte(priceBookVersions.effectiveOn, day), isNull(priceBookVersions.withdrawnAt)))
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
 * at all), nothing is added and that version is the answer. The table lock makes two such requests
 * at once add one version, not two.
 */
export async function addPriceVersion(
  db: Database,
  input: { effectiveOn: string; note: string; amounts: PriceAmounts; staffId: string },
): Promise<{ version: number; added: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${priceBookVersions} in exclusive mode`);
    const current = await versionOn(tx as unknown as Database, input.effectiveOn);
    if (samePrices(current.amounts, input.amounts)) return { version: current.version, added: false };
    const [row] = await tx
      .insert(priceBookVersions)
      .values({
        effectiveOn: input.effectiveOn,
        note: input.note,
        amounts: input.amounts,
        createdBy: input.staffId,
      })
      .returning({ version: priceBookVersions.version });
    if (!row) throw new Error('price version not recorded');
    return { version: row.version, added: true };
  });
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
        gt(priceBookVersions.effectiveOn, todayFor(input.at)),
      ),
    )
    .returning({ version: priceBookVersions.version });
  return changed.length > 0;
}
