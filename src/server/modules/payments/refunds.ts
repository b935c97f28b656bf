import { and, eq, inArray, sql } from 'drizzle-orm';
import { todayFor } from '../../../domain/client-basics';
import { formatUsd } from '../../../domain/money';
import { paymentPurposeLabel } from '../../../domain/receipt';
import {
  refundMessages as m,
  type RefundAnswer,
  type RefundAwaitingApproval,
  type RefundDeclined,
  type RefundResponse,
  refundProblems,
} from '../../../domain/refunds';
import { amountToCents } from '../../../domain/staff-queues';
import { refundMessages as gatewayWords } from '../../adapters/payments/payment-gateway';
import type { Database, Executor } from '../../db/client';
import { storeDocument } from '../../lib/document-store';
import { faultPoint } from '../../lib/faults';
import { HttpError, notFound } from '../../lib/http-error';
import { type Recovered, type RecoveryRun, type Run, runOnce, type Transaction } from '../../lib/run-once';
import { recordActivity } from '../clients/client-activities';
import { clientContact } from '../clients/client-directory';
import type { PaymentDeps } from './ledger';
import { renderRefundReceiptPdf } from './receipt-pdf';
import { findRefundReceipt, paidOnOf } from './receipts';
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
  /** Asked for above the approval limit: recorded, nothing sent, answered with this. */
  awaiting?: RefundAwaitingApproval;
}

const KIND = 'refund';
const RECHECK_AFTER_MS = 60_000;
/** Refunds that went or are going out. */
const LIVE = ['in_progress', 'refunded', 'voided'] as const;
/** What counts against the charge: those, and refunds awaiting approval (their amount is held). */
const HELD = ['awaiting_approval', ...LIVE] as const;

/** Our reference for a refund, as for a charge: 20 letters and digits of its id, prefixed R. */
function refundReference(refundId: string): string {
  return `R${refundId.replace(/-/g, '').slice(0, 19).toUpperCase()}`;
}

/** The sum of a charge's refunds in these states. */
async function sumOf(db: Executor, paymentId: string, statuses: readonly string[]): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), inArray(refunds.status, [...statuses] as never[])));
  return Number(row?.cents ?? 0);
}
const refundedOf = (db: Executor, paymentId: string) => sumOf(db, paymentId, LIVE);
/** What is no longer free to refund: refunded, under way, or held for an approval. */
const heldOf = (db: Executor, paymentId: string) => sumOf(db, paymentId, HELD);

/** What of a charge is no longer free to refund (refunded, under way, or held for an approval). */
export const refundHeldCents = heldOf;

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
    else if (row.status === 'failed') entry.failedTries += 1;
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
  deps: Pick<PaymentDeps, 'mailer' | 'clock' | 'documentsKey'>,
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
  const heldCents = await heldOf(tx, claim.paymentId);
  const what = paymentPurposeLabel(charge.purpose);
  await recordActivity(tx, {
    clientId: claim.clientId,
    type: 'Refund',
    closeDate: todayFor(now),
    purchasedPlanName: what,
    stageName: outcome.kind === 'void' ? 'Voided' : 'Refunded',
    amountCents: claim.amountCents,
    refundId: claim.refundId,
  });
  const client = await clientContact(tx, claim.clientId);
  const found = await findRefundReceipt(tx, claim.refundId);
  if (client && found) {
    const method = charge.methodLast4
      ? `${charge.methodKind === 'card' ? (charge.methodBrand ?? 'card') : 'bank account'} ending in ${charge.methodLast4}`
      : 'the account it was paid with';
    const paidOn = paidOnOf(charge);
    // The receipt, kept with the client's documents in this transaction, goes with the e-mail.
    const receipt = await storeDocument(tx, deps.documentsKey, {
      clientId: claim.clientId,
      kind: 'receipt',
      fileName: 'refund-receipt.pdf',
      contentType: 'application/pdf',
      content: await renderRefundReceiptPdf(found.receipt, now),
      now,
    });
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
          `Reference ${outcome.transactionId}. The receipt is attached, and on Client Activity.`,
        ].join('\n\n'),
        attachments: [
          { documentId: receipt.id, filename: 'refund-receipt.pdf', contentType: 'application/pdf' },
        ],
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
    leftCents: charge.totalCents - heldCents,
  };
}

async function failRefund(tx: Transaction, refundId: string, error: unknown) {
  await tx
    .update(refunds)
    .set({ status: 'failed', message: error instanceof Error ? error.message.slice(0, 300) : 'Failed' })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, 'in_progress')));
}

/** The charge's row, locked: refunds of one charge are claimed one after the other, each seeing the others. */
async function lockedCharge(tx: Transaction, paymentId: string) {
  const [charge] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update').limit(1);
  return charge;
}

function refundable(charge: typeof payments.$inferSelect) {
  if (charge.status !== 'approved' || !charge.gatewayTransactionId) {
    throw new HttpError('NOT_ALLOWED_NOW', m.notRefundable);
  }
}

/**
 * Sends a claimed refund to the gateway and records its outcome; a charge still in its open batch
 * refunded whole is voided instead. A claim awaiting approval is only answered.
 */
async function sendRefund(
  deps: PaymentDeps,
  run: Run<RefundAnswer>,
  claim: RefundClaim,
): Promise<RefundAnswer> {
  if (claim.awaiting) return claim.awaiting;
  const { db, gateway } = deps;
  const charge = await chargeOf(db, claim.paymentId);
  if (!charge?.gatewayTransactionId || !charge.gatewayCustomerRef) {
    throw new HttpError('NOT_ALLOWED_NOW', m.notRefundable);
  }
  await db.update(refunds).set({ kind: 'refund' }).where(eq(refunds.id, claim.refundId));
  run.setInDoubt(true);
  faultPoint('refund:before-send');
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
      faultPoint('refund:after-gateway');
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
    faultPoint('refund:after-gateway');
    const transactionId = result.transactionId;
    return run.succeedWith((tx) => applyRefund(tx, deps, claim, { kind: 'refund', transactionId }));
  }
  if (result.outcome === 'error') throw new HttpError('PAYMENT_PENDING', gatewayWords[result.reason]);
  run.setInDoubt(false);
  throw new HttpError('NOT_ALLOWED_NOW', gatewayWords[result.reason]);
}

/** One refund operation: claimed under the charge's lock, sent once, recovered like a charge. */
function runRefund(
  deps: PaymentDeps,
  spec: {
    scope: string;
    key: string;
    request: unknown;
    claim: (tx: Transaction, operationId: string) => Promise<RefundClaim>;
  },
): Promise<RefundAnswer> {
  return runOnce<RefundClaim, RefundAnswer>(deps, {
    ...spec,
    kind: KIND,
    release: (tx, claim, error) => failRefund(tx, claim.refundId, error),
    recover: (run, claim) => recoverRefund(deps, run, claim),
    work: (run, claim) => sendRefund(deps, run, claim),
  }).finally(() => {
    // The refund's e-mail, committed with it, leaves now rather than at the next mail run.
    deps.mailer.kick();
  });
}

/**
 * Refunds `amount` of an approved charge (whole or part), once per idempotency key in `scope`.
 * A charge still in its open batch is voided instead when the refund is the whole of it. Above
 * `approvalLimitCents` (staff refunds) it is recorded awaiting a second admin's approval, nothing
 * sent, its amount held against the charge.
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
    /** Above this, an admin other than `requestedBy` approves it first (the price book's limit). */
    approvalLimitCents?: number;
  },
): Promise<RefundAnswer> {
  return runRefund(deps, {
    scope: input.scope,
    key: input.idempotencyKey,
    request: { paymentId: input.paymentId, amount: input.amount, reason: input.reason },
    async claim(tx, operationId) {
      const charge = await lockedCharge(tx, input.paymentId);
      if (!charge || (input.clientId && charge.clientId !== input.clientId)) throw notFound();
      refundable(charge);
      const heldCents = await heldOf(tx, charge.id);
      const problems = refundProblems(input, { totalCents: charge.totalCents, refundedCents: heldCents });
      const first = Object.values(problems)[0];
      if (first) throw new HttpError('VALIDATION', first, problems);
      const amountCents = amountToCents(input.amount) ?? 0;
      if (input.source && (await liveRefundOf(tx, charge.id, input.source))) {
        throw new HttpError('PAYMENT_IN_PROGRESS', m.alreadyOnItsWay);
      }
      const limit = input.approvalLimitCents;
      const awaiting = limit !== undefined && amountCents > limit;
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
          status: awaiting ? 'awaiting_approval' : 'in_progress',
          reference: `pending-${operationId}`,
          createdAt: deps.clock.now(),
        })
        .returning({ id: refunds.id });
      if (!row) throw new Error('the refund was not recorded');
      const reference = refundReference(row.id);
      await tx.update(refunds).set({ reference }).where(eq(refunds.id, row.id));
      const claim: RefundClaim = {
        refundId: row.id,
        paymentId: charge.id,
        clientId: charge.clientId,
        amountCents,
        reference,
        whole: heldCents === 0 && amountCents === charge.totalCents,
      };
      if (!awaiting) return claim;
      return {
        ...claim,
        awaiting: {
          success: true,
          awaitingApproval: true,
          message: m.awaitsApproval(amountCents, limit),
          refundId: row.id,
          paymentId: charge.id,
          amountCents,
          refundedCents: await refundedOf(tx, charge.id),
          leftCents: charge.totalCents - heldCents - amountCents,
        },
      };
    },
  });
}

/** The refund and its charge, both locked (the charge first, as every refund of it takes them). */
async function lockedRefund(tx: Transaction, refundId: string) {
  const [asked] = await tx
    .select({ paymentId: refunds.paymentId })
    .from(refunds)
    .where(eq(refunds.id, refundId))
    .limit(1);
  if (!asked) throw notFound();
  const charge = await lockedCharge(tx, asked.paymentId);
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for('update').limit(1);
  if (!charge || !refund) throw notFound();
  return { charge, refund };
}

/** Why a refund awaiting approval cannot be decided now: someone decided it already. */
function alreadyDecided(status: string): HttpError {
  return new HttpError('NOT_ALLOWED_NOW', status === 'declined' ? m.alreadyDeclined : m.alreadyApproved);
}

/**
 * An admin other than the one who asked approves a refund awaiting approval: it is sent, once,
 * whoever approves at the same moment (the claim is taken under the charge's lock, and only from
 * awaiting approval). Its amount was held against the charge all along, so the bound holds.
 */
export async function approveRefund(
  deps: PaymentDeps,
  input: { refundId: string; staffId: string; idempotencyKey: string },
): Promise<RefundAnswer> {
  return runRefund(deps, {
    scope: `staff:${input.staffId}`,
    key: input.idempotencyKey,
    request: { approve: input.refundId },
    async claim(tx, operationId) {
      const { charge, refund } = await lockedRefund(tx, input.refundId);
      if (refund.status !== 'awaiting_approval') throw alreadyDecided(refund.status);
      if (refund.requestedBy === input.staffId)
        throw new HttpError('SECOND_APPROVAL_REQUIRED', m.ownApproval);
      refundable(charge);
      const othersCents = (await heldOf(tx, charge.id)) - refund.amountCents;
      await tx
        .update(refunds)
        .set({ status: 'in_progress', operationId, decidedBy: input.staffId, decidedAt: deps.clock.now() })
        .where(eq(refunds.id, refund.id));
      return {
        refundId: refund.id,
        paymentId: charge.id,
        clientId: charge.clientId,
        amountCents: refund.amountCents,
        reference: refund.reference,
        whole: othersCents === 0 && refund.amountCents === charge.totalCents,
      };
    },
  });
}

/**
 * An admin declines a refund awaiting approval: nothing is sent and its amount is free again. The
 * one who asked may decline (withdraw) their own. A second decline answers as the first.
 */
export async function declineRefund(
  deps: Pick<PaymentDeps, 'db' | 'clock'>,
  input: { refundId: string; staffId: string },
): Promise<RefundDeclined> {
  return deps.db.transaction(async (tx) => {
    const { refund } = await lockedRefund(tx, input.refundId);
    const answer = { success: true as const, message: m.declined(refund.amountCents), refundId: refund.id };
    if (refund.status === 'declined') return answer;
    if (refund.status !== 'awaiting_approval') throw alreadyDecided(refund.status);
    await tx
      .update(refunds)
      .set({ status: 'declined', decidedBy: input.staffId, decidedAt: deps.clock.now() })
      .where(eq(refunds.id, refund.id));
    return answer;
  });
}

/** Settles a refund whose owner died, from the gateway's records. */
async function recoverRefund(
  deps: PaymentDeps,
  run: RecoveryRun<RefundAnswer>,
  claim: RefundClaim | null,
): Promise<Recovered> {
  const interrupted = new HttpError('GATEWAY_UNAVAILABLE', 'The refund was interrupted. Please try again.');
  if (!claim) {
    await run.fail(interrupted, async () => {});
    return 'settled';
  }
  if (claim.awaiting) {
    // Recorded awaiting approval, nothing sent: only its answer was not.
    await run.succeed(async () => {}, claim.awaiting);
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
    [KIND]: (run: RecoveryRun<RefundAnswer>, claim: RefundClaim | null) => recoverRefund(deps, run, claim),
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
