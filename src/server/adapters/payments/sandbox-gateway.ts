import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addDays, isoDateOf, zonedInstant } from '../../../domain/dates';
import { abaRoutingValid, cardBrandOf, digitsOf, luhnValid, paymentMessages } from '../../../domain/payments';
import type { Database } from '../../db/client';
import { sandboxPaymentMethods, sandboxRefunds, sandboxTokens, sandboxTransactions } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { countRateLimits } from '../../lib/rate-limit';
import {
  type DeclineReason,
  declineMessages,
  type PaymentGateway,
  type RefundRefusal,
  type RefundResult,
  refundMessages,
  type VoidRefusal,
} from './payment-gateway';

/**
 * The built-in sandbox gateway: the default, offline stand-in for the card processor. Its
 * tokenizer is mounted under /sandbox-gateway (outside /api) and receives card and bank details
 * straight from the browser, exactly as Accept.js would send them to Authorize.Net; the portal's
 * own API never does. It keeps only a token, the brand, the last 4 digits, the expiry and the
 * documented test behaviour of the number. Every outcome is deterministic.
 */

export const SANDBOX_TOKEN_DESCRIPTOR = 'SANDBOX.TOKEN' as const;
const TOKEN_LIFETIME_MS = 15 * 60 * 1000;
const TOKENS_PER_IP = 60;

/**
 * Test numbers and what they do (README, "Sandbox gateway"). `decline:` refuses when the method is
 * saved (the gateway's validation), `charge:` saves it but refuses every charge, `error:` fails.
 */
const cardBehaviors: Record<string, string> = {
  '4000000000000002': 'decline:generic_decline',
  '4000000000009995': 'decline:insufficient_funds',
  '4000000000000069': 'decline:expired_card',
  '4000000000000127': 'decline:incorrect_cvc',
  '4000000000000119': 'error:processing_error',
  '4000000000000341': 'charge:generic_decline',
};
const SANDBOX_DECLINE_ZIP = '46282';
const SANDBOX_TEST_ROUTING = '110000000';
const bankBehaviors: Record<string, string> = {
  '000111111113': 'decline:ach_account_closed',
  '000111111116': 'decline:ach_no_account',
  '000222222227': 'charge:ach_insufficient_funds',
};

function outcomeOf(
  behavior: string,
): { stage: 'save' | 'charge'; kind: 'declined' | 'error'; reason: DeclineReason } | null {
  const [stage, reason] = behavior.split(':') as [string, DeclineReason | undefined];
  if (!reason) return null;
  if (stage === 'decline') return { stage: 'save', kind: 'declined', reason };
  if (stage === 'error') return { stage: 'save', kind: 'error', reason };
  if (stage === 'charge') return { stage: 'charge', kind: 'declined', reason };
  return null;
}

/**
 * Like Authorize.Net with its default setting, the sandbox closes its batch once a day at 4:00 PM
 * Pacific time: a transaction made before the cut-off settles with that day's batch, one made after
 * it with the next day's. Until then it can be voided (nothing moves) and not refunded; after, the
 * other way round.
 */
export const SANDBOX_BATCH_CUTOFF = { timeZone: 'America/Los_Angeles', hour: 16 } as const;

/** When the batch holding a transaction made at `madeAt` settles: the first cut-off after it. */
export function sandboxSettlementTime(madeAt: Date): Date {
  const { timeZone, hour } = SANDBOX_BATCH_CUTOFF;
  const day = isoDateOf(madeAt, timeZone);
  const cutoff = zonedInstant(day, hour, timeZone);
  return cutoff.getTime() > madeAt.getTime() ? cutoff : zonedInstant(addDays(day, 1), hour, timeZone);
}

function isSettled(madeAt: Date, now: Date): boolean {
  return now.getTime() >= sandboxSettlementTime(madeAt).getTime();
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const tokenRequestSchema = z.union([
  z.object({
    card: z.object({
      number: z.string().max(23),
      cvv: z.string().max(4),
      expiryMonth: z.coerce.number().int().min(1).max(12),
      expiryYear: z.coerce.number().int().min(2000).max(2100),
      zip: z.string().max(20).optional(),
    }),
  }),
  z.object({
    bank: z.object({
      routingNumber: z.string().max(9),
      accountNumber: z.string().max(17),
      nameOnAccount: z.string().max(80),
    }),
  }),
]);

const tokenResponseSchema = z.object({
  token: z.object({ descriptor: z.literal(SANDBOX_TOKEN_DESCRIPTOR), value: z.string() }),
});
const tokenErrorSchema = z.object({ error: z.string(), code: z.string() });

/** The sandbox's tokenizer endpoint, the only place a full number ever arrives. */
export function sandboxTokenizerRoutes(db: Database, clock: Clock): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/tokens',
      {
        schema: {
          summary:
            'Sandbox gateway: exchanges card or bank details for a one-time token (stand-in for Accept.js)',
          tags: ['sandbox gateway'],
          body: tokenRequestSchema,
          response: { 200: tokenResponseSchema, 400: tokenErrorSchema, 429: tokenErrorSchema },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const token = `tok_sbx_${randomBytes(24).toString('base64url')}`;
        const createdAt = clock.now();
        // Like a real processor, it limits how fast one address may try numbers, and forgets
        // tokens that were used or have expired.
        // Its own error shape, as a processor answers: not the portal's HttpError.
        const decision = await countRateLimits(db, createdAt, [
          { key: `sandbox-tokens:ip:${request.ip}`, limit: TOKENS_PER_IP, windowMs: TOKEN_LIFETIME_MS },
        ]);
        if (!decision.allowed) {
          return reply.code(429).header('retry-after', String(decision.retryAfterSeconds)).send({
            error: 'Too many attempts. Please wait a few minutes and try again.',
            code: 'rate_limited',
          });
        }
        await db
          .delete(sandboxTokens)
          .where(
            or(
              isNotNull(sandboxTokens.usedAt),
              lt(sandboxTokens.createdAt, new Date(createdAt.getTime() - TOKEN_LIFETIME_MS)),
            ),
          );
        if ('card' in body) {
          const number = digitsOf(body.card.number);
          if (!luhnValid(number))
            return reply.code(400).send({ error: paymentMessages.cardNumberInvalid, code: 'invalid_number' });
          if (!/^\d{3,4}$/.test(body.card.cvv))
            return reply.code(400).send({ error: paymentMessages.cvvInvalid, code: 'invalid_cvc' });
          const behavior =
            cardBehaviors[number] ??
            (digitsOf(body.card.zip ?? '') === SANDBOX_DECLINE_ZIP ? 'decline:generic_decline' : 'approve');
          await db.insert(sandboxTokens).values({
            token,
            kind: 'card',
            brand: cardBrandOf(number),
            last4: number.slice(-4),
            expiryMonth: body.card.expiryMonth,
            expiryYear: body.card.expiryYear,
            behavior,
            createdAt,
          });
        } else {
          const routing = body.bank.routingNumber.trim();
          const account = body.bank.accountNumber.trim();
          if (!abaRoutingValid(routing))
            return reply
              .code(400)
              .send({ error: paymentMessages.routingNumberInvalid, code: 'invalid_routing' });
          if (!/^\d{4,17}$/.test(account)) {
            return reply
              .code(400)
              .send({ error: paymentMessages.accountNumberInvalid, code: 'invalid_account' });
          }
          const behavior = (routing === SANDBOX_TEST_ROUTING && bankBehaviors[account]) || 'approve';
          await db
            .insert(sandboxTokens)
            .values({ token, kind: 'ach', brand: null, last4: account.slice(-4), behavior, createdAt });
        }
        return { token: { descriptor: SANDBOX_TOKEN_DESCRIPTOR, value: token } };
      },
    );
  };
}

/** The server side of the sandbox gateway, behind the same port as Authorize.Net. */
export function createSandboxGateway(db: Database, clock: Clock): PaymentGateway {
  /** Its record of a charge by our reference, newest first, as a processor's reporting answers. */
  async function transactionByReference(customerRef: string, reference: string) {
    const [found] = await db
      .select()
      .from(sandboxTransactions)
      .where(
        and(eq(sandboxTransactions.customerRef, customerRef), eq(sandboxTransactions.reference, reference)),
      )
      .orderBy(desc(sandboxTransactions.createdAt))
      .limit(1);
    return found;
  }

  function newTransactionId(): string {
    return String(BigInt(`0x${randomBytes(6).toString('hex')}`) % 1_000_000_000_000n).padStart(12, '0');
  }

  const refused = (reason: RefundRefusal): RefundResult => ({
    outcome: 'declined',
    reason,
    message: refundMessages[reason],
  });
  const voidRefused = (reason: VoidRefusal) =>
    ({ outcome: 'declined', reason, message: refundMessages[reason] }) as const;

  return {
    name: 'sandbox',
    async saveMethod(request) {
      if (request.token.descriptor !== SANDBOX_TOKEN_DESCRIPTOR) {
        return { outcome: 'error', reason: 'invalid_token', message: declineMessages.invalid_token };
      }
      const now = clock.now();
      // A token is good once, for 15 minutes, like an Accept.js nonce.
      const [token] = await db
        .update(sandboxTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(sandboxTokens.token, request.token.value),
            isNull(sandboxTokens.usedAt),
            gt(sandboxTokens.createdAt, new Date(now.getTime() - TOKEN_LIFETIME_MS)),
          ),
        )
        .returning();
      if (!token || token.kind !== request.kind) {
        return { outcome: 'error', reason: 'invalid_token', message: declineMessages.invalid_token };
      }
      const outcome = outcomeOf(token.behavior);
      if (outcome?.stage === 'save') {
        return { outcome: outcome.kind, reason: outcome.reason, message: declineMessages[outcome.reason] };
      }
      const customerRef = request.customerRef ?? `cus_sbx_${digest(request.merchantCustomerId).slice(0, 16)}`;
      const paymentRef = `pm_sbx_${digest(token.token).slice(0, 20)}`;
      await db.insert(sandboxPaymentMethods).values({
        paymentRef,
        customerRef,
        kind: token.kind,
        brand: token.brand,
        last4: token.last4,
        expiryMonth: token.expiryMonth,
        expiryYear: token.expiryYear,
        behavior: token.behavior,
        createdAt: now,
      });
      return {
        outcome: 'saved',
        method: {
          customerRef,
          paymentRef,
          kind: token.kind,
          brand: token.brand,
          last4: token.last4,
          expiryMonth: token.expiryMonth,
          expiryYear: token.expiryYear,
        },
      };
    },
    // Its record answers at once and for good: a charge it has no row of was never made.
    notFoundGraceMs: 0,
    async lookupCharge(request) {
      const found = await transactionByReference(request.customerRef, request.reference);
      if (!found) return { status: 'not_found' };
      if (found.status === 'approved') {
        return { status: 'approved', transactionId: found.transactionId, amountCents: found.amountCents };
      }
      if (found.status === 'returned') return { status: 'returned', transactionId: found.transactionId };
      return { status: 'failed', transactionId: found.transactionId };
    },
    async charge(request) {
      const [method] = await db
        .select()
        .from(sandboxPaymentMethods)
        .where(
          and(
            eq(sandboxPaymentMethods.paymentRef, request.paymentRef),
            eq(sandboxPaymentMethods.customerRef, request.customerRef),
          ),
        )
        .limit(1);
      if (!method) {
        return {
          outcome: 'error',
          reason: 'invalid_token',
          message: declineMessages.invalid_token,
          transactionId: null,
        };
      }
      if (request.amountCents <= 0 || request.amountCents > 9_999_999) {
        return {
          outcome: 'error',
          reason: 'processing_error',
          message: declineMessages.processing_error,
          transactionId: null,
        };
      }
      // Like a processor, a second charge with the same reference is a duplicate: it answers the
      // first one's outcome and moves no money.
      const earlier = await transactionByReference(request.customerRef, request.reference);
      if (earlier) {
        return earlier.status === 'approved'
          ? { outcome: 'approved', transactionId: earlier.transactionId, authCode: null }
          : {
              outcome: 'declined',
              reason: 'duplicate',
              message: declineMessages.duplicate,
              transactionId: earlier.transactionId,
            };
      }
      const transactionId = newTransactionId();
      const outcome = outcomeOf(method.behavior);
      await db.insert(sandboxTransactions).values({
        transactionId,
        reference: request.reference,
        customerRef: request.customerRef,
        paymentRef: request.paymentRef,
        amountCents: request.amountCents,
        status: outcome ? 'declined' : 'approved',
        createdAt: clock.now(),
      });
      if (outcome) {
        return {
          outcome: 'declined',
          reason: outcome.reason,
          message: declineMessages[outcome.reason],
          transactionId,
        };
      }
      return {
        outcome: 'approved',
        transactionId,
        authCode: digest(`auth:${transactionId}`).slice(0, 6).toUpperCase(),
      };
    },

    /**
     * The service's rules, checked under a lock on the charge so that concurrent refunds of it are
     * judged one after the other: a retry of a reference answers the first refund; only an approved,
     * settled charge of this customer is refunded; all its refunds not voided never add up to more
     * than it. A refused refund leaves no record, as at a processor.
     */
    async refund(request) {
      if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
        return {
          outcome: 'error',
          reason: 'processing_error',
          message: refundMessages.processing_error,
          transactionId: null,
        };
      }
      const now = clock.now();
      return db.transaction(async (tx): Promise<RefundResult> => {
        const [charge] = await tx
          .select()
          .from(sandboxTransactions)
          .where(eq(sandboxTransactions.transactionId, request.chargeTransactionId))
          .for('update');
        const [earlier] = await tx
          .select()
          .from(sandboxRefunds)
          .where(
            and(
              eq(sandboxRefunds.customerRef, request.customerRef),
              eq(sandboxRefunds.reference, request.reference),
            ),
          )
          .orderBy(desc(sandboxRefunds.createdAt))
          .limit(1);
        if (earlier) {
          return earlier.status === 'refunded' && earlier.chargeTransactionId === request.chargeTransactionId
            ? { outcome: 'refunded', transactionId: earlier.transactionId }
            : refused('duplicate');
        }
        if (!charge || charge.customerRef !== request.customerRef || charge.status !== 'approved') {
          return refused('not_refundable');
        }
        if (!isSettled(charge.createdAt, now)) return refused('not_settled');
        const [given] = await tx
          .select({ cents: sql<number>`coalesce(sum(${sandboxRefunds.amountCents}), 0)::int` })
          .from(sandboxRefunds)
          .where(
            and(
              eq(sandboxRefunds.chargeTransactionId, charge.transactionId),
              eq(sandboxRefunds.status, 'refunded'),
            ),
          );
        if ((given?.cents ?? 0) + request.amountCents > charge.amountCents) return refused('exceeds_charge');
        const transactionId = newTransactionId();
        await tx.insert(sandboxRefunds).values({
          transactionId,
          chargeTransactionId: charge.transactionId,
          reference: request.reference,
          customerRef: request.customerRef,
          amountCents: request.amountCents,
          status: 'refunded',
          createdAt: now,
        });
        return { outcome: 'refunded', transactionId };
      });
    },

    /** A charge or a refund still in the open batch is voided; voiding it again answers the same. */
    async void(request) {
      const now = clock.now();
      const [charge] = await db
        .select()
        .from(sandboxTransactions)
        .where(eq(sandboxTransactions.transactionId, request.transactionId));
      const [refund] = charge
        ? []
        : await db
            .select()
            .from(sandboxRefunds)
            .where(eq(sandboxRefunds.transactionId, request.transactionId));
      const found = charge ?? refund;
      if (!found) return voidRefused('not_voidable');
      if (found.status === 'voided') return { outcome: 'voided', transactionId: found.transactionId };
      if (found.status !== 'approved' && found.status !== 'refunded') return voidRefused('not_voidable');
      if (isSettled(found.createdAt, now)) return voidRefused('settled');
      const table = charge ? sandboxTransactions : sandboxRefunds;
      await db
        .update(table)
        .set({ status: 'voided' })
        .where(and(eq(table.transactionId, found.transactionId), eq(table.status, found.status)));
      return { outcome: 'voided', transactionId: found.transactionId };
    },

    async lookupRefund(request) {
      const [found] = await db
        .select()
        .from(sandboxRefunds)
        .where(
          and(
            eq(sandboxRefunds.customerRef, request.customerRef),
            eq(sandboxRefunds.reference, request.reference),
            eq(sandboxRefunds.chargeTransactionId, request.chargeTransactionId),
          ),
        )
        .orderBy(desc(sandboxRefunds.createdAt))
        .limit(1);
      if (!found) return { status: 'not_found' };
      if (found.status === 'refunded') {
        return { status: 'refunded', transactionId: found.transactionId, amountCents: found.amountCents };
      }
      return { status: 'failed', transactionId: found.transactionId };
    },
  };
}
