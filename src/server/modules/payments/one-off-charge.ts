import { eq } from 'drizzle-orm';
import type { SetPaymentInfoRequest } from '../../../domain/payment-info';
import { payments } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { type Recovered, type RecoveryRun, runOnce, type Transaction } from '../../lib/run-once';
import { jsonSha256 } from '../../lib/secrets';
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
  physicianCustomer,
  RECHECK_AFTER_MS,
  refused,
  releaseLedger,
  saveAtGateway,
} from './ledger';
import { type PaymentMethodRow, putMethodOnFile, removeMethod } from './payment-methods';

/** A one-off charge paid with the method on file or a new one, and what was charged. */
export interface OneOffCharge {
  paymentId: string;
  transactionId: string;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  kind: 'card' | 'ach';
  brand: string | null;
  last4: string;
}

export interface ChargeClaim {
  ledgerId: string;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  kind: 'card' | 'ach';
}

/**
 * Charges an amount the server computed (a White Glove Labs kit) once per idempotency key,
 * through the same ledger as every payment: with the method on file, or with a new tokenized
 * one that is kept on file only when the client asked. A card adds the processing fee the caller
 * priced (with the order, from the price book in force when it was placed).
 */
export async function chargeOnce(
  deps: PaymentDeps,
  input: {
    clientId: string;
    source: string;
    purpose: string;
    idempotencyKey: string;
    /** What makes two submissions the same one: a repeat with a different request is refused. */
    request: unknown;
    amountCents: number;
    /** The card fee of the caller's own price (the book in force when the order was placed); 0 by ACH. */
    feeCents: number;
    kind: 'card' | 'ach';
    method: { onFile: PaymentMethodRow } | { token: SetPaymentInfoRequest; keepOnFile: boolean };
    description: string;
    /**
     * A physician paying for their client with the physician's own card: a method on file must be
     * theirs, and a new card joins (and, when kept, stays on) the physician's file, not the client's.
     */
    payer?: { physicianId: string };
  },
): Promise<OneOffCharge> {
  const { db, clock, gateway } = deps;
  const { clientId, kind } = input;
  if (kind === 'ach' && input.feeCents !== 0) throw new Error('an ACH payment carries no card fee');
  const { feeCents } = input;
  const totalCents = input.amountCents + feeCents;
  return runOnce<ChargeClaim, OneOffCharge>(deps, {
    scope: `client:${clientId}`,
    key: input.idempotencyKey,
    kind: 'charge',
    request: { source: input.source, request: input.request },
    async claim(tx, operationId) {
      const [ledger] = await tx
        .insert(payments)
        .values({
          clientId,
          idempotencyKey: input.idempotencyKey,
          requestHash: jsonSha256({ source: input.source, request: input.request }),
          operationId,
          source: input.source,
          purpose: input.purpose,
          methodKind: kind,
          paidByPhysicianId: input.payer?.physicianId ?? null,
          amountCents: input.amountCents,
          feeCents,
          totalCents,
          status: 'in_progress',
          createdAt: clock.now(),
        })
        .returning({ id: payments.id });
      if (!ledger) throw new Error('the ledger row was not written');
      return { ledgerId: ledger.id, amountCents: input.amountCents, feeCents, totalCents, kind };
    },
    release: (tx, claim, error) => releaseLedger(tx, claim.ledgerId, error),
    recover: (run, claim) => recoverCharge(deps, run, claim),
    async work(run, claim) {
      let ref: { customerRef: string; paymentRef: string; brand: string | null; last4: string };
      let keptRow: PaymentMethodRow | null = null;
      if ('onFile' in input.method) {
        const row = input.method.onFile;
        const owned = input.payer ? row.physicianId === input.payer.physicianId : row.clientId === clientId;
        if (!owned) throw new Error('a method on file was offered to a charge its owner does not pay');
        if (!row.gatewayCustomerRef || !row.gatewayPaymentRef) {
          throw new HttpError('NOT_ALLOWED_NOW', 'Please enter the payment details again.');
        }
        ref = {
          customerRef: row.gatewayCustomerRef,
          paymentRef: row.gatewayPaymentRef,
          brand: row.brand,
          last4: row.last4,
        };
      } else {
        const request = input.method.token;
        const customer = input.payer
          ? await physicianCustomer(db, input.payer.physicianId)
          : await clientCustomer(db, clientId);
        const saved = await saveAtGateway(db, gateway, customer, kind, request);
        if (saved.outcome !== 'saved') throw refused(saved.reason, saved.message);
        if (input.method.keepOnFile)
          keptRow = await putMethodOnFile(db, customer.owner, gateway.name, saved.method, request);
        ref = {
          customerRef: saved.method.customerRef,
          paymentRef: saved.method.paymentRef,
          brand: saved.method.brand ?? request.Credit_Card_Type ?? null,
          last4: saved.method.last4,
        };
      }
      const reference = chargeReference(claim.ledgerId);
      await db
        .update(payments)
        .set({
          reference,
          chargeStartedAt: clock.now(),
          gatewayCustomerRef: ref.customerRef,
          methodBrand: ref.brand,
          methodLast4: ref.last4,
          paymentMethodId: 'onFile' in input.method ? input.method.onFile.id : (keptRow?.id ?? null),
        })
        .where(eq(payments.id, claim.ledgerId));

      run.setInDoubt(true);
      const charge = await gateway.charge({
        customerRef: ref.customerRef,
        paymentRef: ref.paymentRef,
        amountCents: totalCents,
        reference,
        description: input.description,
      });
      if (charge.outcome !== 'approved') {
        if (outcomeUnknown(charge)) throw new HttpError('PAYMENT_PENDING', CONFIRMING_MESSAGE);
        run.setInDoubt(false);
        if (keptRow) await removeMethod(db, keptRow);
        await db
          .update(payments)
          .set({ gatewayTransactionId: charge.transactionId })
          .where(eq(payments.id, claim.ledgerId));
        throw refused(charge.reason, charge.message);
      }
      const result = oneOffCharge(claim, charge.transactionId, ref);
      await run.succeed((tx) => approveCharge(tx, claim.ledgerId, result, clock.now()), result);
      return result;
    },
  });
}

function oneOffCharge(
  claim: ChargeClaim,
  transactionId: string,
  method: { brand: string | null; last4: string },
): OneOffCharge {
  return {
    paymentId: claim.ledgerId,
    transactionId,
    amountCents: claim.amountCents,
    feeCents: claim.feeCents,
    totalCents: claim.totalCents,
    kind: claim.kind,
    brand: method.brand,
    last4: method.last4,
  };
}

async function approveCharge(tx: Transaction, ledgerId: string, result: OneOffCharge, now: Date) {
  await tx
    .update(payments)
    .set({
      status: 'approved',
      gatewayTransactionId: result.transactionId,
      responseJson: JSON.stringify(result),
      completedAt: now,
    })
    .where(eq(payments.id, ledgerId));
}

/** Settles a one-off charge whose owner died: approved at the gateway stands; anything else is given back. */
export async function recoverCharge(
  deps: PaymentDeps,
  run: RecoveryRun<OneOffCharge>,
  claim: ChargeClaim | null,
): Promise<Recovered> {
  const ledger = claim ? await ledgerRow(deps.db, claim.ledgerId) : undefined;
  if (!claim || !ledger) {
    await run.fail(new HttpError('GATEWAY_UNAVAILABLE', INTERRUPTED_MESSAGE), async () => {});
    return 'settled';
  }
  const found = await lookUp(deps, ledger);
  if (found.status === 'approved') {
    const result = oneOffCharge(claim, found.transactionId, {
      brand: ledger.methodBrand,
      last4: ledger.methodLast4 ?? '',
    });
    await run.succeed((tx) => approveCharge(tx, claim.ledgerId, result, deps.clock.now()), result);
    return 'settled';
  }
  if (['never_sent', 'not_found', 'failed', 'returned'].includes(found.status)) {
    const error =
      found.status === 'never_sent'
        ? new HttpError('GATEWAY_UNAVAILABLE', INTERRUPTED_MESSAGE)
        : new HttpError('PAYMENT_DECLINED', NOT_COMPLETED_MESSAGE);
    await run.fail(error, (tx) => releaseLedger(tx, claim.ledgerId, error));
    return 'settled';
  }
  return { retryAfterMs: RECHECK_AFTER_MS };
}
