import { and, eq, inArray, sql } from 'drizzle-orm';
import { todayFor } from '../../../domain/client-basics';
import { isoDateOf, isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { paymentPurposeLabel } from '../../../domain/receipt';
import { refundMessages as m, type RefundResponse, refundProblems } from '../../../domain/refunds';
import { amountToCents } from '../../../domain/staff-queues';
import { refundMessages as gatewayWords } from '../../adapters/payments/payment-gateway';
import type { Database, Executor } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { type Recovered, type RecoveryRun, runOnce, type Transaction } from '../../lib/run-once';
import { recordActivity } from '../clients/client-activities';
import { clientContact } from '../clients/client-directory';
import type { PaymentDeps } from './ledger';
import { payments, refunds } from './schema';

/**
 * Refunds and voids on the ledger (issue 22, DESIGN 8a): each is a row linked to its charge,
 * claimed under a lock on the charge's row so that the sum given back never exceeds the sum
 * charged whatever runs at once, and sent with our reference committed first. A charge still in
 * its open batch is voided whole instead (nothing moves); a refund or void whose answer was lost
 * is found again at the gateway by recovery, once.
 */

interface RefundClaim {
  refundId: string;
  paymentId: string;
  clientId: string;
  amountCents: number;
  reference: string;
  /** The whole charge, with nothing refunded before: a charge not yet settled may be voided. */
  whole: boolean;
}

const KIND = 'refund';
const RECHECK_AFTER_MS = 60_000;
const LIVE = ['in_progress', 'refunded', 'voided'] as const;

/** Our reference for a refund, as for a charge: 20 letters and digits of its id, prefixed R. */
function refundReference(refundId: string): string {
  return `R${refundId.replace(/-/g, '').slice(0, 19).toUpperCase()}`;
}

async function refundedOf(db: Executor, paymentId: string): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), inArray(refunds.status, [...LIVE])));
  return Number(row?.cents ?? 0);
}

/** The refund of this charge owed by this source that is under way or done, if any. */
async function liveRefundOf(db: Executor, paymentId: string, source: string) {
  const [row] = await db
    .select({ id: refunds.id, status: refunds.status })
    .from(refunds)
    .where(
      and(eq(refunds.paymentId, paymentId), eq(refunds.source, source), inArray(refunds.status, [...LIVE])),
    )
    .limit(1);
  return row;
}

/**
 * The refunds owed by one source (a cancelled request), per charge: done (refunded or voided), under
 * way, or the number of tries that failed (each new try takes a new key).
 */
export async function refundsOwedBy(db: Executor, source: string) {
  const rows = await db
    .select({ paymentId: refunds.paymentId, status: refunds.status, amountCents: refunds.amountCents })
    .from(refunds)
    .where(eq(refunds.source, source));
  const byCharge = new Map<string, { doneCents: number; underWay: boolean; failedTries: number }>();
  for (const row of rows) {
    const entry = byCharge.get(row.paymentId) ?? { doneCents: 0, underWay: false, failedTries: 0 };
    if (row.status === 'refunded' || row.status === 'voided') entry.doneCents += row.amountCents;
    else if (row.status === 'in_progress') entry.underWay = true;
    else entry.failedTries += 1;
    byCharge.set(row.paymentId, entry);
  }
  return byCharge;
}

/** The approved charges among these ids: their totals and the card fee within each. */
export async function chargesForRefund(db: Executor, paymentIds: readonly string[]) {
  if (paymentIds.length === 0) return [];
  return db
    .select({ paymentId: payments.id, totalCents: payments.totalCents, feeCents: payments.feeCents })
    .from(payments)
    .where(and(inArray(payments.id, [...paymentIds]), eq(payments.status, 'approved')));
}

async function chargeOf(db: Executor, paymentId: string) {
  const [charge] = await db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
  return charge;
}

/** The refund's effects with its outcome: the row, the client's activity and the e-mail. */
async function applyRefund(
  tx: Transaction,
  deps: Pick<PaymentDeps, 'mailer' | 'clock'>,
  claim: RefundClaim,
  outcome: { kind: 'refund' | 'void'; transactionId: string },
): Promise<RefundResponse> {
  const now = deps.clock.now();
  await tx
    .update(refunds)
    .set({
      status: outcome.kind === 'void' ? 'voided' : 'refunded',
      kind: outcome.kind,
      gatewayTransactionId: outcome.transactionId,
      completedAt: now,
    })
    .where(and(eq(refunds.id, claim.refundId), eq(refunds.status, 'in_progress')));
  const charge = await chargeOf(tx, claim.paymentId);
  if (!charge) throw new Error('a refund without its charge');
  const refundedCents = await refundedOf(tx, claim.paymentId);
  const what = paymentPurposeLabel(charge.purpose);
  await recordActivity(tx, {
    clientId: claim.clientId,
    type: 'Refund',
    closeDate: todayFor(now),
    purchasedPlanName: what,
    stageName: outcome.kind === 'void' ? 'Voided' : 'Refunded',
    amountCents: claim.amountCents,
  });
  const client = await clientContact(tx, claim.clientId);
  if (client) {
    const method = charge.methodLast4
      ? `${charge.methodKind === 'card' ? (charge.methodBrand ?? 'card') : 'bank account'} ending in ${charge.methodLast4}`
      : 'the account it was paid with';
    const paidOn = isoToUsDate(isoDateOf(charge.completedAt ?? charge.createdAt));
    await deps.mailer.enqueue(
      tx,
      {
        to: client.email,
        subject: m.emailSubject,
        text: [
          `Dear ${client.firstName},`,
          outcome.kind === 'void'
            ? `Your payment of ${formatUsd(claim.amountCents)} on ${paidOn} (${what}) was cancelled before it settled: nothing was taken from your ${method}.`
            : `We refunded ${formatUsd(claim.amountCents)} of your payment of ${formatUsd(charge.totalCents)} on ${paidOn} (${what}) to your ${method}. It reaches the account in 5 to 10 business days.`,
          `Reference ${outcome.transactionId}.`,
        ].join('\n\n'),
      },
      { dedupeKey: `refund:${claim.refundId}` },
    );
  }
  return {
    success: true,
    message: outcome.kind === 'void' ? m.voided(claim.amountCents) : m.refunded(claim.amountCents),
    refundId: claim.refundId,
    paymentId: claim.paymentId,
    kind: outcome.kind,
    amountCents: claim.amountCents,
    transactionId: outcome.transactionId,
    refundedCents,
    leftCents: charge.totalCents - refundedCents,
  };
}

async function failRefund(tx: Transaction, refundId: string, error: unknown) {
  await tx
    .update(refunds)
    .set({ status: 'failed', message: error instanceof Error ? error.message.slice(0, 300) : 'Failed' })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, 'in_progress')));
}

/**
 * Refunds `amount` of an approved charge (whole or part), once per idempotency key in `scope`.
 * A charge still in its open batch is voided instead when the refund is the whole of it.
 */
export async function refundPayment(
  deps: PaymentDeps,
  input: {
    scope: string;
    idempotencyKey: string;
    paymentId: string;
    amount: string;
    reason: string;
    requestedBy: string | null;
    /** The charge must be this client's (a client cancelling their own order). */
    clientId?: string;
    /** What owes the refund (`vial-request:<id>`): one live refund per charge and source, by constraint. */
    source?: string;
  },
): Promise<RefundResponse> {
  const { db, gateway } = deps;
  return runOnce<RefundClaim, RefundResponse>(deps, {
    scope: input.scope,
    key: input.idempotencyKey,
    kind: KIND,
    request: { paymentId: input.paymentId, amount: input.amount, reason: input.reason },
    async claim(tx, operationId) {
      // The charge's row is locked: two refunds of it claim one after the other, each seeing the other's.
      const [charge] = await tx
        .select()
        .from(payments)
        .where(eq(payments.id, input.paymentId))
        .for('update')
        .limit(1);
      if (!charge || (input.clientId && charge.clientId !== input.clientId)) {
        throw new HttpError('NOT_FOUND', 'Not found');
      }
      if (charge.status !== 'approved' || !charge.gatewayTransactionId) {
        throw new HttpError('NOT_ALLOWED_NOW', m.notRefundable);
      }
      const refundedCents = await refundedOf(tx, charge.id);
      const problems = refundProblems(input, { totalCents: charge.totalCents, refundedCents });
      const first = Object.values(problems)[0];
      if (first) throw new HttpError('VALIDATION', first, problems);
      const amountCents = amountToCents(input.amount) ?? 0;
      if (input.source && (await liveRefundOf(tx, charge.id, input.source))) {
        throw new HttpError('PAYMENT_IN_PROGRESS', m.alreadyOnItsWay);
      }
      const [row] = await tx
        .insert(refunds)
        .values({
          paymentId: charge.id,
          clientId: charge.clientId,
          operationId,
          amountCents,
          reason: input.reason.trim(),
          requestedBy: input.requestedBy,
          source: input.source ?? null,
          status: 'in_progress',
          reference: `pending-${operationId}`,
          createdAt: deps.clock.now(),
        })
        .returning({ id: refunds.id });
      if (!row) throw new Error('the refund was not recorded');
      const reference = refundReference(row.id);
      await tx.update(refunds).set({ reference }).where(eq(refunds.id, row.id));
      return {
        refundId: row.id,
        paymentId: charge.id,
        clientId: charge.clientId,
        amountCents,
        reference,
        whole: refundedCents === 0 && amountCents === charge.totalCents,
      };
    },
    release: (tx, claim, error) => failRefund(tx, claim.refundId, error),
    recover: (run, claim) => recoverRefund(deps, run, claim),
    async work(run, claim) {
      const charge = await chargeOf(db, claim.paymentId);
      if (!charge?.gatewayTransactionId || !charge.gatewayCustomerRef) {
        throw new HttpError('NOT_ALLOWED_NOW', m.notRefundable);
      }
      await db.update(refunds).set({ kind: 'refund' }).where(eq(refunds.id, claim.refundId));
      run.setInDoubt(true);
      let result = await gateway.refund({
        chargeTransactionId: charge.gatewayTransactionId,
        customerRef: charge.gatewayCustomerRef,
        amountCents: claim.amountCents,
        reference: claim.reference,
        description: `Refund: ${paymentPurposeLabel(charge.purpose)}`,
      });
      if (result.outcome === 'declined' && result.reason === 'not_settled' && claim.whole) {
        // Still in the open batch: the whole charge is voided, and nothing moves at all.
        await db.update(refunds).set({ kind: 'void' }).where(eq(refunds.id, claim.refundId));
        const voided = await gateway.void({ transactionId: charge.gatewayTransactionId });
        if (voided.outcome === 'voided') {
          return run.succeedWith((tx) =>
            applyRefund(tx, deps, claim, { kind: 'void', transactionId: voided.transactionId }),
          );
        }
        result =
          voided.outcome === 'declined'
            ? { outcome: 'declined', reason: 'not_refundable', message: voided.message }
            : { outcome: 'error', reason: voided.reason, message: voided.message, transactionId: null };
      }
      if (result.outcome === 'refunded') {
        const transactionId = result.transactionId;
        return run.succeedWith((tx) => applyRefund(tx, deps, claim, { kind: 'refund', transactionId }));
      }
      if (result.outcome === 'error') throw new HttpError('PAYMENT_PENDING', gatewayWords[result.reason]);
      run.setInDoubt(false);
      throw new HttpError('NOT_ALLOWED_NOW', gatewayWords[result.reason]);
    },
  });
}

/** Settles a refund whose owner died, from the gateway's records. */
async function recoverRefund(
  deps: PaymentDeps,
  run: RecoveryRun<RefundResponse>,
  claim: RefundClaim | null,
): Promise<Recovered> {
  const interrupted = new HttpError('GATEWAY_UNAVAILABLE', 'The refund was interrupted. Please try again.');
  if (!claim) {
    await run.fail(interrupted, async () => {});
    return 'settled';
  }
  const [row] = await deps.db.select().from(refunds).where(eq(refunds.id, claim.refundId)).limit(1);
  const charge = await chargeOf(deps.db, claim.paymentId);
  if (!row || !charge?.gatewayCustomerRef || !charge.gatewayTransactionId || !row.kind) {
    await run.fail(interrupted, (tx) => failRefund(tx, claim.refundId, interrupted));
    return 'settled';
  }
  if (row.kind === 'void') {
    // A void leaves the charge failed at the gateway; still approved, it never happened.
    const found = await deps.gateway.lookupCharge({
      customerRef: charge.gatewayCustomerRef,
      reference: charge.reference ?? '',
    });
    if (found.status === 'failed') {
      await run.succeedWith((tx) =>
        applyRefund(tx, deps, claim, { kind: 'void', transactionId: charge.gatewayTransactionId ?? '' }),
      );
      return 'settled';
    }
    if (found.status === 'approved') {
      await run.fail(interrupted, (tx) => failRefund(tx, claim.refundId, interrupted));
      return 'settled';
    }
    return { retryAfterMs: RECHECK_AFTER_MS };
  }
  const found = await deps.gateway.lookupRefund({
    customerRef: charge.gatewayCustomerRef,
    chargeTransactionId: charge.gatewayTransactionId,
    reference: claim.reference,
  });
  if (found.status === 'refunded') {
    await run.succeedWith((tx) =>
      applyRefund(tx, deps, claim, { kind: 'refund', transactionId: found.transactionId }),
    );
    return 'settled';
  }
  if (found.status === 'failed' || found.status === 'not_found') {
    await run.fail(interrupted, (tx) => failRefund(tx, claim.refundId, interrupted));
    return 'settled';
  }
  return { retryAfterMs: RECHECK_AFTER_MS };
}

export function refundRecoveries(deps: PaymentDeps) {
  return {
    [KIND]: (run: RecoveryRun<RefundResponse>, claim: RefundClaim | null) => recoverRefund(deps, run, claim),
  };
}

/** What has been refunded of each of these charges. */
export async function refundedByPayment(db: Database, paymentIds: readonly string[]) {
  if (paymentIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ paymentId: refunds.paymentId, cents: sql<string>`sum(${refunds.amountCents})` })
    .from(refunds)
    .where(and(inArray(refunds.paymentId, [...paymentIds]), inArray(refunds.status, ['refunded', 'voided'])))
    .groupBy(refunds.paymentId);
  return new Map(rows.map((r) => [r.paymentId, Number(r.cents)]));
}
