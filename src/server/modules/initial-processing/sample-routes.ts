import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginResponseSchema, newPasswordSchema } from '../../../domain/auth';
import { todayFor } from '../../../domain/client';
import { errorBodySchema } from '../../../domain/errors';
import {
  getWelcomeLinkQuerySchema,
  getWelcomeLinkResponseSchema,
  sendProcessDataRequestSchema,
  sendProcessDataResponseSchema,
  setWelcomePasswordRequestSchema,
  welcomeLinkMessages,
} from '../../../domain/initial-processing';
import type { AppDeps } from '../../app-deps';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { enforceRateLimits } from '../../lib/rate-limit';
import { hashSecret, isCommonPassword } from '../../lib/secrets';
import { sessionOf } from '../../plugins/sessions';
import { withPaymentAttempt } from '../payments/payment-attempts';
import { submitSample } from './sample-service';
import { readWelcomeLink, useWelcomeLink } from './welcome-links';

/** The physician's initial sample processing (a physician scope). */
export const sampleRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const today = () => todayFor(deps.clock.now());

  app.post(
    '/send_ProcessData',
    {
      config: { audit: 'change-client' },
      schema: {
        summary:
          "Initial sample processing: registers a new client of the physician with their sample, and pays the up-front banking fee by the physician's card or by a check in the shipment",
        description:
          "Needs an Idempotency-Key header: a repeat answers the first result, one client registered and charged once. The amount is the server's, from the price book in force (the up-front fee of adipose or bone marrow, plus the card fee by card); Amount sent is ignored, and an expectedTotalCents that differs gets 409 with nothing charged. A new card comes as a gateway token and stays on the physician's file when save_card is set. The new client is e-mailed a single-use link, valid 7 days, to set their password.",
        tags: ['physician'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: sendProcessDataRequestSchema(today),
        response: {
          200: sendProcessDataResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          402: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          422: errorBodySchema,
          429: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { physicianId } = sessionOf(request, 'physician');
      const idempotencyKey = idempotencyKeyOf(request.headers);
      // A card is saved at the gateway and charged: a payment attempt of the physician.
      const attempt = request.body.CreditCard
        ? { clientId: `physician:${physicianId}`, ip: request.ip, idempotencyKey }
        : null;
      return withPaymentAttempt(deps, attempt, (gateway) =>
        submitSample(
          { ...deps, gateway, log: request.log, publicUrl: deps.config.publicUrl },
          { physicianId, idempotencyKey },
          request.body,
        ),
      );
    },
  );
};

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** The new client's welcome link (public: the link is the credential). */
export const welcomeRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock, config, sessions } = deps;
  const limitPerIp = (ip: string) =>
    enforceRateLimits(
      db,
      clock.now(),
      [{ key: `welcome:ip:${ip}`, limit: config.rateLimits.recoveryPerIp, windowMs: FIFTEEN_MINUTES }],
      welcomeLinkMessages.tooManyAttempts,
    );

  app.get(
    '/get_WelcomeLink',
    {
      schema: {
        summary: "A new client's welcome link: their Client ID and first name, while the link is usable",
        description: 'An unknown, used or expired link answers the same 404.',
        tags: ['session'],
        querystring: getWelcomeLinkQuerySchema,
        response: {
          200: getWelcomeLinkResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      await limitPerIp(request.ip);
      const link = await readWelcomeLink(db, request.query.token, clock.now());
      return {
        clientACTId: link.clientACTId,
        firstName: link.firstName,
        expiresAt: link.expiresAt.toISOString(),
      };
    },
  );

  app.post(
    '/set_WelcomePassword',
    {
      schema: {
        summary: "Sets a new client's first password with their welcome link, once, and signs them in",
        description:
          'The password rules of update_Password (at least 12 characters, not a common password). An unknown, used or expired link answers 404.',
        tags: ['session'],
        body: setWelcomePasswordRequestSchema(newPasswordSchema(isCommonPassword)),
        response: {
          200: loginResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      await limitPerIp(request.ip);
      // Looked up first, so a dead link costs no hashing; used in one statement after.
      await readWelcomeLink(db, request.body.token, clock.now());
      const passwordHash = await hashSecret(request.body.password);
      const client = await useWelcomeLink(db, request.body.token, passwordHash, clock.now());
      await sessions.endAllFor({ role: 'client', clientId: client.id });
      await sessions.end(request, reply);
      await sessions.start(reply, { role: 'client', clientId: client.id });
      return {
        result: {
          login: true as const,
          message: welcomeLinkMessages.passwordSet,
          id: client.id,
          clientACTId: client.actId,
          clientLastName: client.lastName,
        },
      };
    },
  );
};
