import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayFor } from '../../../domain/client';
import { errorBodySchema } from '../../../domain/errors';
import {
  getPaymentInfoResponseSchema,
  PAYMENT_SOURCES,
  setPaymentInfoRequestSchema,
  setPaymentInfoResponseSchema,
} from '../../../domain/payment-info';
import type { AppDeps } from '../../app';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { countPaymentAttempt } from './payment-attempts';
import { paymentInfoOf } from './payment-methods';
import { overdueFees, savePaymentMethod } from './payment-service';

/** The payment method on file of a client: for the client, or a physician acting for them. */
export const paymentRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/get_PaymentInfo',
    {
      schema: {
        summary: 'The card and bank account on file: display data and the last 4 digits only',
        tags: ['payments'],
        querystring: z.object({ id: z.string().max(64).optional() }),
        response: { 200: getPaymentInfoResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(
        db,
        sessionOf(request, 'client', 'physician'),
        request.query.id,
      );
      const overdue = await overdueFees(db, clientId, todayFor(deps.clock.now()));
      return { result: await paymentInfoOf(db, clientId, overdue.totalCents) };
    },
  );
};

/** The client's own payment method (a client scope). */
export const clientPaymentRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 402: errorBodySchema, 404: errorBodySchema };

  app.post(
    '/set_PaymentInfo',
    {
      schema: {
        summary:
          'Saves a tokenized card or bank account as the method on file; charges any overdue annual storage to it',
        description:
          'Needs an Idempotency-Key header: a repeat answers the first result. A body carrying a card number, CVV or account number is refused.',
        tags: ['payments'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: setPaymentInfoRequestSchema,
        response: {
          200: setPaymentInfoResponseSchema,
          ...errors,
          409: errorBodySchema,
          422: errorBodySchema,
          429: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      const idempotencyKey = idempotencyKeyOf(request.headers);
      const clientId = await resolveClientAccess(
        db,
        sessionOf(request, 'client'),
        request.body.ClientSFRecordId,
      );
      await countPaymentAttempt(deps, { clientId, ip: request.ip, idempotencyKey });
      return savePaymentMethod(
        { ...deps, log: request.log },
        {
          clientId,
          source: PAYMENT_SOURCES.clientPortal,
          idempotencyKey,
          request: request.body,
          expectedTotalCents: request.body.expectedTotalCents,
        },
      );
    },
  );
};
