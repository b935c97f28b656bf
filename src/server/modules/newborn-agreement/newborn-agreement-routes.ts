import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  clientAgreementQuerySchema,
  clientAgreementResponseSchema,
  newbornAgreementMessages as m,
  setClientAgreementRequestSchema,
  setClientAgreementResponseSchema,
} from '../../../domain/newborn-agreement';
import {
  agreementAccountSchema,
  agreementLinkQuerySchema,
  agreementPaymentRequestSchema,
  agreementPaymentResponseSchema,
  setAgreementMethodRequestSchema,
  setAgreementMethodResponseSchema,
} from '../../../domain/newborn-installments';
import type { AppDeps } from '../../app-deps';
import { readDocument, replyWithDocument } from '../../lib/document-store';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { enforceRateLimits } from '../../lib/rate-limit';
import { userAgentOf } from '../../lib/user-agent';
import { noteShownClients } from '../../plugins/audit';
import type { PaidOrderDeps } from '../payments/paid-order';
import { withPaymentAttempt } from '../payments/payment-attempts';
import { replyWithReceipt } from '../payments/receipts';
import { agreementAccount, changeAgreementMethod, payAgreement } from './newborn-agreement-account';
import { agreementOfLink, agreementResponse, invalidAgreementLink } from './newborn-agreement-service';
import { signNewbornAgreement } from './newborn-signing';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
type LinkedAgreement = Awaited<ReturnType<typeof agreementOfLink>>;
const paymentErrors = {
  400: errorBodySchema,
  402: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

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

  /** The agreement a page opens by its link token (on the client's trail), never kept by a cache. */
  const openedAgreement = async (request: FastifyRequest, reply: FastifyReply, token: string | undefined) => {
    await limit(request.ip);
    const row = await agreementOfLink(deps, token, clock.now());
    noteShownClients(request, [row.clientId]);
    void reply.header('cache-control', 'no-store');
    return row;
  };

  /** A payment step of the signed agreement's page: its link, its key, one attempt on the public ceilings. */
  const withAgreementPayment = async <T>(
    request: FastifyRequest,
    token: string,
    pay: (paying: PaidOrderDeps, agreement: LinkedAgreement, idempotencyKey: string) => Promise<T>,
  ) => {
    await limit(request.ip);
    const idempotencyKey = idempotencyKeyOf(request.headers);
    const agreement = await agreementOfLink(deps, token, clock.now());
    return withPaymentAttempt(
      deps,
      { clientId: agreement.clientId, ip: request.ip, idempotencyKey, page: 'public' },
      (gateway) => pay({ ...deps, gateway, log: request.log }, agreement, idempotencyKey),
    );
  };

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
    async (request, reply) =>
      agreementResponse(request.query.id ?? '', await openedAgreement(request, reply, request.query.id)),
  );

  // The signed copy and the deposit's receipt, by the same link token: nothing before signing,
  // and any other token (unknown, altered, expired, another agreement's) is the same 404.
  app.get(
    '/get_Client_Agreement_document',
    {
      config: { audit: 'read-document' },
      schema: {
        summary: 'Newborn finance agreement: the signed PDF, for the link token `id`',
        tags: ['newborn agreement'],
        querystring: clientAgreementQuerySchema,
        response: { 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await limit(request.ip);
      const row = await agreementOfLink(deps, request.query.id, clock.now());
      if (!row.signedAt || !row.documentId) throw invalidAgreementLink();
      noteShownClients(request, [row.clientId]);
      const found = await readDocument(db, deps.documentsKey, row.clientId, row.documentId);
      if (!found) throw invalidAgreementLink();
      return replyWithDocument(reply, found);
    },
  );

  app.get(
    '/get_Client_Agreement_receipt',
    {
      config: { audit: 'read-document' },
      schema: {
        summary: "Newborn finance agreement: the deposit's receipt PDF, for the link token `id`",
        tags: ['newborn agreement'],
        querystring: clientAgreementQuerySchema,
        response: { 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await limit(request.ip);
      const now = clock.now();
      const row = await agreementOfLink(deps, request.query.id, now);
      if (!row.signedAt || !row.depositPaymentId) throw invalidAgreementLink();
      noteShownClients(request, [row.clientId]);
      const clientId = row.clientId;
      return replyWithReceipt(reply, db, row.depositPaymentId, now, async (owner) => {
        if (owner !== clientId) throw invalidAgreementLink();
      });
    },
  );

  app.post(
    '/set_Client_Agreement_service',
    {
      schema: {
        summary:
          'Newborn finance agreement: signs it once with the drawn signature, charges the deposit and keeps the method for the installments',
        description:
          'ClientId is the link token. Needs an Idempotency-Key header. The card or bank account comes as a gateway token with its display fields, with the authorization to charge the deposit today and each monthly installment on its due date. The deposit (with the card fee on a card) is charged once; a shown total that differs answers 409 and nothing is charged; a decline answers 402 and nothing is signed. The signed PDF (the schedule, the authorization, the certificate page) and the receipt are e-mailed to the main contact; the installments are written from the schedule. A second signing answers 409.',
        tags: ['newborn agreement'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: setClientAgreementRequestSchema,
        response: { 200: setClientAgreementResponseSchema, ...paymentErrors },
      },
    },
    async (request) => {
      await limit(request.ip);
      const idempotencyKey = idempotencyKeyOf(request.headers);
      const now = clock.now();
      const agreement = await agreementOfLink(deps, request.body.ClientId, now);
      // A public page: its attempts count on the public ceilings, never on the client's own.
      return withPaymentAttempt(
        deps,
        { clientId: agreement.clientId, ip: request.ip, idempotencyKey, page: 'public' },
        (gateway) =>
          signNewbornAgreement(
            { ...deps, gateway, log: request.log, publicUrl: deps.config.publicUrl },
            {
              token: request.body.ClientId,
              body: request.body,
              idempotencyKey,
              ip: request.ip,
              userAgent: userAgentOf(request),
              now,
            },
          ),
      );
    },
  );

  // The signed agreement's own page (issue 21): its schedule, the method for the installments, and
  // paying what is overdue or the balance early. Any token that does not open a signed agreement
  // (unknown, altered, expired, another's) is the same 404 or, unsigned, 409.
  app.get(
    '/get_Client_Agreement_account',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary:
          "Newborn finance agreement, once signed: each installment's date, amount and state (paid, due, retrying, overdue), the method on file, and the overdue total and early payoff with their card fee",
        tags: ['newborn agreement'],
        querystring: agreementLinkQuerySchema,
        response: {
          200: agreementAccountSchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => agreementAccount(deps, await openedAgreement(request, reply, request.query.id)),
  );

  app.post(
    '/set_Client_Agreement_payment_method',
    {
      schema: {
        summary:
          'Newborn finance agreement, once signed: a new card or bank account (a gateway token and its display fields) for the installments; nothing is charged',
        description: 'ClientId is the link token. Needs an Idempotency-Key header.',
        tags: ['newborn agreement'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: setAgreementMethodRequestSchema,
        response: { 200: setAgreementMethodResponseSchema, ...paymentErrors },
      },
    },
    (request) =>
      withAgreementPayment(request, request.body.ClientId, (paying, agreement, idempotencyKey) =>
        changeAgreementMethod(paying, agreement, request.body, idempotencyKey),
      ),
  );

  app.post(
    '/set_Client_Agreement_payment',
    {
      schema: {
        summary:
          'Newborn finance agreement, once signed: pays the overdue installments, or the balance early (the remaining principal without future interest), with the method on file',
        description:
          'ClientId is the link token. Needs an Idempotency-Key header and the total the button named (a different server total answers 409 and charges nothing). Charged once: a second payment while one is under way answers 409.',
        tags: ['newborn agreement'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: agreementPaymentRequestSchema,
        response: { 200: agreementPaymentResponseSchema, ...paymentErrors },
      },
    },
    (request) =>
      withAgreementPayment(request, request.body.ClientId, (paying, agreement, idempotencyKey) =>
        payAgreement(paying, agreement, request.body, idempotencyKey),
      ),
  );
};
