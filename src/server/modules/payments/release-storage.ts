import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { todayFor } from '../../../domain/client';
import { addYears } from '../../../domain/dates';
import type { OverdueStorageYear } from '../../../domain/release-readiness';
import type { Executor } from '../../db/client';
import type { Transaction } from '../../lib/run-once';
import { extendStoragePaidUntil } from '../clients/client-holdings';
import { annualStorageFees } from './schema';

/**
 * Annual storage and vial releases (DESIGN.md 8 item 30): the years that hold a release are the
 * overdue ones; a year still in its retry days does not. An order that pays them claims them with
 * its operation (as a renewal's charge holds its year), so Payment Information, a payment link or
 * a second order finds them taken; its confirmation marks them paid, its give-back frees them.
 */

/** The years holding a release (overdue, unpaid), oldest first, and the next retry of a year in its retry days. */
export async function storageHoldingRelease(
  db: Executor,
  clientId: string,
): Promise<{ overdueYears: OverdueStorageYear[]; retryingOn: string | null }> {
  const rows = await db
    .select()
    .from(annualStorageFees)
    .where(
      and(
        eq(annualStorageFees.clientId, clientId),
        inArray(annualStorageFees.status, ['overdue', 'retrying']),
        isNull(annualStorageFees.paidAt),
      ),
    )
    .orderBy(asc(annualStorageFees.dueDate));
  const retrying = rows
    .filter((r) => r.status === 'retrying')
    .map((r) => r.nextTryOn ?? r.dueDate)
    .sort();
  return {
    // With the amounts its notice fixed: a request pays each at its method's (storageYearsCharge).
    overdueYears: rows
      .filter((r) => r.status === 'overdue')
      .map((r) => ({
        id: r.id,
        dueDate: r.dueDate,
        amountCents: r.amountCents,
        achAmountCents: r.achAmountCents,
      })),
    retryingOn: retrying[0] ?? null,
  };
}

/**
 * Holds the priced overdue years for an order's operation, in its claim's transaction. 'changed':
 * one was paid or waived since it was priced; 'busy': another payment holds one now.
 */
export async function claimOverdueYears(
  tx: Transaction,
  input: { clientId: string; feeIds: readonly string[]; operationId: string },
): Promise<'claimed' | 'changed' | 'busy'> {
  if (input.feeIds.length === 0) return 'claimed';
  const claimed = await tx
    .update(annualStorageFees)
    .set({ claimOperationId: input.operationId })
    .where(
      and(
        eq(annualStorageFees.clientId, input.clientId),
        inArray(annualStorageFees.id, [...input.feeIds]),
        eq(annualStorageFees.status, 'overdue'),
        isNull(annualStorageFees.paidAt),
        isNull(annualStorageFees.paymentId),
        isNull(annualStorageFees.claimOperationId),
      ),
    )
    .returning({ id: annualStorageFees.id });
  if (claimed.length === input.feeIds.length) return 'claimed';
  const rows = await tx
    .select()
    .from(annualStorageFees)
    .where(inArray(annualStorageFees.id, [...input.feeIds]));
  const stillOwed = rows.every((r) => r.status === 'overdue' && r.paidAt === null);
  // The transaction is rolled back by the caller's refusal: nothing stays claimed.
  return stillOwed ? 'busy' : 'changed';
}

/**
 * The order was paid: its years are paid by its charge, and storage is paid until the end of the
 * last of them. Returns how many years it paid.
 */
export async function payClaimedOverdueYears(
  tx: Transaction,
  input: { clientId: string; operationId: string; paymentId: string | null; now: Date },
): Promise<number> {
  const paid = await tx
    .update(annualStorageFees)
    .set({
      status: 'paid',
      paidAt: input.now,
      paidOn: todayFor(input.now),
      paymentId: input.paymentId,
      claimOperationId: null,
      nextTryOn: null,
    })
    .where(
      and(
        eq(annualStorageFees.clientId, input.clientId),
        eq(annualStorageFees.claimOperationId, input.operationId),
        isNull(annualStorageFees.paidAt),
      ),
    )
    .returning({ dueDate: annualStorageFees.dueDate, coversUntil: annualStorageFees.coversUntil });
  const paidUntil = paidUntilAfter(paid);
  if (paidUntil) await extendStoragePaidUntil(tx, input.clientId, paidUntil, input.now);
  return paid.length;
}

/** Storage is paid until the end of the last year paid: its next anniversary (older rows: a year on). */
export function paidUntilAfter(years: readonly { dueDate: string; coversUntil: string | null }[]) {
  return years
    .map((r) => r.coversUntil ?? addYears(r.dueDate, 1))
    .sort()
    .at(-1);
}

/** The order was given back: its years are owed again, free for any payment. */
export async function releaseOverdueYears(tx: Transaction, operationId: string): Promise<void> {
  await tx
    .update(annualStorageFees)
    .set({ claimOperationId: null })
    .where(and(eq(annualStorageFees.claimOperationId, operationId), isNull(annualStorageFees.paidAt)));
}
