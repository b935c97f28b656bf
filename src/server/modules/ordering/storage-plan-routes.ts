import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  choiceOf,
  planChoiceProblem,
  priceStoragePlan,
  type SendStoragePlan,
  sendStoragePlanResponseSchema,
  sendStoragePlanSchema,
  storagePlanMessages,
  storagePlanOrderSchema,
  storagePlanQuoteRequestSchema,
  storagePlanQuoteSchema,
} from '../../../domain/storage-plans';
import {
  sendStoreRequestResponseSchema,
  sendStoreRequestSchema,
  storeOrderIdSchema,
  storeOrderListSchema,
  storeOrderSummarySchema,
} from '../../../domain/store';
import type { AppDeps } from '../../app-deps';
import { HttpError } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { withPaymentAttempt } from '../payments/payment-attempts';
import { priceBookInForce } from '../prices/price-book-repository';
import { placeOrderFor } from './order-for-client';
import { listStoragePlanOrders, sendStoragePlan } from './storage-plan-service';
import { cancelStoreOrder, storeOrdersToShip } from './store-cancellation';
import { sendStoreRequest } from './store-service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  402: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/** Banking and Storage Plans: the server's quote, the order (the client's own) and the client's orders. */
export const storagePlanRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/get_StoragePlanQuote',
    {
      config: { roles: ['client'], audit: 'read-client' },
      schema: {
        summary:
          "The server's price of a Banking and Storage Plans choice: plans, the card fee by card, total",
        description:
          "Changes nothing. Card pays the price book's card fee on the whole order; ACH and check pay none.",
        tags: ['ordering'],
        body: storagePlanQuoteRequestSchema,
        response: { 200: storagePlanQuoteSchema, ...errors },
      },
    },
    async (request) => {
      sessionOf(request, 'client');
      const body = request.body;
      const problem =
        planChoiceProblem(body.Annual_Storage_Plan, body.Plan) ??
        (body.Plan === 'Bio-Insurance Plan' && body.Vials === undefined ? storagePlanMessages.vials : null) ??
        (body.Plan === 'Longevity Plan' && body.Longevity_Banking_Plans === undefined
          ? storagePlanMessages.longevityPlan
          : null);
      if (problem) throw new HttpError('VALIDATION', problem);
      const { book } = await priceBookInForce(deps.db, deps.clock.now());
      const price = priceStoragePlan(book, choiceOf({ ...body, Tissue_Info: 'Adipose' } as SendStoragePlan));
      return {
        storageCents: price.storageCents,
        bankingCents: price.bankingCents,
        amountCents: price.amountCents,
        processingFeeCents: price.processingFeeCents,
        totalCents: price.totalCents,
      };
    },
  );

  app.post(
    '/send_StoragePlan',
    {
      config: { roles: ['client'], audit: 'change-order' },
      schema: {
        summary: 'Orders an annual storage plan and/or a Bio-Insurance or Longevity plan, charged once',
        description:
          'Client only; needs an Idempotency-Key header. The server prices the order from the price book in force (the card fee by card); a shown total that differs answers 409 and nothing is charged. Card or ACH: charged and applied at once (paid-until date, vials, Client Activity, e-mail with the receipt). Check: recorded as awaiting the check; nothing applied until the bank records it.',
        tags: ['ordering'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: sendStoragePlanSchema,
        response: { 200: sendStoragePlanResponseSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(
        deps.db,
        sessionOf(request, 'client'),
        request.body.Client_Id,
      );
      const idempotencyKey = idempotencyKeyOf(request.headers);
      return withPaymentAttempt(deps, { clientId, ip: request.ip, idempotencyKey }, (gateway) =>
        sendStoragePlan(
          { ...deps, gateway, log: request.log },
          { clientId, idempotencyKey, body: request.body },
        ),
      );
    },
  );

  app.get(
    '/get_StoragePlanOrders',
    {
      config: { audit: 'read-order' },
      schema: {
        summary:
          "The client's Banking and Storage Plans orders, newest first (a check order shows awaiting_check)",
        tags: ['ordering'],
        response: { 200: z.object({ orders: z.array(storagePlanOrderSchema) }), ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(deps.db, sessionOf(request, 'client', 'physician'));
      return { orders: await listStoragePlanOrders(deps.db, clientId) };
    },
  );

  app.post(
    '/send_CP_StoreRequest',
    {
      config: { audit: 'change-order' },
      schema: {
        summary:
          "Orders Stem Cell Face Serum shipped by FedEx, charged once at the price book's prices (a bottle, a bottle from 11, the card fee by card)",
        description:
          "A client for themselves, or a physician for the client they act for (Client_id, or the session's client), paying with the physician's own method. Needs an Idempotency-Key header. A shown total that differs answers 409, nothing charged. The order is kept for the bank to ship.",
        tags: ['ordering'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: sendStoreRequestSchema,
        response: { 200: sendStoreRequestResponseSchema, ...errors },
      },
    },
    async (request) => placeOrderFor(deps, request, request.body, sendStoreRequest),
  );

  app.get(
    '/get_StoreOrders',
    {
      config: { audit: 'read-order' },
      schema: {
        summary: "The client's store orders not yet shipped, oldest first",
        tags: ['ordering'],
        querystring: z.object({ Client_id: z.string().optional() }),
        response: { 200: storeOrderListSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(
        deps.db,
        sessionOf(request, 'client', 'physician'),
        request.query.Client_id,
      );
      return { orders: await storeOrdersToShip(deps.db, clientId) };
    },
  );

  app.post(
    '/cancel_StoreOrder',
    {
      config: { roles: ['client'], audit: 'change-order' },
      schema: {
        summary: "Cancels one of the client's store orders before it ships, with everything refunded",
        description:
          "Client only; needs an Idempotency-Key header. Before shipping: the whole charge refunded (voided while unsettled). Shipped: 409. A repeat answers what the first did; another client's order answers 404.",
        tags: ['ordering'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: storeOrderIdSchema,
        response: { 200: storeOrderSummarySchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(deps.db, sessionOf(request, 'client'), undefined);
      idempotencyKeyOf(request.headers);
      const { order } = await cancelStoreOrder(
        { ...deps, log: request.log },
        { clientId, id: request.body.id, staffId: null, reason: null },
      );
      return order;
    },
  );
};
