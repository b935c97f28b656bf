import { and, eq, inArray } from 'drizzle-orm';
import { todayFor } from '../../../domain/client';
import {
  PAYMENT_INFO_UPDATED,
  PAYMENT_METHOD_REMOVED,
  PAYMENT_SOURCES,
  type RemovePhysicianPaymentInfoRequest,
  type RemovePhysicianPaymentInfoResponse,
  type SetPaymentInfoResponse,
  type SetPhysicianPaymentInfoRequest,
} from '../../../domain/payment-info';
import type { Mailer } from '../../adapters/mailer';
import { paymentMethods, payments } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { type Recovered, type RecoveryRun, runOnce, type Transaction } from '../../lib/run-once';
import { type PaymentDeps, physicianCustomer, refuseCardExpiry, refused, saveAtGateway } from './ledger';
import { putMethodOnFile } from './payment-methods';

/**
 * A physician's own card and bank account on file (the physician portal's Payment Information
 * page): saved, replaced or removed by the signed-in physician only. They pay for the physician's
 * clients when a form or the store is paid "with the card on file" in physician pages; a client's
 * own methods are never reached from here.
 */

const KIND = 'physician-payment-method';
const NOT_SAVED_MESSAGE = 'Your payment information was not saved. Please try again.';

type MethodKind = 'card' | 'ach';

function kindOf(paymentType: 'CC' | 'ACH'): MethodKind {
  return paymentType === 'CC' ? 'card' : 'ach';
}

function described(method: { kind: MethodKind; brand: string | null; last4: string }) {
  return method.kind === 'card'
    ? `${method.brand ?? 'Card'} ending in ${method.last4}`
    : `bank account ending in ${method.last4}`;
}

/** Tells the physician their method changed, in the transaction that changes it. */
async function announceChange(
  tx: Transaction,
  mailer: Mailer,
  email: string,
  what: string,
  dedupeKey: string,
) {
  await mailer.enqueue(
    tx,
    {
      to: email,
      subject: 'Physician Portal: your payment information was updated',
      text: [what, 'If you did not make this change, please contact us right away.'].join('\n\n'),
    },
    { dedupeKey },
  );
}

/**
 * Saves a tokenized card or bank account as the physician's own method of its kind, in place of
 * the one on file. Nothing is charged. One Idempotency-Key, one outcome: a repeat answers the
 * first result and saves nothing more.
 */
export async function savePhysicianPaymentMethod(
  deps: PaymentDeps,
  input: { physicianId: string; idempotencyKey: string; request: SetPhysicianPaymentInfoRequest },
): Promise<SetPaymentInfoResponse> {
  const { db, gateway, mailer } = deps;
  const { physicianId, request } = input;
  const kind = kindOf(request.Payment_Type);
  const today = todayFor(deps.clock.now());
  // Saved as the method on file.
  refuseCardExpiry(kind, request, today, { keptOnFile: true });
  const source = PAYMENT_SOURCES.physicianPortal;
  return runOnce<{ physicianId: string }, SetPaymentInfoResponse>(deps, {
    scope: `physician:${physicianId}`,
    key: input.idempotencyKey,
    kind: KIND,
    request: { source, request },
    claim: async () => ({ physicianId }),
    release: async () => {},
    recover: (run) => recoverPhysicianMethod(run),
    async work(run) {
      const customer = await physicianCustomer(db, physicianId);
      const saved = await saveAtGateway(db, gateway, customer, kind, request);
      if (saved.outcome !== 'saved') throw refused(saved.reason, saved.message);
      const answer: SetPaymentInfoResponse = {
        success: true,
        message: PAYMENT_INFO_UPDATED,
        page_name: source,
        TransactionId: null,
        amountCharged: 0,
        processingFee: 0,
      };
      // The method goes on file with the answer, in one transaction: a save cut short leaves the
      // method on file as it was (at most an unused profile at the gateway, which holds no charge).
      await run.succeed(async (tx) => {
        const row = await putMethodOnFile(tx, customer.owner, gateway.name, saved.method, request);
        await announceChange(
          tx,
          mailer,
          customer.email,
          `The ${described(row)} is now the ${kind === 'card' ? 'card' : 'bank account'} on file that pays for your clients in the Physician Portal. Nothing was charged.`,
          `physician-method:${row.id}`,
        );
      }, answer);
      mailer.kick();
      return answer;
    },
  });
}

/**
 * A save whose owner died committed nothing (the row and the answer commit together), and no money
 * moves on a save: it is given back, and a retry with a new key saves the method again.
 */
async function recoverPhysicianMethod(run: RecoveryRun<SetPaymentInfoResponse>): Promise<Recovered> {
  await run.fail(new HttpError('GATEWAY_UNAVAILABLE', NOT_SAVED_MESSAGE), async () => {});
  return 'settled';
}

/** The physician-method kind's recovery, for the reconciliation sweep. */
export function physicianMethodRecoveries() {
  return { [KIND]: (run: RecoveryRun<SetPaymentInfoResponse>) => recoverPhysicianMethod(run) };
}

/**
 * Takes the physician's card (or bank account) off file: the one shown and every earlier one of
 * its kind, so that no replaced card comes back as the default. A repeat finds nothing and answers
 * the same.
 *
 * Nothing charges a physician's method later: the forms, the new sample and the store charge it at
 * once, while the physician submits, and renewals, installments and approved vial requests charge
 * the client's own methods. A charge already sent holds its gateway references on its ledger row
 * (reconciliation and refunds read them there, not the method's row), so removing the method
 * cannot lose it. Only while such a charge is still running is removal refused, so the physician
 * does not see "removed" beside a payment that is about to say it used the card.
 */
export async function removePhysicianPaymentMethod(
  deps: Pick<PaymentDeps, 'db' | 'mailer'>,
  input: { physicianId: string; request: RemovePhysicianPaymentInfoRequest },
): Promise<RemovePhysicianPaymentInfoResponse> {
  const { db, mailer } = deps;
  const kind = kindOf(input.request.Payment_Type);
  const answer = { success: true as const, message: PAYMENT_METHOD_REMOVED[input.request.Payment_Type] };
  const customer = await physicianCustomer(db, input.physicianId);
  const removed = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.physicianId, input.physicianId), eq(paymentMethods.kind, kind)))
      .for('update');
    if (rows.length === 0) return null;
    const ids = rows.map((r) => r.id);
    const [running] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(inArray(payments.paymentMethodId, ids), eq(payments.status, 'in_progress')))
      .limit(1);
    if (running) {
      throw new HttpError(
        'PAYMENT_IN_PROGRESS',
        'A payment with this method is still being processed. Please try again in a minute.',
      );
    }
    await tx.delete(paymentMethods).where(inArray(paymentMethods.id, ids));
    const shown = rows.find((r) => r.isDefault) ?? (rows[0] as (typeof rows)[number]);
    await announceChange(
      tx,
      mailer,
      customer.email,
      `The ${described(shown)} was removed from your payment information in the Physician Portal.`,
      `physician-method-removed:${shown.id}`,
    );
    return shown;
  });
  if (removed) mailer.kick();
  return answer;
}
