import { and, eq, gt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayFor } from '../../../domain/client';
import {
  type ClientVerificationRequest,
  clientVerificationResponseSchema,
  clientVerificationSchema,
  verificationMessages as v,
} from '../../../domain/client-verification';
import { usDateToIso } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import {
  PAYMENT_SOURCES,
  paymentConfigSchema,
  publicPaymentResultQuerySchema,
  publicPaymentResultSchema,
  setPublicPaymentInfoRequestSchema,
  setPublicPaymentInfoResponseSchema,
} from '../../../domain/payment-info';
import { yearAmountCents } from '../../../domain/storage-billing';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { readPaymentLinkToken } from '../../lib/link-tokens';
import { enforceRateLimits } from '../../lib/rate-limit';
import { findOperation } from '../../lib/run-once';
import { randomToken, sha256Hex } from '../../lib/secrets';
import { noteShownClients } from '../../plugins/audit';
import { findClientIdByActId, findClientIdByNaming } from '../clients/client-directory';
import { withPaymentAttempt } from './payment-attempts';
import { overdueFees, savePaymentMethod } from './payment-service';
import {
  publicPaymentOfResult,
  publicPaymentResult,
  publicPaymentResultToken,
  resultGone,
} from './public-payment-result';
import { replyWithReceipt } from './receipts';
import { paymentVerifications } from './schema';

const VERIFICATION_LIFETIME_MS = 15 * 60 * 1000;
const FIFTEEN_MINUTES = 15 * 60 * 1000;
const ATTEMPTS_PER_CLIENT = 10;
const SAVES_PER_VERIFICATION = 5;

async function findClient(db: Database, request: ClientVerificationRequest, linkClientId: string | null) {
  if (request.mode === 'link') {
    if (!linkClientId) return null;
    const id = await findClientIdByActId(db, linkClientId);
    return id ? { id } : null;
  }
  const id = await findClientIdByNaming(
    db,
    request.mode === 'id'
      ? { by: 'id', clientActId: request.ClientId, lastName: request.ClientLastname }
      : {
          by: 'contact',
          firstName: request.ClientFirstName,
          lastName: request.Clientlastname,
          email: request.ClientEmail,
          dateOfBirth: usDateToIso(request.ClientDob) ?? '',
        },
  );
  return id ? { id } : null;
}

/** Who the attempt is about, for the per-client limit, whether or not such a client exists. */
function attemptKey(request: ClientVerificationRequest): string {
  if (request.mode === 'id') return `id:${request.ClientId.toUpperCase()}`;
  if (request.mode === 'contact') return `email:${request.ClientEmail.toLowerCase()}`;
  return `link:${sha256Hex(request.t).slice(0, 32)}`;
}

/**
 * The public single-payment pages (e-mail and text-message links). Identification answers only
 * confirmed or not, and its confirmation is good for saving a payment method for that one client,
 * for 15 minutes, and nothing else.
 */
export const publicPaymentRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock, config, linkSecret, paymentConfig } = deps;
  const today = () => todayFor(clock.now());

  app.get(
    '/payment_config',
    {
      schema: {
        summary: 'Which browser tokenizer the payment forms use, and its public settings',
        tags: ['payments'],
        response: { 200: paymentConfigSchema },
      },
    },
    async () => paymentConfig,
  );

  app.post(
    '/set_verifyClientData',
    {
      // A confirmation shows the client's overdue years: on the client's trail.
      config: { audit: 'read-client' },
      schema: {
        summary:
          'Public payment pages: confirms the client by Client ID and last name, full contact, or a signed link',
        tags: ['public payment pages'],
        body: clientVerificationSchema(today),
        response: { 200: clientVerificationResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const now = clock.now();
      await enforceRateLimits(
        db,
        now,
        [
          { key: `verify:ip:${request.ip}`, limit: config.verifyPerIp, windowMs: FIFTEEN_MINUTES },
          {
            key: `verify:${attemptKey(request.body)}`,
            limit: ATTEMPTS_PER_CLIENT,
            windowMs: FIFTEEN_MINUTES,
          },
        ],
        v.tooMany,
      );
      const linkClientId =
        request.body.mode === 'link' ? readPaymentLinkToken(linkSecret, request.body.t, now) : null;
      const client = await findClient(db, request.body, linkClientId);
      if (!client) {
        throw new HttpError('VERIFICATION_FAILED', request.body.mode === 'link' ? v.linkFailed : v.failed, {
          verify: v.failedInline,
        });
      }
      const verification = randomToken();
      await db.insert(paymentVerifications).values({
        id: sha256Hex(verification),
        clientId: client.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + VERIFICATION_LIFETIME_MS),
      });
      const overdue = await overdueFees(db, client.id, now);
      noteShownClients(request, [client.id]);
      return {
        verified: true as const,
        message: v.confirmed,
        verification,
        amountDue: {
          overdueYears: overdue.rows
            .map((row) => ({
              dueDate: row.dueDate,
              amountCents: yearAmountCents(row, 'ach'),
              cardAmountCents: yearAmountCents(row, 'card'),
            }))
            .sort((a, b) => a.dueDate.localeCompare(b.dueDate)),
          overdueCents: overdue.totalCents,
          charges: overdue.charges,
        },
        ...(linkClientId ? { ClientId: linkClientId.toUpperCase() } : {}),
      };
    },
  );

  app.post(
    '/set_PublicPaymentInfo',
    {
      schema: {
        summary: 'Public payment pages: saves a tokenized card or bank account for the confirmed client',
        description:
          'Needs the verification of set_verifyClientData (15 minutes) and an Idempotency-Key header. Overdue annual storage is charged to the new method.',
        tags: ['public payment pages'],
        body: setPublicPaymentInfoRequestSchema,
        response: {
          200: setPublicPaymentInfoResponseSchema,
          400: errorBodySchema,
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
      // Each save asks the gateway to validate a card: limit them, so a confirmed page cannot be
      // used to try out card numbers.
      await enforceRateLimits(
        db,
        clock.now(),
        [
          { key: `public-save:ip:${request.ip}`, limit: config.verifyPerIp, windowMs: FIFTEEN_MINUTES },
          {
            key: `public-save:verification:${sha256Hex(request.body.verification)}`,
            limit: SAVES_PER_VERIFICATION,
            windowMs: FIFTEEN_MINUTES,
          },
        ],
        v.tooMany,
      );
      const [verification] = await db
        .select({ clientId: paymentVerifications.clientId, spentAt: paymentVerifications.spentAt })
        .from(paymentVerifications)
        .where(
          and(
            eq(paymentVerifications.id, sha256Hex(request.body.verification)),
            gt(paymentVerifications.expiresAt, clock.now()),
          ),
        )
        .limit(1);
      // A retry of the save that spent the confirmation replays its first answer (the same key with
      // another body is refused by the run-once engine); anything new needs a new confirmation.
      const replay =
        verification?.spentAt != null &&
        (await findOperation(db, `client:${verification.clientId}`, idempotencyKey)) !== undefined;
      if (!verification || (verification.spentAt && !replay)) {
        throw new HttpError('VALIDATION', v.confirmFirst, { verify: v.confirmFirst });
      }
      const source = request.body.page === 'sms' ? PAYMENT_SOURCES.sms : PAYMENT_SOURCES.email;
      // Counted on the public pages' own ceilings: never on the signed-in client's.
      const attempt = replay
        ? null
        : { clientId: verification.clientId, ip: request.ip, idempotencyKey, page: 'public' as const };
      const response = await withPaymentAttempt(deps, attempt, (gateway) =>
        savePaymentMethod(
          { ...deps, gateway, log: request.log },
          {
            clientId: verification.clientId,
            source,
            idempotencyKey,
            request: request.body,
            // The page showed a total: if the bill changed since, nothing is charged (409).
            expectedTotalCents: request.body.expectedTotalCents,
          },
        ),
      );
      // Its job is done: a further change needs a new confirmation.
      await db
        .update(paymentVerifications)
        .set({ spentAt: clock.now() })
        .where(eq(paymentVerifications.id, sha256Hex(request.body.verification)));
      const result = await publicPaymentResultToken(db, linkSecret, verification.clientId, idempotencyKey);
      return { ...response, message: v.saved, result };
    },
  );

  // A save's result token reads that save only: an unknown, altered or expired token, or one
  // naming anything but a public page's save, is the same 404.
  const resultRouteLimit = (ip: string) =>
    enforceRateLimits(
      db,
      clock.now(),
      [{ key: `public-result:ip:${ip}`, limit: config.verifyPerIp, windowMs: FIFTEEN_MINUTES }],
      v.tooMany,
    );

  app.get(
    '/get_PublicPaymentResult',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary: 'Public payment pages: what a save did (method saved, amount charged), by its result token',
        description:
          'The token is the `result` of set_PublicPaymentInfo, good for 7 days after the payment: a reload of the page after paying shows the paid state.',
        tags: ['public payment pages'],
        querystring: publicPaymentResultQuerySchema,
        response: { 200: publicPaymentResultSchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await resultRouteLimit(request.ip);
      const row = await publicPaymentOfResult(db, linkSecret, request.query.result, clock.now());
      noteShownClients(request, [row.clientId]);
      void reply.header('cache-control', 'no-store');
      return publicPaymentResult(row);
    },
  );

  app.get(
    '/get_PublicPaymentReceipt',
    {
      config: { audit: 'read-document' },
      schema: {
        summary: 'Public payment pages: the receipt PDF of what a save charged, by its result token',
        tags: ['public payment pages'],
        querystring: publicPaymentResultQuerySchema,
        response: { 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await resultRouteLimit(request.ip);
      const now = clock.now();
      const row = await publicPaymentOfResult(db, linkSecret, request.query.result, now);
      // Nothing charged, no receipt: the same answer as an unknown token.
      if (!publicPaymentResult(row).receipt) throw resultGone();
      noteShownClients(request, [row.clientId]);
      return replyWithReceipt(reply, db, row.id, now, async () => undefined);
    },
  );
};
