import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  planRefundProblems,
  planRefundRequestSchema,
  planRefundResponseSchema,
  staffPlanOrdersSchema,
} from '../../../domain/storage-plan-refund';
import type { AppDeps } from '../../app-deps';
import { HttpError } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { noteResolvedClient } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { resolveStaffClientAccess } from '../clients/client-access';
import { planOrderClientId, staffPlanOrders, takeBackPlanOrder } from './storage-plan-refund';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  503: errorBodySchema,
};

/** What staff of either level read of a client's paid plan orders: each with what a take-back would do today. */
export const staffPlanOrderReadRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/clients/:clientId/storage_plans',
    {
      config: { audit: 'read-order' },
      schema: {
        summary:
          "A client's paid Banking and Storage Plans orders, newest first, each with what taking back its unused part would take and refund today, to the cent, or what a take-back did",
        tags: ['staff'],
        params: z.object({ clientId: z.string().max(64) }),
        response: { 200: staffPlanOrdersSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const clientId = await resolveStaffClientAccess(deps.db, session, request.params.clientId);
      return {
        orders: await staffPlanOrders(deps.db, clientId, deps.clock.now()),
        canRefund: session.level === 'admin',
      };
    },
  );
};

/** Admins take back a plan order's unused part with a reason and refund it (issue 22). */
export const staffPlanRefundRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/storage_plans/:id/refund',
    {
      config: { audit: 'change-payment' },
      schema: {
        summary:
          "Takes back a paid plan order's storage years not yet begun and vials not yet used, and refunds those only (pro rata, the card fee in proportion), once",
        description:
          'Admins; needs an Idempotency-Key header and a reason. The paid-until date moves back and the vials are taken off at once; the refund goes to the gateway after (a charge refused for now is sent by the sweep); a check order is refunded by check. The same submission repeated answers the take-back; a second one, or nothing left to take back, answers 409.',
        tags: ['staff'],
        params: z.object({ id: z.uuid() }),
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: planRefundRequestSchema,
        response: { 200: planRefundResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const key = idempotencyKeyOf(request.headers);
      noteResolvedClient(session, await planOrderClientId(deps.db, request.params.id));
      const problems = planRefundProblems(request.body);
      if (problems.reason) throw new HttpError('VALIDATION', problems.reason, problems);
      return takeBackPlanOrder(
        { ...deps, log: request.log },
        { id: request.params.id, staffId: session.staffId, reason: request.body.reason.trim(), key },
      );
    },
  );
};
