import { and, asc, count, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffCancelRequestSchema } from '../../../domain/cell-request-cancellation';
import { isoDateOf, isoToUsDate } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import {
  type CreateStoreLabel,
  createStoreLabelSchema,
  defaultStoreContents,
} from '../../../domain/shipment';
import {
  planStoreQueueMessages as m,
  queueMessages,
  type StoreQueueItem,
  shipRequestSchema,
  storeOrderIdParamsSchema,
  storeQueueActionResponseSchema,
  storeQueueResponseSchema,
} from '../../../domain/staff-queues';
import { storeCancellationMessages } from '../../../domain/store';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { type Recovered, type RecoveryRun, runOnce, type Transaction } from '../../lib/run-once';
import { noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { clientContacts, clientFullName } from '../clients/client-directory';
import type { PaymentDeps } from '../payments/ledger';
import type { StaffQueue } from '../staff/queues/queue';
import { staffMemberName as staffName } from '../staff/staff-accounts';
import { labelDocumentRoute } from './carrier-label-routes';
import { storeOrders } from './schema';
import { cancelStoreOrder } from './store-cancellation';
import {
  createStoreLabel,
  type StoreShippingDeps,
  storeLabelDocumentOf,
  tellStoreClient,
  trackStoreOrderNow,
} from './store-shipping';

/**
 * The store orders queue: serum orders not yet delivered, oldest first. Staff mark an order
 * shipped with the carrier's tracking number, then delivered. Each action runs on the run-once
 * engine keyed by the staff member's submission (a double click answers the first result),
 * changes the order with a conditional update (of two staff at once one wins, the other is told
 * who did it), moves the order's Client Activity row to Shipped or Delivered (the client sees it
 * there) and e-mails the client through the outbox in the same transaction.
 */

const KIND = { ship: 'staff-store-ship', deliver: 'staff-store-deliver' } as const;

type OrderRow = typeof storeOrders.$inferSelect;
const inQueue = inArray(storeOrders.status, ['ordered', 'shipped']);
const iso = (date: Date | null) => (date ? date.toISOString() : null);

async function queueItems(db: Database, id?: string): Promise<StoreQueueItem[]> {
  const orders = await db
    .select()
    .from(storeOrders)
    .where(id ? eq(storeOrders.id, id) : inQueue)
    .orderBy(asc(storeOrders.orderedAt), asc(storeOrders.createdAt))
    .limit(500);
  const clients = await clientContacts(
    db,
    orders.map((order) => order.clientId),
  );
  return orders.flatMap((o) => {
    const client = clients.get(o.clientId);
    if (o.status === 'pending' || !client) return [];
    return [
      {
        id: o.id,
        clientId: o.clientId,
        clientActId: client.clientActId,
        clientName: clientFullName(client),
        status: o.status as StoreQueueItem['status'],
        orderedAt: (o.orderedAt ?? o.createdAt).toISOString(),
        item: o.item,
        quantity: o.quantity,
        shippingMethod: o.shippingMethod,
        shipmentDate: o.shipmentDate,
        shipTo: `${o.contactFirstName} ${o.contactLastName}, ${o.street}, ${o.city}, ${o.state} ${o.zip}`,
        totalCents: o.totalCents,
        shippedAt: iso(o.shippedAt),
        trackingNumber: o.trackingNumber,
        hasLabel: o.labelDocumentId !== null,
        suggestedContents: defaultStoreContents(o.quantity, o.item),
        deliveredAt: iso(o.deliveredAt),
      },
    ];
  });
}

async function orderRow(db: Database | Transaction, id: string): Promise<OrderRow> {
  const [row] = await db.select().from(storeOrders).where(eq(storeOrders.id, id)).limit(1);
  if (!row || row.status === 'pending') throw notFound();
  return row;
}

const on = (date: Date | null) => (date ? isoToUsDate(isoDateOf(date)) : '');

/** An action cut short before it committed: nothing happened; the staff member tries again. */
async function recoverSimple(run: RecoveryRun<{ message: string }>): Promise<Recovered> {
  await run.fail(
    new HttpError('IDEMPOTENCY_CONFLICT', 'The action was interrupted. Please try again.'),
    async () => {},
  );
  return 'settled';
}

function simpleAction(
  deps: PaymentDeps,
  input: { staffId: string; key: string; kind: string; orderId: string; body: unknown; message: string },
  apply: (tx: Transaction) => Promise<void>,
): Promise<{ message: string }> {
  return runOnce<{ orderId: string }, { message: string }>(deps, {
    scope: `staff:${input.staffId}`,
    key: input.key,
    kind: input.kind,
    request: { id: input.orderId, body: input.body },
    claim: async () => ({ orderId: input.orderId }),
    release: async () => {},
    recover: (run) => recoverSimple(run),
    async work(run) {
      const answer = await run.succeed(apply, { message: input.message });
      deps.mailer.kick();
      return answer;
    },
  });
}

export function markStoreOrderShipped(
  deps: PaymentDeps,
  staffId: string,
  key: string,
  orderId: string,
  tracking: string,
) {
  return simpleAction(
    deps,
    { staffId, key, kind: KIND.ship, orderId, body: { trackingNumber: tracking }, message: m.storeShipped },
    async (tx) => {
      await orderRow(tx, orderId);
      const [row] = await tx
        .update(storeOrders)
        .set({ status: 'shipped', shippedAt: deps.clock.now(), shippedBy: staffId, trackingNumber: tracking })
        .where(
          and(eq(storeOrders.id, orderId), eq(storeOrders.status, 'ordered'), isNull(storeOrders.shippedAt)),
        )
        .returning();
      if (!row) {
        const current = await orderRow(tx, orderId);
        throw new HttpError(
          'ALREADY_COMPLETED',
          m.storeAlreadyShipped(await staffName(tx, current.shippedBy), on(current.shippedAt)),
        );
      }
      await tellStoreClient(tx, deps, row, 'shipped', [
        `Your store order shipped by ${row.shippingMethod}.`,
        `Tracking number: ${tracking}`,
      ]);
    },
  );
}

export function markStoreOrderDelivered(deps: PaymentDeps, staffId: string, key: string, orderId: string) {
  return simpleAction(
    deps,
    { staffId, key, kind: KIND.deliver, orderId, body: {}, message: m.storeDelivered },
    async (tx) => {
      const before = await orderRow(tx, orderId);
      if (!before.shippedAt) throw new HttpError('NOT_ALLOWED_NOW', m.storeNotShipped);
      const [row] = await tx
        .update(storeOrders)
        .set({ status: 'delivered', deliveredAt: deps.clock.now(), deliveredBy: staffId })
        .where(
          and(eq(storeOrders.id, orderId), isNotNull(storeOrders.shippedAt), isNull(storeOrders.deliveredAt)),
        )
        .returning();
      if (!row) {
        const current = await orderRow(tx, orderId);
        throw new HttpError(
          'ALREADY_COMPLETED',
          m.storeAlreadyDelivered(await staffName(tx, current.deliveredBy), on(current.deliveredAt)),
        );
      }
      await tellStoreClient(tx, deps, row, 'delivered', ['Your store order was delivered.']);
    },
  );
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const idempotencyHeaders = z.object({ 'idempotency-key': z.string().optional() });

const storeOrderRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/queues/store-orders',
    {
      config: { audit: 'read-queue' },
      schema: {
        summary: 'Store orders not yet delivered: oldest first',
        tags: ['staff queues'],
        response: { 200: storeQueueResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const orders = await queueItems(deps.db);
      noteShownClients(
        sessionOf(request, 'staff'),
        orders.map((o) => o.clientId),
      );
      return { orders };
    },
  );

  const act =
    <B>(
      run: (
        actor: { deps: PaymentDeps & StoreShippingDeps; staffId: string; key: string; orderId: string },
        body: B,
      ) => Promise<{ message: string }>,
    ) =>
    async (request: FastifyRequest) => {
      const session = sessionOf(request, 'staff');
      const key = idempotencyKeyOf(request.headers);
      const { id } = request.params as { id: string };
      const row = await orderRow(deps.db, id);
      noteResolvedClient(session, row.clientId);
      const actor = { deps: { ...deps, log: request.log }, staffId: session.staffId, key, orderId: row.id };
      const { message } = await run(actor, (request.body ?? {}) as B);
      const [order] = await queueItems(deps.db, row.id);
      if (!order) throw notFound();
      return { message, order };
    };

  const action = (summary: string, body?: z.ZodType) => ({
    config: { audit: 'change-store-order' as const },
    schema: {
      summary,
      description: 'Needs an Idempotency-Key header: a repeat answers the first result.',
      tags: ['staff queues'],
      params: storeOrderIdParamsSchema,
      headers: idempotencyHeaders,
      ...(body ? { body } : {}),
      response: { 200: storeQueueActionResponseSchema, ...errors },
    },
  });

  app.post(
    '/store_orders/:id/ship',
    action(
      "Marks a store order shipped with the carrier's tracking number; the client is e-mailed",
      shipRequestSchema,
    ),
    act((a, body: { trackingNumber: string }) =>
      markStoreOrderShipped(a.deps, a.staffId, a.key, a.orderId, body.trackingNumber),
    ),
  );
  app.post(
    '/store_orders/:id/create_label',
    action(
      'Creates the FedEx label of a store order not yet shipped (from the laboratory, the declared contents as entered), marks it shipped with the tracking number and e-mails the client. Once per order',
      createStoreLabelSchema,
    ),
    act((a, body: CreateStoreLabel) =>
      createStoreLabel(a.deps, { staffId: a.staffId, key: a.key, orderId: a.orderId, body }),
    ),
  );
  app.post(
    '/store_orders/:id/track',
    action('Asks the carrier now where a labelled order is; its delivery scan marks it delivered'),
    act(async (a) => {
      await trackStoreOrderNow(a.deps, a.orderId);
      return { message: queueMessages.tracked };
    }),
  );
  labelDocumentRoute(app, deps, {
    url: '/store_orders/:id/label',
    summary: 'The FedEx label of a shipped store order, to print (PDF)',
    labelOf: (orderId) => storeLabelDocumentOf(deps.db, orderId),
  });
  app.post(
    '/store_orders/:id/deliver',
    action('Marks a shipped store order delivered; the client is e-mailed'),
    act((a) => markStoreOrderDelivered(a.deps, a.staffId, a.key, a.orderId)),
  );
  app.post(
    '/store_orders/:id/cancel',
    action(
      'Cancels a store order not yet shipped with a reason, everything refunded; refused once shipped. A repeat answers the first cancellation',
      staffCancelRequestSchema,
    ),
    act(async (a, body: { reason: string }) => {
      const reason = body.reason.trim();
      const needed = storeCancellationMessages.reasonRequired;
      if (!reason) throw new HttpError('VALIDATION', needed, { reason: needed });
      await cancelStoreOrder(a.deps, { clientId: null, id: a.orderId, staffId: a.staffId, reason });
      return { message: m.storeCancelled };
    }),
  );
};

export const storeOrdersQueue: StaffQueue = {
  key: 'store-orders',
  title: 'Store Orders',
  async count(db) {
    const [row] = await db.select({ n: count() }).from(storeOrders).where(inQueue);
    return row?.n ?? 0;
  },
  routes: storeOrderRoutes,
  recoveries: () => ({
    [KIND.ship]: recoverSimple,
    [KIND.deliver]: recoverSimple,
  }),
};
