import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { todayFor } from '../../../domain/client';
import { centsToAmount, formatUsd } from '../../../domain/money';
import {
  PAYMENT_INFO_UPDATED,
  type PaymentSource,
  type SetPaymentInfoRequest,
  type SetPaymentInfoResponse,
} from '../../../domain/payment-info';
import { storageYearsCharges } from '../../../domain/storage-billing';
import type { Database } from '../../db/client';
import { annualStorageFees, paymentMethods, payments } from '../../db/schema';
import { faultPoint } from '../../lib/faults';
import { HttpError } from '../../lib/http-error';
import { type Recovered, type RecoveryRun, runOnce, type Transaction } from '../../lib/run-once';
import { jsonSha256 } from '../../lib/secrets';
import { refuseChangedAmounts } from '../../lib/shown-amounts';
import { recordActivity } from '../clients/client-activities';
import { clientContact } from '../clients/client-directory';
import { extendStoragePaidUntil } from '../clients/client-holdings';
import { priceBookInForce } from '../prices/price-book-repository';
import {
  CONFIRMING_MESSAGE,
  chargeReference,
  clientCustomer,
  INTERRUPTED_MESSAGE,
  ledgerRow,
  lookUp,
  NOT_COMPLETED_MESSAGE,
  outcomeUnknown,
  type PaymentDeps,
  RECHECK_AFTER_MS,
  refuseCardExpiry,
  refused,
  releaseLedger,
  saveAtGateway,
} from './ledger';
import { type ChargeClaim, type OneOffCharge, recoverCharge } from './one-off-charge';
import { type PaymentMethodRow, putMethodOnFile, removeMethod } from './payment-methods';
import { paidUntilAfter } from './release-storage';

/**
 * The overdue annual storage fees of a client now: the rows, their total before any card fee (by
 * bank account) and what paying them charges by card and by bank account, with the price book in
 * force (storageYearsCharge: a year keeps the amounts its notice fixed). A year whose renewal was
 * declined is overdue at once (the client may pay it before the next retry).
 */
export async function overdueFees(db: Database | Transaction, clientId: string, now: Date) {
  const rows = await db
    .select()
    .from(annualStorageFees)
    .where(
      and(
        eq(annualStorageFees.clientId, clientId),
        isNull(annualStorageFees.paidAt),
        // A year that failed its charge is owed at once; one still waiting for it, from its due date.
        or(
          inArray(annualStorageFees.status, ['retrying', 'overdue']),
          and(eq(annualStorageFees.status, 'noticed'), lt(annualStorageFees.dueDate, todayFor(now))),
        ),
      ),
    );
  const { book } = await priceBookInForce(db, now);
  const charges = storageYearsCharges(book, rows);
  return { rows, totalCents: charges.ach.amountCents, charges };
}

/** What a payment-method submission claimed: its ledger row, and the overdue years it pays. */
interface MethodClaim {
  ledgerId: string;
  clientId: string;
  source: string;
  kind: 'card' | 'ach';
  feeIds: string[];
  amountCents: number;
  feeCents: number;
  totalCents: number;
}

function describeMethod(method: { kind: 'card' | 'ach'; brand: string | null; last4: string }) {
  return method.kind === 'card'
    ? `${method.brand ?? 'Card'} ending in ${method.last4}`
    : `bank account ending in ${method.last4}`;
}

function methodResponse(claim: MethodClaim, transactionId: string | null): SetPaymentInfoResponse {
  return {
    success: true,
    message: PAYMENT_INFO_UPDATED,
    page_name: claim.source,
    TransactionId: transactionId,
    amountCharged: centsToAmount(claim.totalCents),
    processingFee: centsToAmount(claim.feeCents),
  };
}

/**
 * The effects of a paid overdue total, in the transaction that records it: the years paid, the
 * paid-until date, the Client Activity row, the ledger row approved and the receipt e-mail.
 * The same whether the payment finished normally or reconciliation found it at the gateway.
 */
async function applyOverduePayment(
  tx: Transaction,
  deps: Pick<PaymentDeps, 'mailer' | 'clock'>,
  claim: MethodClaim,
  outcome: {
    transactionId: string | null;
    method: { kind: 'card' | 'ach'; brand: string | null; last4: string };
  },
  response: SetPaymentInfoResponse,
) {
  const now = deps.clock.now();
  const client = await clientContact(tx, claim.clientId);
  if (!client) throw new HttpError('NOT_FOUND', 'Not found');
  const charged = claim.totalCents > 0;
  if (charged) {
    const paid = await tx
      .update(annualStorageFees)
      .set({
        paidAt: now,
        status: 'paid',
        paidOn: todayFor(now),
        recovered: sql`${annualStorageFees.tries} > 0`,
        nextTryOn: null,
      })
      .where(and(eq(annualStorageFees.paymentId, claim.ledgerId), isNull(annualStorageFees.paidAt)))
      .returning({ dueDate: annualStorageFees.dueDate, coversUntil: annualStorageFees.coversUntil });
    const paidUntil = paidUntilAfter(paid);
    if (paidUntil) await extendStoragePaidUntil(tx, claim.clientId, paidUntil, now);
    const years = claim.feeIds.length;
    await recordActivity(tx, {
      clientId: claim.clientId,
      type: 'Annual Storage Fee',
      closeDate: todayFor(now),
      purchasedPlanName: `Annual Storage (${years} year${years === 1 ? '' : 's'})`,
      stageName: 'Closed Won',
      paymentId: claim.ledgerId,
      amountCents: claim.totalCents,
    });
  }
  await tx
    .update(payments)
    .set({
      status: charged ? 'approved' : 'saved',
      gatewayTransactionId: outcome.transactionId,
      responseJson: JSON.stringify(response),
      completedAt: now,
    })
    .where(eq(payments.id, claim.ledgerId));
  await deps.mailer.enqueue(
    tx,
    {
      to: client.email,
      subject: 'Client Portal: your payment information was updated',
      text: [
        `The payment method on file for your annual storage is now the ${describeMethod(outcome.method)}.`,
        charged
          ? `We charged ${formatUsd(claim.totalCents)} to it for your overdue annual storage fees${claim.feeCents > 0 ? ` (including a ${formatUsd(claim.feeCents)} card processing fee)` : ''}. Transaction ${outcome.transactionId}.`
          : 'Nothing was charged today.',
        'If you did not make this change, please contact us right away.',
      ].join('\n\n'),
    },
    { dedupeKey: `payment:${claim.ledgerId}` },
  );
}

/**
 * Saves a tokenized card or bank account as the client's method on file and, when annual
 * storage fees are overdue, charges their total to it (a card adds the 3% fee). One idempotency
 * key, one outcome: a repeat answers the first result and charges nothing more.
 */
export async function savePaymentMethod(
  deps: PaymentDeps,
  input: {
    clientId: string;
    source: PaymentSource;
    idempotencyKey: string;
    request: SetPaymentInfoRequest;
    /** The total the page showed, when it showed one: a different server total is refused, not charged. */
    expectedTotalCents?: number;
    /** False where the page promised that nothing is charged today (the consent form). */
    chargeOverdue?: boolean;
  },
): Promise<SetPaymentInfoResponse> {
  const { db, clock, gateway } = deps;
  const { clientId, source, request } = input;
  const now = clock.now();
  const today = todayFor(now);
  const kind = request.Payment_Type === 'CC' ? 'card' : 'ach';

  // Saved as the method on file.
  refuseCardExpiry(kind, request, today, { keptOnFile: true });

  const response = await runOnce<MethodClaim, SetPaymentInfoResponse>(deps, {
    scope: `client:${clientId}`,
    key: input.idempotencyKey,
    kind: 'payment-method',
    request: { source, request, expectedTotalCents: input.expectedTotalCents ?? null },
    async claim(tx, operationId) {
      const overdue = input.chargeOverdue === false ? null : await overdueFees(tx, clientId, now);
      // Each year at the amount its notice fixed for this method (an older one with the card fee in force).
      const { amountCents, feeCents, totalCents } = overdue?.charges[kind] ?? {
        amountCents: 0,
        feeCents: 0,
        totalCents: 0,
      };
      refuseChangedAmounts(
        [[input.expectedTotalCents, totalCents]],
        `The amount due is now ${formatUsd(totalCents)}. Please review it and save again.`,
      );
      const [ledger] = await tx
        .insert(payments)
        .values({
          clientId,
          idempotencyKey: input.idempotencyKey,
          requestHash: jsonSha256({ source, request }),
          operationId,
          source,
          purpose: 'annual_storage_overdue',
          methodKind: kind,
          amountCents,
          feeCents,
          totalCents,
          status: 'in_progress',
          createdAt: now,
        })
        .returning({ id: payments.id });
      if (!ledger) throw new Error('the ledger row was not written');
      // Claim the overdue years for this submission before any gateway call: a second submission
      // (another tab, the public link) finds them taken and charges nothing.
      const feeIds = (overdue?.rows ?? []).map((r) => r.id);
      if (feeIds.length > 0) {
        const claimed = await tx
          .update(annualStorageFees)
          .set({ paymentId: ledger.id })
          .where(
            and(
              inArray(annualStorageFees.id, feeIds),
              isNull(annualStorageFees.paymentId),
              // A renewal charging the year now (storage-renewals.ts) holds it.
              isNull(annualStorageFees.claimOperationId),
              isNull(annualStorageFees.paidAt),
            ),
          )
          .returning({ id: annualStorageFees.id });
        if (claimed.length < feeIds.length) {
          throw new HttpError(
            'IDEMPOTENCY_CONFLICT',
            'A payment for these fees is already in progress. Please wait a moment and reload.',
          );
        }
      }
      return {
        ledgerId: ledger.id,
        clientId,
        source,
        kind,
        feeIds,
        amountCents,
        feeCents,
        totalCents,
      };
    },
    release: (tx, claim, error) => releaseLedger(tx, claim.ledgerId, error),
    recover: (run, claim) => recoverMethodPayment(deps, run, claim),
    async work(run, claim) {
      faultPoint('payment:after-claim');
      const customer = await clientCustomer(db, clientId);
      const saved = await saveAtGateway(db, gateway, customer, kind, request);
      if (saved.outcome !== 'saved') throw refused(saved.reason, saved.message);
      faultPoint('payment:after-save-method');

      // The method goes on file, and the charge's intent (our reference) is committed, before
      // the gateway is asked for money.
      let method: PaymentMethodRow | null = null;
      await db.transaction(async (tx) => {
        method = await putMethodOnFile(tx, clientId, gateway.name, saved.method, request);
        await tx
          .update(payments)
          .set({
            paymentMethodId: method.id,
            gatewayCustomerRef: saved.method.customerRef,
            methodBrand: method.brand,
            methodLast4: method.last4,
            ...(claim.totalCents > 0
              ? { reference: chargeReference(claim.ledgerId), chargeStartedAt: clock.now() }
              : {}),
          })
          .where(eq(payments.id, claim.ledgerId));
      });
      const kept = method as unknown as PaymentMethodRow;

      let transactionId: string | null = null;
      if (claim.totalCents > 0) {
        run.setInDoubt(true);
        faultPoint('payment:before-charge');
        const charge = await gateway.charge({
          customerRef: saved.method.customerRef,
          paymentRef: saved.method.paymentRef,
          amountCents: claim.totalCents,
          reference: chargeReference(claim.ledgerId),
          description: `Annual storage, ${claim.feeIds.length} overdue year(s)`,
        });
        faultPoint('payment:after-charge');
        if (charge.outcome !== 'approved') {
          if (outcomeUnknown(charge)) throw new HttpError('PAYMENT_PENDING', CONFIRMING_MESSAGE);
          run.setInDoubt(false);
          await removeMethod(db, kept);
          await db
            .update(payments)
            .set({ gatewayTransactionId: charge.transactionId, paymentMethodId: null })
            .where(eq(payments.id, claim.ledgerId));
          throw refused(charge.reason, charge.message);
        }
        transactionId = charge.transactionId;
      }

      const answer = methodResponse(claim, transactionId);
      await run.succeed(
        (tx) => applyOverduePayment(tx, deps, claim, { transactionId, method: kept }, answer),
        answer,
      );
      deps.mailer.kick();
      faultPoint('payment:after-commit');
      return answer;
    },
  });
  return response;
}

/** Settles a payment-method submission whose owner died, from its ledger row and the gateway. */
async function recoverMethodPayment(
  deps: PaymentDeps,
  run: RecoveryRun<SetPaymentInfoResponse>,
  claim: MethodClaim | null,
): Promise<Recovered> {
  const { db } = deps;
  const giveBack = (error: HttpError) => (tx: Transaction) => releaseLedger(tx, claim?.ledgerId ?? '', error);
  if (!claim) {
    await run.fail(new HttpError('GATEWAY_UNAVAILABLE', INTERRUPTED_MESSAGE), async () => {});
    return 'settled';
  }
  const ledger = await ledgerRow(db, claim.ledgerId);
  if (!ledger) {
    await run.fail(new HttpError('GATEWAY_UNAVAILABLE', INTERRUPTED_MESSAGE), async () => {});
    return 'settled';
  }
  const method = {
    kind: claim.kind,
    brand: ledger.methodBrand,
    last4: ledger.methodLast4 ?? '',
  };
  // Saved with nothing to charge: the method is on file already when its row says so.
  if (claim.totalCents === 0) {
    if (ledger.paymentMethodId) {
      const answer = methodResponse(claim, null);
      await run.succeed(
        (tx) => applyOverduePayment(tx, deps, claim, { transactionId: null, method }, answer),
        answer,
      );
      deps.mailer.kick();
    } else {
      const error = new HttpError('GATEWAY_UNAVAILABLE', INTERRUPTED_MESSAGE);
      await run.fail(error, giveBack(error));
    }
    return 'settled';
  }
  const found = await lookUp(deps, ledger);
  switch (found.status) {
    case 'approved': {
      const answer = methodResponse(claim, found.transactionId);
      await run.succeed(
        (tx) => applyOverduePayment(tx, deps, claim, { transactionId: found.transactionId, method }, answer),
        answer,
      );
      deps.mailer.kick();
      return 'settled';
    }
    case 'never_sent':
    case 'not_found':
    case 'failed':
    case 'returned': {
      const error =
        found.status === 'never_sent'
          ? new HttpError('GATEWAY_UNAVAILABLE', INTERRUPTED_MESSAGE)
          : new HttpError('PAYMENT_DECLINED', NOT_COMPLETED_MESSAGE);
      await run.fail(error, async (tx) => {
        await releaseLedger(tx, claim.ledgerId, error);
        // A card that could not pay is not kept as the method on file.
        if (ledger.paymentMethodId && found.status !== 'never_sent') {
          const [row] = await tx
            .select()
            .from(paymentMethods)
            .where(eq(paymentMethods.id, ledger.paymentMethodId))
            .limit(1);
          if (row) await removeMethod(tx, row);
        }
      });
      return 'settled';
    }
    default:
      // Held for review, the gateway unreachable, or too early to call it missing: keep the fees
      // claimed (money may have moved) and look again later.
      return { retryAfterMs: RECHECK_AFTER_MS };
  }
}

/** The recoveries of the payment kinds, for the reconciliation sweep. */
export function paymentRecoveries(deps: PaymentDeps) {
  return {
    'payment-method': (run: RecoveryRun<SetPaymentInfoResponse>, claim: MethodClaim | null) =>
      recoverMethodPayment(deps, run, claim),
    charge: (run: RecoveryRun<OneOffCharge>, claim: ChargeClaim | null) => recoverCharge(deps, run, claim),
  };
}
