import type { SetPaymentInfoRequest } from '../../../domain/payment-info';
import { storeDocument } from '../../lib/document-store';
import { HttpError } from '../../lib/http-error';
import {
  findOperation,
  isHeld,
  operationById,
  type Recovered,
  type RecoveryRun,
  type Run,
  recoverLapsed,
  runOnce,
  type Transaction,
} from '../../lib/run-once';
import type { PaymentDeps } from './ledger';
import { type ChargeClaim, chargeOnce, type OneOffCharge, recoverCharge } from './one-off-charge';
import type { PaymentMethodRow } from './payment-methods';
import { renderReceiptPdf } from './receipt-pdf';
import { findReceipt } from './receipts';

/**
 * The paid-order workflow: every paid thing (a vial request, a storage plan, a store order, a new
 * sample, a White Glove Labs screening, a staff-confirmed VIP price…) is placed through it, once
 * per Idempotency-Key, on the run-once engine:
 *
 * 1. the thing is priced by its caller, from the price book in force (domain);
 * 2. `claim` writes its pending record in its own table, committed with the operation before
 *    anything leaves the bank;
 * 3. the charge runs as its own inner operation (key `<key>:charge`), through the one ledger;
 * 4. `confirm` turns the pending record into the real one (its Client Activity row, its e-mails)
 *    in the same transaction as the operation's answer.
 *
 * A definite failure (a decline, a refused token) gives the claim back with the thing's own
 * `giveBack`. An owner that dies leaves the operation to recovery, which asks the inner charge:
 * approved, the order is confirmed; failed or never sent, it is given back; still unknown, it
 * looks again later. A retry of a key already used is answered as it was, before anything is
 * priced again (the date it chose may be past, its pre-paid vials used).
 */

/** How a paid thing is charged: the method on file, a new tokenized one, or by check (nothing now). */
export type OrderPayment =
  | { kind: 'card' | 'ach'; onFile: PaymentMethodRow }
  | { kind: 'card' | 'ach'; token: SetPaymentInfoRequest; keepOnFile: boolean }
  | { kind: 'check' };

/** The charge of one order, priced by its caller. */
export interface OrderCharge<C = unknown> {
  /** The ledger's source (the page or program that took the money). */
  source: string;
  /** The ledger's purpose. */
  purpose: string;
  /** What is charged before the card fee. */
  amountCents: number;
  /** The card processing fee of the caller's price; 0 by ACH. */
  feeCents: number;
  payment: Exclude<OrderPayment, { kind: 'check' }>;
  /** The ledger's description; from the claim when it names what the claim created. */
  description: string | ((claim: PaidClaim<C>) => string);
  /** A physician paying with their own method for their client. */
  payer?: { physicianId: string };
}

/** What the workflow keeps with the operation: the thing's own claim and its charge's key. */
export type PaidClaim<C> = C & {
  clientId: string;
  operationId: string;
  /** The inner charge's key; null when nothing is charged now (pre-paid, zero, by check). */
  chargeKey: string | null;
};

/** An approved charge, with its receipt when the kind keeps one. */
export type PaidCharge = OneOffCharge & { receiptDocumentId: string | null };

export type PaidOrderDeps = PaymentDeps & { documentsKey: Buffer };

/** A kind of paid thing: its confirm and give-back, the steps its recovery needs too. */
export interface PaidOrderKind<C, T> {
  /** The operation kind, unique among run-once kinds. */
  kind: string;
  /**
   * Turns the pending record into the real one (its Client Activity row, its e-mails) and
   * returns the answer, in one transaction with the operation's outcome. `charge` is null when
   * nothing was charged now.
   */
  confirm(tx: Transaction, deps: PaidOrderDeps, claim: PaidClaim<C>, charge: PaidCharge | null): Promise<T>;
  /** Keep the charge's receipt PDF with the client's documents, for `confirm` to attach. */
  receipt?: boolean;
  /**
   * Gives the claim back (nothing was charged, or the charge failed), in the transaction that
   * records the failure; `error` says why (a `PaymentRefused` names the gateway's reason).
   */
  giveBack(tx: Transaction, claim: PaidClaim<C>, error: unknown): Promise<void>;
  /** False when the pending record is gone (given back by recovery while its owner stalled). */
  stillClaimed(deps: PaidOrderDeps, claim: PaidClaim<C>): Promise<boolean>;
  /** The words of a give-back: interrupted before the charge, or the charge did not go through. */
  messages: { interrupted: string; notPaid: string };
}

/** What one placement needs, computed only when its key is new. */
export interface Placement<C> {
  /**
   * Writes the pending record in the thing's own table; a throw refuses with nothing kept. A
   * placement that creates its client (a new sample) names it here.
   */
  claim(tx: Transaction, operationId: string): Promise<C & { clientId?: string }>;
  /** The charge, or null when nothing is charged now. */
  charge: OrderCharge<C> | null;
  /** Runs after the claim commits and before the charge (a fault point, a check of the claim). */
  beforeCharge?: (claim: PaidClaim<C>) => Promise<void>;
  /** Runs after an approved charge and before the confirmation (a fault point, a note on the claim). */
  afterCharge?: (claim: PaidClaim<C>, charge: OneOffCharge) => Promise<void>;
}

const RECHECK_AFTER_MS = 60_000;

/** When to look again at a paid order whose charge is still held: just after the charge's lease ends. */
export function recheckAfterMs(chargeOp: { leaseUntil: Date }, now: Date): number {
  const leaseLeft = chargeOp.leaseUntil.getTime() - now.getTime();
  return Math.min(RECHECK_AFTER_MS, Math.max(1_000, leaseLeft + 1_000));
}

export const chargeKeyOf = (idempotencyKey: string) => `${idempotencyKey}:charge`;

/**
 * The receipt PDF of an approved charge, kept with the client's documents under the order's
 * operation (so a confirmation that never commits leaves it to the clean-up).
 */
async function withReceipt<C, T>(
  deps: PaidOrderDeps,
  kind: PaidOrderKind<C, T>,
  claim: PaidClaim<C>,
  charge: OneOffCharge,
): Promise<PaidCharge> {
  if (!kind.receipt) return { ...charge, receiptDocumentId: null };
  const found = await findReceipt(deps.db, charge.paymentId);
  if (!found) return { ...charge, receiptDocumentId: null };
  const now = deps.clock.now();
  const stored = await storeDocument(deps.db, deps.documentsKey, {
    clientId: claim.clientId,
    kind: 'receipt',
    fileName: 'receipt.pdf',
    contentType: 'application/pdf',
    content: await renderReceiptPdf(found.receipt, now),
    now,
    operationId: claim.operationId,
  });
  return { ...charge, receiptDocumentId: stored.id };
}

/** A payment choice as the one-off charge takes it. */
function chargeMethod(payment: OrderCharge['payment']) {
  return 'onFile' in payment
    ? { onFile: payment.onFile }
    : { token: payment.token, keepOnFile: payment.keepOnFile };
}

/**
 * Places one paid order. `place` runs only for a new key: a retry of a key already used is
 * answered as it was (or settled first when its owner died), without pricing it again.
 */
export async function placePaidOrder<C, T>(
  deps: PaidOrderDeps,
  kind: PaidOrderKind<C, T>,
  input: {
    /** Whose order it is; or, for an order that creates its client, the scope of its keys. */
    owner: { clientId: string } | { scope: string };
    idempotencyKey: string;
    /** The submission as sent: the same key with another request is refused. */
    request: unknown;
    place: () => Promise<Placement<C>>;
  },
): Promise<T> {
  const { owner } = input;
  const scope = 'clientId' in owner ? `client:${owner.clientId}` : owner.scope;
  const recover = (run: RecoveryRun<T>, claim: PaidClaim<C> | null) =>
    recoverPaidOrder(deps, kind, run, claim);
  const base = { scope, key: input.idempotencyKey, kind: kind.kind, request: input.request, recover };

  if (await findOperation(deps.db, scope, input.idempotencyKey)) {
    const alreadyMade = (): never => {
      throw new HttpError('IDEMPOTENCY_CONFLICT', 'Please try again.');
    };
    return runOnce<PaidClaim<C>, T>(deps, {
      ...base,
      claim: async () => alreadyMade(),
      release: async () => {},
      work: async () => alreadyMade(),
    });
  }

  const placement = await input.place();
  const { charge } = placement;
  return runOnce<PaidClaim<C>, T>(deps, {
    ...base,
    async claim(tx, operationId) {
      const own = await placement.claim(tx, operationId);
      const clientId = 'clientId' in owner ? owner.clientId : own.clientId;
      if (!clientId) throw new Error('a paid order names its client');
      return {
        ...own,
        clientId,
        operationId,
        // An order keyed in another scope (a physician's, a staff member's) names that scope in
        // its charge's key, so it can never meet a key of the client's own.
        chargeKey: charge
          ? chargeKeyOf('clientId' in owner ? input.idempotencyKey : `${scope}:${input.idempotencyKey}`)
          : null,
      };
    },
    release: (tx, claim, error) => kind.giveBack(tx, claim, error),
    recover,
    async work(run: Run<T>, claim) {
      // An owner stalled past its lease may find its claim given back by recovery: then it must
      // not charge for an order that no longer exists.
      if (!(await kind.stillClaimed(deps, claim))) {
        throw new HttpError('IDEMPOTENCY_CONFLICT', kind.messages.interrupted);
      }
      await placement.beforeCharge?.(claim);
      let charged: PaidCharge | null = null;
      if (charge && claim.chargeKey) {
        // From here a failure may leave a charge outside: recovery asks the charge's operation.
        run.setInDoubt(true);
        let approved: OneOffCharge;
        try {
          approved = await chargeOnce(deps, {
            clientId: claim.clientId,
            source: charge.source,
            purpose: charge.purpose,
            idempotencyKey: claim.chargeKey,
            request: input.request,
            amountCents: charge.amountCents,
            feeCents: charge.feeCents,
            kind: charge.payment.kind,
            method: chargeMethod(charge.payment),
            description:
              typeof charge.description === 'string' ? charge.description : charge.description(claim),
            ...(charge.payer ? { payer: charge.payer } : {}),
          });
        } catch (error) {
          // A definite refusal (a decline, a stale token): nothing moved; the claim is given back.
          if (error instanceof HttpError && error.code !== 'PAYMENT_PENDING') run.setInDoubt(false);
          throw error;
        }
        await placement.afterCharge?.(claim, approved);
        charged = await withReceipt(deps, kind, claim, approved);
      }
      const done = await run.succeedWith((tx) => kind.confirm(tx, deps, claim, charged));
      // The confirmations are in the outbox: send them now rather than at the next sweep.
      deps.mailer.kick();
      return done;
    },
  });
}

/**
 * Settles a paid order whose owner died, by its inner charge: approved, the order is confirmed;
 * failed or never sent, it is given back; still unknown, it is looked at again later.
 */
async function recoverPaidOrder<C, T>(
  deps: PaidOrderDeps,
  kind: PaidOrderKind<C, T>,
  run: RecoveryRun<T>,
  claim: PaidClaim<C> | null,
): Promise<Recovered> {
  const giveBack = async (error: HttpError): Promise<Recovered> => {
    await run.fail(error, async (tx) => {
      if (claim) await kind.giveBack(tx, claim, error);
    });
    return 'settled';
  };
  const interrupted = () => new HttpError('IDEMPOTENCY_CONFLICT', kind.messages.interrupted);
  if (!claim || !(await kind.stillClaimed(deps, claim))) return giveBack(interrupted());

  let charged: PaidCharge | null = null;
  if (claim.chargeKey) {
    let chargeOp = await findOperation(deps.db, `client:${claim.clientId}`, claim.chargeKey);
    // The charge's owner died with it: settle the charge first (looked up at the gateway).
    if (chargeOp?.status === 'running' && !isHeld(chargeOp, deps.clock.now())) {
      await recoverLapsed(deps, chargeOp.id, (run: RecoveryRun<OneOffCharge>, claim: ChargeClaim | null) =>
        recoverCharge(deps, run, claim),
      );
      chargeOp = await operationById(deps.db, chargeOp.id);
    }
    if (!chargeOp) return giveBack(interrupted());
    // Its owner may still be alive (or just died with its lease): look again when that lease ends.
    if (chargeOp.status === 'running') return { retryAfterMs: recheckAfterMs(chargeOp, deps.clock.now()) };
    if (chargeOp.status !== 'succeeded') {
      return giveBack(new HttpError('PAYMENT_DECLINED', kind.messages.notPaid));
    }
    charged = await withReceipt(
      deps,
      kind,
      claim,
      JSON.parse(chargeOp.responseJson ?? 'null') as OneOffCharge,
    );
  }
  await run.succeedWith((tx) => kind.confirm(tx, deps, claim, charged));
  deps.mailer.kick();
  return 'settled';
}

/** The recoveries of paid-order kinds, for the reconciliation sweep. */
export function paidOrderRecovery<C, T>(deps: PaidOrderDeps, kind: PaidOrderKind<C, T>) {
  return (run: RecoveryRun<T>, claim: PaidClaim<C> | null) => recoverPaidOrder(deps, kind, run, claim);
}
