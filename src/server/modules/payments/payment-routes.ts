import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  getPaymentInfoResponseSchema,
  PAYMENT_SOURCES,
  removePhysicianPaymentInfoRequestSchema,
  removePhysicianPaymentInfoResponseSchema,
  setPaymentInfoRequestSchema,
  setPaymentInfoResponseSchema,
  setPhysicianPaymentInfoRequestSchema,
} from '../../../domain/payment-info';
import type { AppDeps } from '../../app-deps';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { withPaymentAttempt } from './payment-attempts';
import { paymentInfoOf } from './payment-methods';
import { overdueFees, savePaymentMethod } from './payment-service';
import { removePhysicianPaymentMethod, savePhysicianPaymentMethod } from './physician-payment-method';
import { replyWithReceipt } from './receipts';

/** The payment method on file: a client's own, or in physician pages the physician's own card. */
export const paymentRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/get_PaymentInfo',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary: 'The card and bank account on file: display data and the last 4 digits only',
        tags: ['payments'],
        querystring: z.object({ id: z.string().max(64).optional() }),
        response: { 200: getPaymentInfoResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'client', 'physician');
      // In physician pages the answer is the physician's own card, which pays for their clients;
      // `id` naming a client they act for answers that client's (a vial request may use it).
      if (session.role === 'physician') {
        const named = request.query.id;
        if (!named || named === session.physicianId) {
          return { result: await paymentInfoOf(db, { physicianId: session.physicianId }, null) };
        }
      }
      const clientId = await resolveClientAccess(db, session, request.query.id);
      const overdue = await overdueFees(db, clientId, deps.clock.now());
      return { result: await paymentInfoOf(db, clientId, overdue) };
    },
  );

  app.get(
    '/receipts/:id',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary:
          'The receipt PDF of an approved payment, or of a refund or void that went through (Client Activity links to each), drawn from the ledger',
        tags: ['payments'],
        params: z.object({ id: z.string().max(64) }),
        response: {
          200: z.instanceof(Buffer).describe('The receipt (PDF)'),
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request, 'client', 'physician');
      // Another client's payment answers the same 404 as one that does not exist.
      return replyWithReceipt(reply, db, request.params.id, deps.clock.now(), (clientId) =>
        resolveClientAccess(db, session, clientId),
      );
    },
  );
};

/** The receipt of a payment or of a refund by its ledger id, whose it is, and how it is drawn. */
/** The client's own payment method (a client scope). */
export const clientPaymentRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 402: errorBodySchema, 404: errorBodySchema };

  app.post(
    '/set_PaymentInfo',
    {
      config: { audit: 'change-payment' },
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
      return withPaymentAttempt(deps, { clientId, ip: request.ip, idempotencyKey }, (gateway) =>
        savePaymentMethod(
          { ...deps, gateway, log: request.log },
          {
            clientId,
            source: PAYMENT_SOURCES.clientPortal,
            idempotencyKey,
            request: request.body,
            expectedTotalCents: request.body.expectedTotalCents,
          },
        ),
      );
    },
  );
};

/**
 * The physician's own card and bank account (a physician scope): always the session's physician,
 * whichever client the session acts for. get_PaymentInfo shows them.
 */
export const physicianPaymentRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

  app.post(
    '/set_PhysicianPaymentInfo',
    {
      config: { audit: 'change-payment' },
      schema: {
        summary: "Saves a tokenized card or bank account as the physician's own, in place of the one on file",
        description:
          'Nothing is charged. Needs an Idempotency-Key header: a repeat answers the first result. A body carrying a card number, CVV or account number is refused; a client id sent is ignored.',
        tags: ['payments', 'physician'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: setPhysicianPaymentInfoRequestSchema,
        response: {
          200: setPaymentInfoResponseSchema,
          ...errors,
          402: errorBodySchema,
          409: errorBodySchema,
          422: errorBodySchema,
          429: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      const idempotencyKey = idempotencyKeyOf(request.headers);
      const { physicianId } = sessionOf(request, 'physician');
      // Counted with the physician's other card attempts (the new sample's), not any client's.
      const attempt = { clientId: `physician:${physicianId}`, ip: request.ip, idempotencyKey };
      return withPaymentAttempt(deps, attempt, (gateway) =>
        savePhysicianPaymentMethod(
          { ...deps, gateway, log: request.log },
          { physicianId, idempotencyKey, request: request.body },
        ),
      );
    },
  );

  app.post(
    '/remove_PhysicianPaymentInfo',
    {
      config: { audit: 'change-payment' },
      schema: {
        summary: "Takes the physician's own card (CC) or bank account (ACH) off file",
        description:
          'Idempotent: with nothing of that kind on file it answers the same. Refused (409) while a payment with the method is still running.',
        tags: ['payments', 'physician'],
        body: removePhysicianPaymentInfoRequestSchema,
        response: { 200: removePhysicianPaymentInfoResponseSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) =>
      removePhysicianPaymentMethod(deps, {
        physicianId: sessionOf(request, 'physician').physicianId,
        request: request.body,
      }),
  );
};
