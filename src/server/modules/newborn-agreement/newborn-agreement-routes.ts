import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  clientAgreementQuerySchema,
  clientAgreementResponseSchema,
  newbornAgreementMessages as m,
  setClientAgreementRequestSchema,
  setClientAgreementResponseSchema,
} from '../../../domain/newborn-agreement';
import type { AppDeps } from '../../app-deps';
import { enforceRateLimits } from '../../lib/rate-limit';
import { userAgentOf } from '../../lib/user-agent';
import { noteShownClients } from '../../plugins/audit';
import { agreementOfLink, agreementResponse, signNewbornAgreement } from './newborn-agreement-service';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/**
 * The newborn finance agreement's public page (no session): opened and signed with its signed,
 * expiring link token, never a database id. Limited per address like the public payment pages.
 */
export const newbornAgreementRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock, config } = deps;
  const limit = (ip: string) =>
    enforceRateLimits(
      db,
      clock.now(),
      [{ key: `agreement:ip:${ip}`, limit: config.verifyPerIp, windowMs: FIFTEEN_MINUTES }],
      m.tooMany,
    );

  app.get(
    '/get_Client_Agreement_service',
    {
      // The page shows the client's plan and main contact: its opening is on the client's trail.
      config: { audit: 'read-client' },
      schema: {
        summary: 'Newborn finance agreement: the plan and its state, for the link token `id`',
        tags: ['newborn agreement'],
        querystring: clientAgreementQuerySchema,
        response: { 200: clientAgreementResponseSchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await limit(request.ip);
      const row = await agreementOfLink(deps, request.query.id, clock.now());
      noteShownClients(request, [row.clientId]);
      void reply.header('cache-control', 'no-store');
      return agreementResponse(request.query.id ?? '', row);
    },
  );

  app.post(
    '/set_Client_Agreement_service',
    {
      schema: {
        summary: 'Newborn finance agreement: signs it once with the drawn signature',
        description:
          'ClientId is the link token. The signed PDF (with its certificate page) is kept and e-mailed to the main contact. A second signing answers 409.',
        tags: ['newborn agreement'],
        body: setClientAgreementRequestSchema,
        response: {
          200: setClientAgreementResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      await limit(request.ip);
      await signNewbornAgreement(deps, {
        token: request.body.ClientId,
        signatureData: request.body.signatureData,
        ip: request.ip,
        userAgent: userAgentOf(request),
        now: clock.now(),
      });
      return { NB_Finance_Agreement_Completed__c: true as const, message: m.completed };
    },
  );
};
