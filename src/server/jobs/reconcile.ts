import { and, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { DRAFT_RETENTION_MS } from '../../domain/form-drafts';
import type { AppDeps } from '../app-deps';
import { documents, operations, rateLimits, sandboxTokens, sessions } from '../db/schema';
import { lapsedOperations, type Recovered, type RecoveryRun, recoverLapsed } from '../lib/run-once';
import { deleteResetCodesExpiredBefore } from '../modules/auth/auth-service';
import { deleteFormDraftsSavedBefore } from '../modules/forms/form-drafts';
import { formRecoveries } from '../modules/forms/form-recoveries';
import { initialProcessingRecoveries } from '../modules/initial-processing/sample-service';
import { agreementPaymentRecoveries } from '../modules/newborn-agreement/newborn-agreement-account';
import { newbornInstallmentRecoveries } from '../modules/newborn-agreement/newborn-installments';
import { newbornSigningRecoveries } from '../modules/newborn-agreement/newborn-signing';
import { sendCancellationRefunds } from '../modules/ordering/cell-request-cancellation';
import { cellRequestRecoveries } from '../modules/ordering/cell-request-service';
import { sendPlanTakeBackRefunds } from '../modules/ordering/storage-plan-refund';
import { storagePlanRecoveries } from '../modules/ordering/storage-plan-service';
import { sendStoreCancellationRefunds } from '../modules/ordering/store-cancellation';
import { storeRecoveries } from '../modules/ordering/store-service';
import { pollStoreShipments, storeLabelRecoveries } from '../modules/ordering/store-shipping';
import { pollShipments, vialLabelRecoveries } from '../modules/ordering/vial-shipping';
import { billingRunRecoveries, renewalDeps } from '../modules/payments/billing-routes';
import { paymentRecoveries } from '../modules/payments/payment-service';
import { deleteExpiredPaymentVerifications } from '../modules/payments/payment-verifications';
import { physicianMethodRecoveries } from '../modules/payments/physician-payment-method';
import { refundRecoveries } from '../modules/payments/refunds';
import { storageRenewalRecoveries } from '../modules/payments/renewal-outcomes';
import { staffQueueRecoveries } from '../modules/staff/queues';

type Recovery = (run: RecoveryRun<never>, claimed: never) => Promise<Recovered>;

export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Each kind of run-once operation's recovery: the sweep's, and the payments-in-doubt queue's. */
export function recoveriesByKind(deps: AppDeps, log: Log): Record<string, Recovery> {
  const paymentDeps = { ...deps, log };
  return {
    ...paymentRecoveries(paymentDeps),
    ...physicianMethodRecoveries(),
    ...formRecoveries(paymentDeps),
    ...initialProcessingRecoveries({
      ...paymentDeps,
      publicUrl: deps.config.publicUrl,
    }),
    ...cellRequestRecoveries(paymentDeps),
    ...vialLabelRecoveries(deps),
    ...storeLabelRecoveries(deps),
    ...storagePlanRecoveries(paymentDeps),
    ...storeRecoveries(paymentDeps),
    ...newbornSigningRecoveries({ ...paymentDeps, publicUrl: deps.config.publicUrl }),
    ...agreementPaymentRecoveries(paymentDeps),
    ...staffQueueRecoveries(paymentDeps),
    ...storageRenewalRecoveries({ ...renewalDeps(deps), log }),
    ...newbornInstallmentRecoveries({ ...renewalDeps(deps), log }),
    ...billingRunRecoveries,
    ...refundRecoveries(paymentDeps),
  };
}

/**
 * The reconciliation sweep: every operation whose owner died (its lease lapsed) is settled by
 * its kind's recovery: a charge sent without a recorded outcome is looked up at the gateway by
 * our reference and applied once or given back; a signing cut short gives its form back and
 * removes what it had stored. Safe in several processes at once: each operation is taken over
 * by exactly one of them.
 */
export async function reconcile(deps: AppDeps, log: Log): Promise<{ settled: number }> {
  const recoveries = recoveriesByKind(deps, log);
  let settled = 0;
  for (const op of await lapsedOperations(deps)) {
    const recover = recoveries[op.kind];
    if (!recover) {
      log.warn({ operation: { id: op.id, kind: op.kind } }, 'no recovery for this kind of operation');
      continue;
    }
    try {
      if (await recoverLapsed(deps, op.id, recover)) settled += 1;
    } catch (error) {
      log.warn(
        { operation: { id: op.id, kind: op.kind, error: error instanceof Error ? error.name : 'Error' } },
        'reconciliation of an operation failed; it is tried again at the next sweep',
      );
    }
  }
  if (settled > 0) log.info({ settled }, 'reconciliation settled interrupted operations');
  // The refunds cancelled requests, store orders and plans taken back still owe (one refused while its charge settles, or cut short),
  // and the shipments on their way (each asked about every quarter of an hour).
  const steps = [
    ['the owed refunds', () => sendCancellationRefunds({ ...deps, log })],
    ["the store orders' owed refunds", () => sendStoreCancellationRefunds({ ...deps, log })],
    ["the storage plans' take-back refunds", () => sendPlanTakeBackRefunds({ ...deps, log })],
    ['the shipments', () => pollShipments(deps)],
    ['the store shipments', () => pollStoreShipments(deps)],
  ] as const;
  for (const [what, step] of steps) {
    try {
      await step();
    } catch (error) {
      log.warn(
        { error: error instanceof Error ? error.name : 'Error' },
        `${what} were not looked at; next sweep`,
      );
    }
  }
  return { settled };
}

const DAY_MS = 24 * 60 * 60_000;
/** Idempotency records answer repeats for a week, then go. */
const OPERATION_RETENTION_MS = 7 * DAY_MS;

/**
 * Clean-up: documents stored by operations that failed (a signing given back), and rows that
 * have expired (sessions, counters, confirmations, tokens, codes, old idempotency records, form
 * drafts not saved for 7 days).
 */
export async function cleanUp(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const failedOps = db
    .select({ id: operations.id })
    .from(operations)
    .where(sql`${operations.status} = 'failed'`);
  await db
    .delete(documents)
    .where(and(isNotNull(documents.operationId), inArray(documents.operationId, failedOps)));
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - DAY_MS)));
  await deleteExpiredPaymentVerifications(db, now);
  await db
    .delete(sandboxTokens)
    .where(
      or(isNotNull(sandboxTokens.usedAt), lt(sandboxTokens.createdAt, new Date(now.getTime() - DAY_MS))),
    );
  await deleteResetCodesExpiredBefore(db, new Date(now.getTime() - DAY_MS));
  await deleteFormDraftsSavedBefore(db, new Date(now.getTime() - DRAFT_RETENTION_MS));
  await db
    .delete(operations)
    .where(
      and(
        sql`${operations.status} <> 'running'`,
        lt(operations.createdAt, new Date(now.getTime() - OPERATION_RETENTION_MS)),
      ),
    );
}
