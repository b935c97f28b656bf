import { and, desc, eq, gte, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { todayFor } from '../../../domain/client-basics';
import { addDays, addYears, isIsoDate, isoToUsDate } from '../../../domain/dates';
import type { InstallmentRunCounts } from '../../../domain/newborn-agreement';
import type {
  BillingOverview,
  BillingRunResponse,
  BillingYear,
  RenewalStatus,
} from '../../../domain/storage-billing';
import {
  describeMethodOnFile,
  renewalMessages as m,
  NOTICE_DAYS_AHEAD,
  yearAmountCents,
} from '../../../domain/storage-billing';
import { HttpError } from '../../lib/http-error';
import { sha256Hex } from '../../lib/secrets';
import { clientContacts, clientFullName, clientIdsOfActIds } from '../clients/client-directory';
import { extendStoragePaidUntil } from '../clients/client-holdings';
import { findMethodsOnFile } from './payment-methods';
import type { RenewalDeps } from './renewal-outcomes';
import { annualStorageFees, billingRuns } from './schema';
import { type DayCounts, runBillingDay } from './storage-renewals';

/** How far ahead "Run billing as of…" may go (demo mode). */
export const BILLING_AHEAD_YEARS = 2;

/** The cursor a run keeps: 'all', or one per list of clients a test limits it to. */
export function billingRunScope(clientActIds: readonly string[] | undefined): string {
  if (!clientActIds) return 'all';
  const ids = [...new Set(clientActIds.map((id) => id.toUpperCase()))].sort();
  return `clients:${sha256Hex(ids.join(',')).slice(0, 32)}`;
}

/**
 * Another day's billing the run does after the storage renewals of each day (the newborn
 * installments), given by the composition points so this module does not import its owner.
 */
export type InstallmentsDay = (
  day: string,
  scope: { clientIds?: readonly string[] },
) => Promise<InstallmentRunCounts>;

/** The last day the run of this scope ran, if it ever did. */
export async function lastBillingDay(deps: Pick<RenewalDeps, 'db'>, scope = 'all'): Promise<string | null> {
  const [row] = await deps.db
    .select({ lastDay: billingRuns.lastDay })
    .from(billingRuns)
    .where(eq(billingRuns.scope, scope))
    .limit(1);
  return row?.lastDay ?? null;
}

/**
 * Runs billing for each day from the day after the last run (today, the first time) up to
 * `asOf`, once and in order, as the daily job would have: the application's clock is not moved.
 * Each day's work is safe to run twice (unique notices, claimed years, keyed charges), so two
 * processes running at once only repeat lookups.
 */
export async function runBilling(
  deps: RenewalDeps,
  input: { asOf: string; clientActIds?: readonly string[]; installmentsDay?: InstallmentsDay },
): Promise<BillingRunResponse> {
  const today = todayFor(deps.clock.now());
  const scope = billingRunScope(input.clientActIds);
  const last = await lastBillingDay(deps, scope);
  const from = last ? addDays(last, 1) : today;
  const clientIds = input.clientActIds ? await clientIdsOfActIds(deps.db, input.clientActIds) : undefined;
  // A run limited to clients none of whom exists has nothing to do (and keeps no cursor).
  if (clientIds?.length === 0) {
    return { days: 0, notices: 0, charges: 0, declines: 0, retries: 0, overdue: 0, from, asOf: input.asOf };
  }
  const totals: DayCounts & { days: number } = {
    days: 0,
    notices: 0,
    charges: 0,
    declines: 0,
    retries: 0,
    overdue: 0,
  };
  const installments = input.installmentsDay
    ? { reminders: 0, charges: 0, declines: 0, lateCharges: 0 }
    : undefined;
  for (let day = from; day <= input.asOf; day = addDays(day, 1)) {
    const counts = await runBillingDay(deps, day, {
      ...(clientIds ? { clientIds } : {}),
      ...(input.clientActIds ? { clientActIds: input.clientActIds } : {}),
    });
    totals.days += 1;
    totals.notices += counts.notices;
    totals.charges += counts.charges;
    totals.declines += counts.declines;
    totals.retries += counts.retries;
    totals.overdue += counts.overdue;
    if (input.installmentsDay && installments) {
      const done = await input.installmentsDay(day, clientIds ? { clientIds } : {});
      installments.reminders += done.reminders;
      installments.charges += done.charges;
      installments.declines += done.declines;
      installments.lateCharges += done.lateCharges;
    }
    const now = deps.clock.now();
    await deps.db
      .insert(billingRuns)
      .values({ scope, lastDay: day, updatedAt: now })
      .onConflictDoUpdate({
        target: billingRuns.scope,
        set: { lastDay: sql`greatest(${billingRuns.lastDay}, excluded.last_day)`, updatedAt: now },
      });
  }
  return { ...totals, from, asOf: input.asOf, ...(installments ? { installments } : {}) };
}

/** The day "Run billing as of…" may reach: two years from today. */
export function latestBillingDay(today: string): string {
  return addYears(today, BILLING_AHEAD_YEARS);
}

type FeeRow = typeof annualStorageFees.$inferSelect;

async function describeYears(deps: Pick<RenewalDeps, 'db'>, rows: FeeRow[]): Promise<BillingYear[]> {
  const contacts = await clientContacts(deps.db, [...new Set(rows.map((r) => r.clientId))]);
  const methods = new Map<string, { named: string; kind: 'card' | 'ach' | 'none' }>();
  for (const clientId of new Set(rows.map((r) => r.clientId))) {
    const onFile = await findMethodsOnFile(deps.db, clientId);
    const method = onFile.card ?? onFile.ach;
    methods.set(
      clientId,
      method
        ? { named: describeMethodOnFile(method), kind: method.kind }
        : { named: 'none on file', kind: 'none' },
    );
  }
  return rows.flatMap((row) => {
    const client = contacts.get(row.clientId);
    if (!client) return [];
    const method = methods.get(row.clientId) ?? { named: 'none on file', kind: 'none' as const };
    return [
      {
        id: row.id,
        clientActId: client.clientActId,
        clientName: clientFullName(client),
        yearNumber: row.yearNumber,
        dueDate: row.dueDate,
        chargeOn: row.chargeOn,
        amountCents: yearAmountCents(row, method.kind),
        status: row.status as RenewalStatus,
        method: method.named,
        tries: row.tries,
        nextTryOn: row.nextTryOn,
        lastDecline: row.lastDecline,
        paidOn: row.paidOn,
        note: row.note,
      },
    ];
  });
}

/** The billing day: today, or the day a demo run reached. */
export async function billingDayOf(deps: Pick<RenewalDeps, 'db' | 'clock'>) {
  const today = todayFor(deps.clock.now());
  const lastRunDay = await lastBillingDay(deps);
  return { day: lastRunDay && lastRunDay > today ? lastRunDay : today, lastRunDay };
}

/**
 * The Billing page: renewals due in the next 30 days (of the billing day), charged on that day,
 * failed and waiting for a retry, overdue, and recovered after a retry.
 */
export async function billingOverview(
  deps: RenewalDeps,
  demo: boolean,
): Promise<Omit<BillingOverview, 'installments'>> {
  const { day, lastRunDay } = await billingDayOf(deps);
  const select = (where: ReturnType<typeof and>, limit = 200) =>
    deps.db
      .select()
      .from(annualStorageFees)
      .where(where)
      .orderBy(desc(annualStorageFees.dueDate))
      .limit(limit);
  const [dueSoon, chargedToday, retrying, overdue, recovered] = await Promise.all([
    select(
      and(
        inArray(annualStorageFees.status, ['noticed']),
        gte(annualStorageFees.dueDate, day),
        lte(annualStorageFees.dueDate, addDays(day, NOTICE_DAYS_AHEAD)),
      ),
    ),
    select(and(eq(annualStorageFees.status, 'paid'), eq(annualStorageFees.paidOn, day))),
    select(eq(annualStorageFees.status, 'retrying')),
    select(eq(annualStorageFees.status, 'overdue')),
    select(and(eq(annualStorageFees.recovered, true), isNotNull(annualStorageFees.paidAt))),
  ]);
  return {
    today: day,
    lastRunDay,
    demo,
    dueSoon: await describeYears(deps, dueSoon),
    chargedToday: await describeYears(deps, chargedToday),
    retrying: await describeYears(deps, retrying),
    overdue: await describeYears(deps, overdue),
    recovered: await describeYears(deps, recovered),
  };
}

/** A client's billing schedule for their record: every storage year billed, newest first. */
export async function clientBillingYears(
  deps: Pick<RenewalDeps, 'db'>,
  clientId: string,
): Promise<BillingYear[]> {
  const rows = await deps.db
    .select()
    .from(annualStorageFees)
    .where(eq(annualStorageFees.clientId, clientId))
    .orderBy(desc(annualStorageFees.dueDate));
  return describeYears(deps, rows);
}

/**
 * An admin waives an open year (the bank forgives it: storage is paid through it) or defers its
 * charge to a later day, with a reason kept on the year (and the action in the audit trail).
 * A year being charged right now, paid or closed, is not changed.
 */
export async function changeBillingYear(
  deps: RenewalDeps,
  feeId: string,
  input: { action: 'waive' | 'defer'; reason: string; until?: string | undefined },
): Promise<{ message: string }> {
  const today = todayFor(deps.clock.now());
  const reason = input.reason.trim();
  if (!reason) throw new HttpError('VALIDATION', m.waiveReasonRequired, { reason: m.waiveReasonRequired });
  const until = input.until ?? '';
  if (input.action === 'defer' && (!isIsoDate(until) || until <= today || until > latestBillingDay(today))) {
    throw new HttpError('VALIDATION', m.deferDateInvalid, { until: m.deferDateInvalid });
  }
  return deps.db.transaction(async (tx) => {
    const [year] = await tx
      .update(annualStorageFees)
      .set(
        input.action === 'waive'
          ? { status: 'waived', nextTryOn: null, note: `Waived: ${reason}` }
          : {
              status: 'noticed',
              chargeOn: until,
              nextTryOn: null,
              note: `Deferred to ${isoToUsDate(until)}: ${reason}`,
            },
      )
      .where(
        and(
          eq(annualStorageFees.id, feeId),
          inArray(annualStorageFees.status, ['noticed', 'retrying', 'overdue']),
          isNull(annualStorageFees.claimOperationId),
          isNull(annualStorageFees.paymentId),
        ),
      )
      .returning();
    if (!year) throw new HttpError('NOT_ALLOWED_NOW', m.notOpen);
    if (input.action === 'waive') {
      await extendStoragePaidUntil(
        tx,
        year.clientId,
        year.coversUntil ?? addYears(year.dueDate, 1),
        deps.clock.now(),
      );
      return { message: m.waived };
    }
    return { message: m.deferred(until) };
  });
}
