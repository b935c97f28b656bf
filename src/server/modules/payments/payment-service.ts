import { createHash } from 'node:crypto';
import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import { todayFor } from '../../../domain/client';
import { addYears } from '../../../domain/dates';
import { centsToAmount, formatUsd } from '../../../domain/money';
import {
  PAYMENT_INFO_UPDATED,
  type PaymentSource,
  type SetPaymentInfoRequest,
  type SetPaymentInfoResponse,
} from '../../../domain/payment-info';
import { cardProcessingFee, hasMoreThanOneYearRemaining, paymentMessages } from '../../../domain/payments';
import type { Mailer } from '../../adapters/mailer';
import type { DeclineReason, PaymentGateway } from '../../adapters/payments/payment-gateway';
import type { Database } from '../../db/client';
import { annualStorageFees, clientActivities, clients, payments } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import { jsonSha256 } from '../../lib/secrets';
import { findGatewayCustomer, type PaymentMethodRow, putMethodOnFile, removeMethod } from './payment-methods';

export interface PaymentDeps {
  db: Database;
  clock: Clock;
  gateway: PaymentGateway;
  mailer: Mailer;
  log: { warn(obj: object, msg: string): void };
}

const IN_PROGRESS_WAIT_MS = 30_000;

/** 20 characters of base32 from a key: the gateway's invoice number. */
function chargeReference(key: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const digest = createHash('sha256').update(key).digest();
  let out = '';
  for (let i = 0; i < 20; i += 1) out += alphabet[(digest[i] as number) % 32];
  return out;
}

/** A decline or a stale token is the client's to fix (402); a gateway failure is ours and worth retrying (503). */
function refused(reason: DeclineReason | 'unknown', message: string) {
  return reason === 'gateway_unavailable' || reason === 'processing_error'
    ? new HttpError(503, 'GATEWAY_UNAVAILABLE', message)
    : new HttpError(402, 'PAYMENT_DECLINED', message);
}

/** The overdue annual storage fees of a client today: the rows and their total in cents. */
export async function overdueFees(db: Database, clientId: string, today: string) {
  const rows = await db
    .select()
    .from(annualStorageFees)
    .where(
      and(
        eq(annualStorageFees.clientId, clientId),
        isNull(annualStorageFees.paidAt),
        lt(annualStorageFees.dueDate, today),
      ),
    );
  return { rows, totalCents: rows.reduce((sum, r) => sum + r.amountCents, 0) };
}

type LedgerRow = typeof payments.$inferSelect;

/** Waits for a concurrent request with the same key to finish, then answers what it answered. */
async function replay<T = SetPaymentInfoResponse>(
  db: Database,
  row: LedgerRow,
  requestHash: string,
): Promise<T> {
  if (row.requestHash !== requestHash) {
    throw new HttpError(
      422,
      'IDEMPOTENCY_CONFLICT',
      'This submission was already used for different payment details.',
    );
  }
  let current = row;
  const deadline = Date.now() + IN_PROGRESS_WAIT_MS;
  while (current.status === 'in_progress' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [next] = await db.select().from(payments).where(eq(payments.id, row.id)).limit(1);
    if (!next) break;
    current = next;
  }
  if (current.status === 'approved' || current.status === 'saved') {
    return JSON.parse(current.responseJson ?? '{}') as T;
  }
  if (current.status === 'in_progress') {
    throw new HttpError(
      409,
      'IDEMPOTENCY_CONFLICT',
      'This payment is still being processed. Please wait a moment.',
    );
  }
  throw refused(
    current.status === 'error' ? 'processing_error' : 'unknown',
    current.message ?? 'The payment was declined.',
  );
}

/** Exchanges a browser token for a stored method at the gateway, in this client's customer profile. */
async function saveAtGateway(
  db: Database,
  gateway: PaymentGateway,
  client: { id: string; actId: string; email: string },
  kind: 'card' | 'ach',
  request: SetPaymentInfoRequest,
) {
  return gateway.saveMethod({
    customerRef: await findGatewayCustomer(db, client.id, gateway.name),
    merchantCustomerId: client.actId,
    email: request.Credit_Card_Biling_Email_Address || client.email,
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

/**
 * Opens the ledger row of a submission, or finds the one its idempotency key already opened:
 * then the first submission's answer is replayed (after it finishes) instead of charging again.
 */
async function openLedgerRow<T>(
  db: Database,
  values: typeof payments.$inferInsert,
): Promise<{ started: LedgerRow } | { replayed: T }> {
  const [started] = await db.insert(payments).values(values).onConflictDoNothing().returning();
  if (started) return { started };
  const [existing] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, values.clientId), eq(payments.idempotencyKey, values.idempotencyKey)))
    .limit(1);
  if (!existing) throw new HttpError(409, 'IDEMPOTENCY_CONFLICT', 'Please try again.');
  return { replayed: await replay<T>(db, existing, values.requestHash) };
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
  const { db, clock, gateway, mailer, log } = deps;
  const { clientId, source, idempotencyKey, request } = input;
  const now = clock.now();
  const today = todayFor(now);
  const kind = request.Payment_Type === 'CC' ? 'card' : 'ach';
  const requestHash = jsonSha256({ source, request });

  // The card rules hold here too, whatever the browser checked.
  if (
    kind === 'card' &&
    !hasMoreThanOneYearRemaining(Number(request.Month_of_Expiry), Number(request.Year_of_Expiry), today)
  ) {
    throw new HttpError(400, 'VALIDATION', paymentMessages.oneYearRemaining, {
      Year_of_Expiry: paymentMessages.oneYearRemaining,
    });
  }
  const overdue =
    input.chargeOverdue === false ? { rows: [], totalCents: 0 } : await overdueFees(db, clientId, today);
  if (input.expectedTotalCents !== undefined) {
    const quoted = overdue.totalCents + cardProcessingFee(overdue.totalCents, kind);
    if (quoted !== input.expectedTotalCents) {
      throw new HttpError(
        409,
        'AMOUNT_CHANGED',
        `The amount due is now ${formatUsd(quoted)}. Please review it and save again.`,
      );
    }
  }
  const feeCents = cardProcessingFee(overdue.totalCents, kind);
  const totalCents = overdue.totalCents + feeCents;

  const opened = await openLedgerRow<SetPaymentInfoResponse>(db, {
    clientId,
    idempotencyKey,
    requestHash,
    source,
    purpose: 'annual_storage_overdue',
    methodKind: kind,
    amountCents: overdue.totalCents,
    feeCents,
    totalCents,
    status: 'in_progress',
    createdAt: now,
  });
  if ('replayed' in opened) return opened.replayed;
  const { started } = opened;

  const finish = (values: Partial<typeof payments.$inferInsert>) =>
    db
      .update(payments)
      .set({ ...values, completedAt: clock.now() })
      .where(eq(payments.id, started.id));

  // Claim the overdue years for this submission before any gateway call: a second submission
  // (another tab, the public link) finds them taken and charges nothing.
  const feeIds = overdue.rows.map((r) => r.id);
  const releaseFees = () =>
    db.update(annualStorageFees).set({ paymentId: null }).where(eq(annualStorageFees.paymentId, started.id));
  if (feeIds.length > 0) {
    const claimed = await db
      .update(annualStorageFees)
      .set({ paymentId: started.id })
      .where(
        and(
          inArray(annualStorageFees.id, feeIds),
          isNull(annualStorageFees.paymentId),
          isNull(annualStorageFees.paidAt),
        ),
      )
      .returning({ id: annualStorageFees.id });
    if (claimed.length < feeIds.length) {
      await releaseFees();
      await finish({ status: 'error', message: 'Another payment for these fees is in progress.' });
      throw new HttpError(
        409,
        'IDEMPOTENCY_CONFLICT',
        'A payment for these fees is already in progress. Please wait a moment and reload.',
      );
    }
  }

  const [client] = await db
    .select({ actId: clients.clientActId, email: clients.email, paidUntil: clients.annualStoragePaidUntil })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  if (!client) throw new HttpError(404, 'NOT_FOUND', 'Not found');

  const saved = await saveAtGateway(db, gateway, { id: clientId, ...client }, kind, request);
  if (saved.outcome !== 'saved') {
    await releaseFees();
    await finish({ status: saved.outcome === 'declined' ? 'declined' : 'error', message: saved.message });
    throw refused(saved.reason, saved.message);
  }
  const method = await putMethodOnFile(db, clientId, gateway.name, saved.method, request);

  let transactionId: string | null = null;
  if (totalCents > 0) {
    const charge = await gateway.charge({
      customerRef: saved.method.customerRef,
      paymentRef: saved.method.paymentRef,
      amountCents: totalCents,
      // Keyed by the years it pays, so a retry for the same fees meets the gateway's duplicate check.
      reference: chargeReference(`${clientId}:fees:${jsonSha256([...feeIds].sort()).slice(0, 24)}`),
      description: `Annual storage, ${overdue.rows.length} overdue year(s)`,
    });
    if (charge.outcome !== 'approved') {
      await removeMethod(db, method);
      await releaseFees();
      await finish({
        status: charge.outcome === 'declined' ? 'declined' : 'error',
        message: charge.message,
        gatewayTransactionId: charge.transactionId,
        paymentMethodId: null,
      });
      throw refused(charge.reason, charge.message);
    }
    transactionId = charge.transactionId;
  }

  const response: SetPaymentInfoResponse = {
    success: true,
    message: PAYMENT_INFO_UPDATED,
    page_name: source,
    TransactionId: transactionId,
    amountCharged: centsToAmount(totalCents),
    processingFee: centsToAmount(feeCents),
  };

  await db.transaction(async (tx) => {
    if (totalCents > 0) {
      await tx
        .update(annualStorageFees)
        .set({ paidAt: now, paymentId: started.id })
        .where(eq(annualStorageFees.paymentId, started.id));
      const lastDue = overdue.rows
        .map((r) => r.dueDate)
        .sort()
        .at(-1) as string;
      const paidUntil = addYears(lastDue, 1);
      if (!client.paidUntil || client.paidUntil < paidUntil) {
        await tx
          .update(clients)
          .set({ annualStoragePaidUntil: paidUntil, updatedAt: now })
          .where(eq(clients.id, clientId));
      }
      await tx.insert(clientActivities).values({
        clientId,
        type: 'Annual Storage Fee',
        closeDate: today,
        purchasedPlanName: `Annual Storage (${overdue.rows.length} year${overdue.rows.length === 1 ? '' : 's'})`,
        stageName: 'Closed Won',
      });
    }
    await tx
      .update(payments)
      .set({
        status: totalCents > 0 ? 'approved' : 'saved',
        paymentMethodId: method.id,
        gatewayTransactionId: transactionId,
        responseJson: JSON.stringify(response),
        completedAt: clock.now(),
      })
      .where(eq(payments.id, started.id));
  });

  const described =
    kind === 'card'
      ? `${method.brand ?? 'Card'} ending in ${method.last4}`
      : `bank account ending in ${method.last4}`;
  await mailer
    .send({
      to: client.email,
      subject: 'Client Portal: your payment information was updated',
      text: [
        `The payment method on file for your annual storage is now the ${described}.`,
        totalCents > 0
          ? `We charged ${formatUsd(totalCents)} to it for your overdue annual storage fees${feeCents > 0 ? ` (including a ${formatUsd(feeCents)} card processing fee)` : ''}. Transaction ${transactionId}.`
          : 'Nothing was charged today.',
        'If you did not make this change, please contact us right away.',
      ].join('\n\n'),
    })
    .catch((error: unknown) => log.warn({ err: error }, 'payment method notice not sent'));

  return response;
}

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

/**
 * Charges an amount the server computed (a White Glove Labs kit) once per idempotency key,
 * through the same ledger as every payment: with the method on file, or with a new tokenized
 * one that is kept on file only when the client asked. A card adds the processing fee.
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
    kind: 'card' | 'ach';
    method: { onFile: PaymentMethodRow } | { token: SetPaymentInfoRequest; keepOnFile: boolean };
    /**
     * The key of the gateway's duplicate check, from the stored method charged: the same purchase
     * retried with the same card (after a timeout, say) is recognised as one by the gateway.
     */
    gatewayKey: (paymentRef: string) => string;
    description: string;
  },
): Promise<OneOffCharge> {
  const { db, clock, gateway } = deps;
  const { clientId, kind } = input;
  const requestHash = jsonSha256({ source: input.source, request: input.request });
  const feeCents = cardProcessingFee(input.amountCents, kind);
  const totalCents = input.amountCents + feeCents;
  const opened = await openLedgerRow<OneOffCharge>(db, {
    clientId,
    idempotencyKey: input.idempotencyKey,
    requestHash,
    source: input.source,
    purpose: input.purpose,
    methodKind: kind,
    amountCents: input.amountCents,
    feeCents,
    totalCents,
    status: 'in_progress',
    createdAt: clock.now(),
  });
  if ('replayed' in opened) return opened.replayed;
  const { started } = opened;
  const finish = (values: Partial<typeof payments.$inferInsert>) =>
    db
      .update(payments)
      .set({ ...values, completedAt: clock.now() })
      .where(eq(payments.id, started.id));

  let ref: { customerRef: string; paymentRef: string; brand: string | null; last4: string };
  let keptRow: PaymentMethodRow | null = null;
  if ('onFile' in input.method) {
    const row = input.method.onFile;
    if (!row.gatewayCustomerRef || !row.gatewayPaymentRef) {
      await finish({ status: 'error', message: 'The method on file has no gateway reference.' });
      throw new HttpError(409, 'VALIDATION', 'Please enter the payment details again.');
    }
    ref = {
      customerRef: row.gatewayCustomerRef,
      paymentRef: row.gatewayPaymentRef,
      brand: row.brand,
      last4: row.last4,
    };
  } else {
    const request = input.method.token;
    const [client] = await db
      .select({ actId: clients.clientActId, email: clients.email })
      .from(clients)
      .where(eq(clients.id, clientId))
      .limit(1);
    if (!client) throw new HttpError(404, 'NOT_FOUND', 'Not found');
    const saved = await saveAtGateway(db, gateway, { id: clientId, ...client }, kind, request);
    if (saved.outcome !== 'saved') {
      await finish({ status: saved.outcome === 'declined' ? 'declined' : 'error', message: saved.message });
      throw refused(saved.reason, saved.message);
    }
    if (input.method.keepOnFile)
      keptRow = await putMethodOnFile(db, clientId, gateway.name, saved.method, request);
    ref = {
      customerRef: saved.method.customerRef,
      paymentRef: saved.method.paymentRef,
      brand: saved.method.brand ?? request.Credit_Card_Type ?? null,
      last4: saved.method.last4,
    };
  }

  const charge = await gateway.charge({
    customerRef: ref.customerRef,
    paymentRef: ref.paymentRef,
    amountCents: totalCents,
    reference: chargeReference(input.gatewayKey(ref.paymentRef)),
    description: input.description,
  });
  if (charge.outcome !== 'approved') {
    if (keptRow) await removeMethod(db, keptRow);
    await finish({
      status: charge.outcome === 'declined' ? 'declined' : 'error',
      message: charge.message,
      gatewayTransactionId: charge.transactionId,
    });
    throw refused(charge.reason, charge.message);
  }
  const result: OneOffCharge = {
    paymentId: started.id,
    transactionId: charge.transactionId,
    amountCents: input.amountCents,
    feeCents,
    totalCents,
    kind,
    brand: ref.brand,
    last4: ref.last4,
  };
  await finish({
    status: 'approved',
    paymentMethodId: 'onFile' in input.method ? input.method.onFile.id : (keptRow?.id ?? null),
    gatewayTransactionId: charge.transactionId,
    responseJson: JSON.stringify(result),
  });
  return result;
}
