import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayFor } from '../../../domain/client';
import { isoToUsDate } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import { formatUsd } from '../../../domain/money';
import {
  type PaymentInDoubt,
  paymentIdParamsSchema,
  paymentsInDoubtResponseSchema,
  queueMessages,
  type SettlePaymentResponse,
  settlePaymentResponseSchema,
} from '../../../domain/staff-queues';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import { expireLease, isHeld, operationById, recoverLapsed, type Transaction } from '../../lib/run-once';
import { noteAuditAmount, noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { clientContact, clientContacts, clientFullName } from '../clients/client-directory';
import type { RecoveriesByKind, StaffQueue, StaffQueueDeps } from '../staff/queues/queue';
import { payments } from './schema';

/**
 * Payments whose outcome is unknown: the ledger's rows still in progress (their owner never
 * recorded an outcome) or errored. Staff settle each from the gateway's own records: a row in
 * progress through its operation's recovery (the same as the reconciliation sweep, so what it
 * paid for is applied or given back once), an errored row by looking its charge up by our
 * reference. Approved at the gateway is paid; declined, voided or never received is failed;
 * held for review or the gateway unreachable stays in the queue.
 */

type LedgerRow = typeof payments.$inferSelect;
const IN_DOUBT = ['in_progress', 'error'] as const;
/** Longer than any live submission holds its payment (the engine waits 20 s for a repeat). */
const LIVE_OWNER_MS = 5 * 60_000;

async function inDoubtRows(db: Database, id?: string): Promise<PaymentInDoubt[]> {
  const rows = await db
    .select()
    .from(payments)
    .where(and(inArray(payments.status, [...IN_DOUBT]), id ? eq(payments.id, id) : undefined))
    .orderBy(asc(payments.createdAt));
  const clients = await clientContacts(
    db,
    rows.map((row) => row.clientId),
  );
  return rows.flatMap((p) => {
    const client = clients.get(p.clientId);
    if (!client) return [];
    return [
      {
        id: p.id,
        clientId: p.clientId,
        clientActId: client.clientActId,
        clientName: clientFullName(client),
        createdAt: p.createdAt.toISOString(),
        status: p.status as PaymentInDoubt['status'],
        purpose: p.purpose,
        source: p.source,
        totalCents: p.totalCents,
        method: p.methodLast4
          ? `${p.methodKind === 'card' ? (p.methodBrand ?? 'Card') : 'Bank account'} ending in ${p.methodLast4}`
          : p.methodKind === 'card'
            ? 'Card'
            : 'Bank account',
        reference: p.reference,
        message: p.message,
      },
    ];
  });
}

async function ledgerRow(db: Database, id: string): Promise<LedgerRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  return row;
}

/** Tells the client how a payment in doubt ended, once per payment. */
async function tellClient(
  deps: AppDeps,
  tx: Database | Transaction,
  row: LedgerRow,
  outcome: 'paid' | 'failed',
) {
  const client = await clientContact(tx, row.clientId);
  if (!client) return;
  const what = `Your payment of ${formatUsd(row.totalCents)} of ${isoToUsDate(todayFor(row.createdAt))}`;
  await deps.mailer.enqueue(
    tx,
    {
      to: client.email,
      subject: 'Client Portal: the outcome of your payment',
      text:
        outcome === 'paid'
          ? `${what} went through.`
          : `${what} did not go through, and nothing was charged. Please try again or contact us.`,
    },
    { dedupeKey: `payment-settled:${row.id}` },
  );
}

/**
 * An errored row (or one whose operation is over): the gateway's record of our reference
 * decides, with a conditional update so two staff members settle it once.
 */
async function settleFromGateway(deps: AppDeps, row: LedgerRow): Promise<'paid' | 'failed' | 'in_doubt'> {
  const found =
    row.reference && row.gatewayCustomerRef && row.chargeStartedAt
      ? await deps.gateway.lookupCharge({ customerRef: row.gatewayCustomerRef, reference: row.reference })
      : ({ status: 'not_found' } as const);
  if (found.status === 'pending' || found.status === 'unavailable') return 'in_doubt';
  const paid = found.status === 'approved';
  const outcome = paid ? 'paid' : 'failed';
  const settled = await deps.db.transaction(async (tx) => {
    const [done] = await tx
      .update(payments)
      .set({
        status: paid ? 'approved' : found.status === 'returned' ? 'returned' : 'declined',
        gatewayTransactionId:
          'transactionId' in found
            ? (found.transactionId ?? row.gatewayTransactionId)
            : row.gatewayTransactionId,
        message: paid
          ? 'Settled by staff: approved at the gateway.'
          : 'Settled by staff: no approved charge at the gateway.',
        completedAt: deps.clock.now(),
      })
      .where(and(eq(payments.id, row.id), eq(payments.status, row.status)))
      .returning({ id: payments.id });
    if (done) await tellClient(deps, tx, row, outcome);
    return done;
  });
  if (!settled) throw new HttpError('ALREADY_COMPLETED', queueMessages.alreadySettled);
  deps.mailer.kick();
  return outcome;
}

async function settle(deps: StaffQueueDeps, log: Parameters<RecoveriesByKind>[0], row: LedgerRow) {
  if (row.status === 'in_progress' && row.operationId) {
    const op = await operationById(deps.db, row.operationId);
    if (op && op.status === 'running') {
      const now = deps.clock.now();
      if (isHeld(op, now)) {
        // A live owner finishes in seconds; an older payment is held only by the sweep's wait
        // between two looks at the gateway: staff may look now (the engine's takeover is safe).
        if (now.getTime() - row.createdAt.getTime() < LIVE_OWNER_MS) {
          throw new HttpError('PAYMENT_IN_PROGRESS', queueMessages.beingProcessed);
        }
        await expireLease(deps.db, op, now);
      }
      const recover = deps.recoveriesByKind(log)[op.kind];
      if (!recover) throw new HttpError('PAYMENT_IN_PROGRESS', queueMessages.stillInDoubt);
      const took = await recoverLapsed(deps, op.id, recover);
      if (!took) throw new HttpError('PAYMENT_IN_PROGRESS', queueMessages.beingProcessed);
      const after = await ledgerRow(deps.db, row.id);
      if (!after || after.status === 'in_progress') return 'in_doubt' as const;
      if (after.status !== 'error') {
        const outcome = after.status === 'approved' ? ('paid' as const) : ('failed' as const);
        await tellClient(deps, deps.db, after, outcome);
        deps.mailer.kick();
        return outcome;
      }
      // Given back with an error (the charge was never sent): settle it as failed, once.
      return settleFromGateway(deps, after);
    }
  }
  return settleFromGateway(deps, row);
}

const paymentsInDoubtRoutes: FastifyPluginAsyncZod<StaffQueueDeps> = async (app, deps) => {
  app.get(
    '/queues/payments-in-doubt',
    {
      config: { audit: 'read-queue' },
      schema: {
        summary: "Payments whose outcome is unknown (the ledger's rows in progress or errored): oldest first",
        tags: ['staff queues'],
        response: { 200: paymentsInDoubtResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const rows = await inDoubtRows(deps.db);
      noteShownClients(
        sessionOf(request, 'staff'),
        rows.map((r) => r.clientId),
      );
      return { payments: rows };
    },
  );

  app.post(
    '/payments/:id/settle',
    {
      config: { audit: 'settle-payment' },
      schema: {
        summary: 'Looks a payment in doubt up at the gateway and settles it as paid or failed',
        tags: ['staff queues'],
        params: paymentIdParamsSchema,
        response: {
          200: settlePaymentResponseSchema,
          401: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request): Promise<SettlePaymentResponse> => {
      const session = sessionOf(request, 'staff');
      const row = await ledgerRow(deps.db, request.params.id);
      if (!row) throw notFound();
      noteResolvedClient(session, row.clientId);
      noteAuditAmount(request, row.totalCents);
      if (!(IN_DOUBT as readonly string[]).includes(row.status)) {
        throw new HttpError('ALREADY_COMPLETED', queueMessages.alreadySettled);
      }
      const outcome = await settle(deps, request.log, row);
      return {
        outcome,
        message:
          outcome === 'paid'
            ? queueMessages.settledPaid
            : outcome === 'failed'
              ? queueMessages.settledFailed
              : queueMessages.stillInDoubt,
      };
    },
  );
};

export const paymentsInDoubtQueue: StaffQueue = {
  key: 'payments-in-doubt',
  title: 'Payments in Doubt',
  async count(db) {
    const [row] = await db
      .select({ n: count() })
      .from(payments)
      .where(inArray(payments.status, [...IN_DOUBT]));
    return row?.n ?? 0;
  },
  routes: paymentsInDoubtRoutes,
};
