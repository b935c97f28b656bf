import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { SetPaymentInfoRequest } from '../../../domain/payment-info';
import { cardExpiryProblem } from '../../../domain/payments';
import type { Mailer } from '../../adapters/mailer';
import type {
  ChargeLookup,
  ChargeResult,
  DeclineReason,
  PaymentGateway,
} from '../../adapters/payments/payment-gateway';
import type { Database } from '../../db/client';
import { annualStorageFees, payments } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { RunOnceDeps, Transaction } from '../../lib/run-once';
import { clientContact } from '../clients/client-directory';
import { findPhysician } from '../physicians/physician-repository';
import { findGatewayCustomer, type MethodOwner } from './payment-methods';

/**
 * The payment ledger's shared steps: the dependencies of a paying service, the gateway's
 * refusals as errors, our charge reference, the ledger row's lookups and release, and the
 * question reconciliation asks the gateway about a charge whose outcome was never recorded.
 * The payment-method save (payment-service.ts) and the one-off charge (one-off-charge.ts) are
 * built on them.
 */

export interface PaymentDeps extends RunOnceDeps {
  gateway: PaymentGateway;
  mailer: Mailer;
  log: { warn(obj: object, msg: string): void };
  /** Encrypts the documents a payment keeps (a refund's receipt, attached to its e-mail). */
  documentsKey: Buffer;
}

export type LedgerRow = typeof payments.$inferSelect;

/** A gateway's refusal, with its reason: a renewal retries a soft one and gives up on a hard one. */
export class PaymentRefused extends HttpError {
  constructor(
    code: 'GATEWAY_UNAVAILABLE' | 'PAYMENT_DECLINED',
    message: string,
    readonly reason: DeclineReason | 'unknown',
  ) {
    super(code, message);
  }
}

/** A decline or a stale token is the client's to fix (402); a gateway failure is ours and worth retrying (503). */
export function refused(reason: DeclineReason | 'unknown', message: string) {
  return new PaymentRefused(
    reason === 'gateway_unavailable' || reason === 'processing_error'
      ? 'GATEWAY_UNAVAILABLE'
      : 'PAYMENT_DECLINED',
    message,
    reason,
  );
}

/** A charge whose answer does not say whether money moved: only the gateway's records can tell. */
export function outcomeUnknown(charge: ChargeResult): boolean {
  if (charge.outcome === 'approved') return false;
  return (
    charge.reason === 'gateway_unavailable' || (charge.outcome === 'error' && charge.transactionId !== null)
  );
}

export const CONFIRMING_MESSAGE =
  'We could not confirm your payment with the card processor yet. We are checking it and will e-mail you the outcome; you will not be charged twice.';
export const INTERRUPTED_MESSAGE =
  'The payment did not go through and nothing was charged. Please try again.';
export const NOT_COMPLETED_MESSAGE =
  'The payment could not be completed and nothing was charged. Please try again or use another card.';
const DEFAULT_NOT_FOUND_GRACE_MS = 2 * 60_000;
export const RECHECK_AFTER_MS = 60_000;

/**
 * Our reference for a ledger row's charge: 20 letters and digits from its id, the gateway's
 * invoice number, by which reconciliation finds the charge again.
 */
export function chargeReference(ledgerId: string): string {
  return ledgerId.replace(/-/g, '').slice(0, 20).toUpperCase();
}

export async function ledgerRow(db: Database, id: string): Promise<LedgerRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  return row;
}

/** These ledger rows, by id (no id, or the id of no row, is absent). */
export async function ledgerRows(
  db: Database,
  ids: readonly (string | null)[],
): Promise<Map<string, LedgerRow>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select().from(payments).where(inArray(payments.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}

/** A paying client as the gateway knows them: their Client ID and e-mail. */
export async function clientCustomer(db: Database, clientId: string): Promise<GatewayCustomer> {
  const client = await clientContact(db, clientId);
  if (!client) throw new HttpError('NOT_FOUND', 'Not found');
  return { owner: clientId, actId: client.clientActId, email: client.email };
}

/** Whose gateway customer profile a new method joins: its owner, and how the gateway knows them. */
export interface GatewayCustomer {
  owner: MethodOwner;
  actId: string;
  email: string;
}

export async function physicianCustomer(db: Database, physicianId: string): Promise<GatewayCustomer> {
  const physician = await findPhysician(db, physicianId);
  if (!physician) throw new HttpError('NOT_FOUND', 'Not found');
  return { owner: { physicianId }, actId: physician.physicianActId, email: physician.email };
}

/**
 * The card forms' expiry rules, whatever the browser checked: a new card must not be past its
 * month, and one kept on file must have more than a year left (specs 1 and 2; a card used once
 * needs only to be unexpired, spec 3 section 5).
 */
export function refuseCardExpiry(
  kind: 'card' | 'ach',
  card: Pick<SetPaymentInfoRequest, 'Month_of_Expiry' | 'Year_of_Expiry'>,
  today: string,
  kept: { keptOnFile: boolean },
) {
  if (kind !== 'card') return;
  const problem = cardExpiryProblem(Number(card.Month_of_Expiry), Number(card.Year_of_Expiry), today, kept);
  if (problem) throw new HttpError('VALIDATION', problem.message, { [problem.field]: problem.message });
}

/** Exchanges a browser token for a stored method at the gateway, in its owner's customer profile. */
export async function saveAtGateway(
  db: Database,
  gateway: PaymentGateway,
  customer: GatewayCustomer,
  kind: 'card' | 'ach',
  request: SetPaymentInfoRequest,
) {
  return gateway.saveMethod({
    customerRef: await findGatewayCustomer(db, customer.owner, gateway.name),
    merchantCustomerId: customer.actId,
    email: request.Credit_Card_Biling_Email_Address || customer.email,
    kind,
    token: request.token,
    billTo:
      kind === 'card'
        ? {
            firstName: request.Credit_Card_Holder_First_Name ?? '',
            lastName: request.Credit_Card_Holder_Last_Name ?? '',
            address: request.Credit_Card_Billing_Street,
            city: request.Credit_Card_Billing_City,
            state: request.Credit_Card_Billing_State,
            zip: request.Credit_Card_Billing_Zip_Code,
            country: request.Country,
          }
        : undefined,
  });
}

/** Gives a claim's overdue years back and records how its ledger row ended. */
export async function releaseLedger(tx: Transaction, ledgerId: string, error: unknown) {
  await tx
    .update(annualStorageFees)
    .set({ paymentId: null })
    .where(and(eq(annualStorageFees.paymentId, ledgerId), isNull(annualStorageFees.paidAt)));
  const declined = error instanceof HttpError && error.statusCode === 402;
  await tx
    .update(payments)
    .set({
      status: declined ? 'declined' : 'error',
      message: error instanceof Error ? error.message.slice(0, 300) : 'Failed',
      completedAt: new Date(),
    })
    .where(and(eq(payments.id, ledgerId), eq(payments.status, 'in_progress')));
}

/** The decision on a charge sent whose outcome we never recorded, from the gateway's records. */
export async function lookUp(
  deps: PaymentDeps,
  ledger: LedgerRow,
): Promise<ChargeLookup | { status: 'never_sent' } | { status: 'too_early' }> {
  if (!ledger.chargeStartedAt || !ledger.reference || !ledger.gatewayCustomerRef)
    return { status: 'never_sent' };
  const found = await deps.gateway.lookupCharge({
    customerRef: ledger.gatewayCustomerRef,
    reference: ledger.reference,
  });
  if (found.status === 'not_found') {
    const grace = deps.gateway.notFoundGraceMs ?? DEFAULT_NOT_FOUND_GRACE_MS;
    if (deps.clock.now().getTime() - ledger.chargeStartedAt.getTime() < grace) return { status: 'too_early' };
  }
  return found;
}
