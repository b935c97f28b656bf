import { asc, count, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isoToUsDate } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import { formatUsd } from '../../../domain/money';
import {
  planStoreQueueMessages as m,
  type PlanOrderAwaitingCheck,
  planChecksResponseSchema,
  type RecordPlanCheckRequest,
  type RecordPlanCheckResponse,
  recordPlanCheckRequestSchema,
  recordPlanCheckResponseSchema,
} from '../../../domain/staff-queues';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { storeDocument } from '../../lib/document-store';
import { HttpError, notFound } from '../../lib/http-error';
import { noteAuditAmount, noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { clientContact, clientContacts, clientFullName } from '../clients/client-directory';
import { renderReceiptPdf } from '../payments/receipt-pdf';
import type { StaffQueue } from '../staff/queues/queue';
import { readCheckEntry, refuseOtherCheck } from '../staff/queues/recorded-check';
import { storagePlanOrders } from './schema';
import { applyPlanOrder, type PlanOrderRow } from './storage-plan-service';

/**
 * The queue of Banking and Storage Plans orders paid by check: oldest first. Recording the check
 * applies the plan exactly as a paid card or ACH order (the service's applyPlanOrder), once: the
 * order moves from awaiting_check to paid under a guard in the same transaction, so of two staff
 * one applies it and the other is told who did; the same staff member sending the same check
 * again gets the same answer.
 */

class LostRace extends Error {}

const awaiting = eq(storagePlanOrders.status, 'awaiting_check');

function planNames(row: PlanOrderRow): string {
  return [row.storageYears > 0 ? `${row.storageYears} Year Storage Plan` : null, row.bankingPlanName]
    .filter(Boolean)
    .join(' + ');
}

export async function planOrdersAwaitingCheck(db: Database): Promise<PlanOrderAwaitingCheck[]> {
  const orders = await db
    .select()
    .from(storagePlanOrders)
    .where(awaiting)
    .orderBy(asc(storagePlanOrders.createdAt))
    .limit(500);
  const clients = await clientContacts(
    db,
    orders.map((order) => order.clientId),
  );
  return orders.flatMap((order) => {
    const client = clients.get(order.clientId);
    if (!client) return [];
    return [
      {
        orderId: order.id,
        clientId: order.clientId,
        clientActId: client.clientActId,
        clientName: clientFullName(client),
        plans: planNames(order),
        orderedAt: order.createdAt.toISOString(),
        amountDueCents: order.totalCents,
        paidUntil: client.annualStoragePaidUntil,
      },
    ];
  });
}

function answerOf(row: PlanOrderRow, clientActId: string): RecordPlanCheckResponse {
  return {
    success: true,
    message: m.planCheckRecorded,
    orderId: row.id,
    clientActId,
    checkNumber: row.checkNumber ?? '',
    checkAmountCents: row.checkAmountCents ?? 0,
    checkDate: row.checkDate ?? '',
    recordedAt: (row.checkReceivedAt ?? new Date(0)).toISOString(),
    paidUntil: row.paidUntilAfter,
  };
}

export async function recordPlanCheck(
  deps: Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'documentsKey'>,
  staffId: string,
  body: RecordPlanCheckRequest,
  onClient: (clientId: string) => void,
): Promise<RecordPlanCheckResponse> {
  const { db, clock, mailer } = deps;
  const now = clock.now();
  const [order] = await db
    .select()
    .from(storagePlanOrders)
    .where(eq(storagePlanOrders.id, body.orderId))
    .limit(1);
  const client = order ? await clientContact(db, order.clientId) : null;
  if (!order || !client || order.paymentMethod !== 'Check' || order.status === 'pending') throw notFound();
  onClient(client.id);
  const entered = readCheckEntry(body, order.totalCents, now);
  const { checkNumber, checkAmountCents, checkDate } = entered;
  const checkLabel = `Check no. ${checkNumber}`;

  let applied: PlanOrderRow | undefined;
  if (order.status === 'awaiting_check') {
    // The receipt is rendered before the transaction; it is stored only by the one who applies.
    const pdf = await renderReceiptPdf(
      {
        clientName: clientFullName(client),
        clientActId: client.clientActId,
        paidOn: isoToUsDate(checkDate),
        description: `Banking and Storage Plans: ${planNames(order)}`,
        amountCents: checkAmountCents,
        feeCents: 0,
        totalCents: checkAmountCents,
        method: checkLabel,
        transactionId: checkLabel,
      },
      now,
    );
    applied = await db
      .transaction(async (tx) => {
        const receipt = await storeDocument(tx, deps.documentsKey, {
          clientId: client.id,
          kind: 'receipt',
          fileName: 'receipt.pdf',
          contentType: 'application/pdf',
          content: pdf,
          now,
        });
        const result = await applyPlanOrder(tx, deps, {
          orderId: order.id,
          from: 'awaiting_check',
          receiptDocumentId: receipt.id,
          payment: {
            paymentId: null,
            transactionId: null,
            amountCents: checkAmountCents,
            paidLine: () =>
              `Paid by check no. ${checkNumber} of ${formatUsd(checkAmountCents)}, dated ${isoToUsDate(checkDate)}.`,
            orderValues: {
              checkNumber,
              checkAmountCents,
              checkDate,
              checkRecordedBy: staffId,
              checkReceivedAt: now,
            },
          },
        });
        // Another staff member applied it first: the stored receipt is rolled back with this.
        if (!result.applied) throw new LostRace();
        return result.row;
      })
      .catch((error: unknown) => {
        if (error instanceof LostRace) return undefined;
        throw error;
      });
  }
  if (applied) {
    mailer.kick();
    return answerOf(applied, client.clientActId);
  }

  // Someone got there first (or this is the same click again).
  const [current] = await db.select().from(storagePlanOrders).where(eq(storagePlanOrders.id, order.id));
  if (current?.status !== 'paid' || !current.checkReceivedAt)
    throw new HttpError('ALREADY_COMPLETED', m.planOrderGone);
  await refuseOtherCheck(
    db,
    { ...current, recordedBy: current.checkRecordedBy, recordedAt: current.checkReceivedAt },
    staffId,
    entered,
  );
  return answerOf(current, client.clientActId);
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

const planCheckRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/plan_checks',
    {
      config: { audit: 'read-queue' },
      schema: {
        summary: 'Banking and Storage Plans orders paid by check, waiting for the check: oldest first',
        tags: ['staff queues'],
        response: { 200: planChecksResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const orders = await planOrdersAwaitingCheck(deps.db);
      noteShownClients(
        sessionOf(request, 'staff'),
        orders.map((o) => o.clientId),
      );
      return { orders };
    },
  );

  app.post(
    '/record_plan_check',
    {
      config: { audit: 'record-plan-check' },
      schema: {
        summary:
          "Records a plan order's check (number, amount, date): the plan is applied as a paid order (paid-until, vials, Client Activity, e-mail with receipt)",
        description:
          'Once per order: the same staff member sending the same check again gets the same answer; anyone else gets 409 with who recorded it.',
        tags: ['staff queues'],
        body: recordPlanCheckRequestSchema,
        response: { 200: recordPlanCheckResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const recorded = await recordPlanCheck(deps, session.staffId, request.body, (clientId) =>
        noteResolvedClient(session, clientId),
      );
      noteAuditAmount(request, recorded.checkAmountCents);
      return recorded;
    },
  );
};

export const planChecksQueue: StaffQueue = {
  key: 'plan-checks',
  title: 'Plan Orders Paid by Check',
  async count(db) {
    const [row] = await db.select({ n: count() }).from(storagePlanOrders).where(awaiting);
    return row?.n ?? 0;
  },
  routes: planCheckRoutes,
};
