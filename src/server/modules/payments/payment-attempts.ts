import { TOO_MANY_PAYMENT_ATTEMPTS } from '../../../domain/payments';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { tooManyRequests } from '../../lib/http-error';
import { countRateLimits, hitWithin, releaseRateLimitHit } from '../../lib/rate-limit';

const ONE_HOUR = 60 * 60 * 1000;

export interface PaymentAttemptDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'rateLimits'>;
  gateway: PaymentGateway;
}

/** Whose attempt it is (a client, or `physician:<id>` for a physician's own card), from where, which submission. */
export interface PaymentAttempt {
  clientId: string;
  ip: string;
  idempotencyKey: string;
  /**
   * 'public': a submission of the public payment pages, made by anyone who knows a Client ID and a
   * last name. It is counted on ceilings of its own (per client of those pages, per IP), never on
   * the signed-in client's own: a stranger's refusals cannot lock a client out of their portal.
   */
  page?: 'public';
}

/** The gateway as one submission sees it: noting whether the submission reached it. */
function watchedGateway(gateway: PaymentGateway, reached: () => void): PaymentGateway {
  return {
    name: gateway.name,
    notFoundGraceMs: gateway.notFoundGraceMs,
    saveMethod(request) {
      reached();
      return gateway.saveMethod(request);
    },
    charge(request) {
      reached();
      return gateway.charge(request);
    },
    lookupCharge: (request) => gateway.lookupCharge(request),
    refund(request) {
      reached();
      return gateway.refund(request);
    },
    void(request) {
      reached();
      return gateway.void(request);
    },
    lookupRefund: (request) => gateway.lookupRefund(request),
  };
}

/**
 * Runs a submission that may save a payment method or charge one, counting it once it is known
 * whether it reached the gateway. Attempts that reach it, declines as much as approvals, are limited
 * per client (RATE_LIMIT_PAYMENT_PER_CLIENT) and per IP (RATE_LIMIT_PAYMENT_PER_IP) an hour, so the
 * portal cannot be used to try out card numbers. Submissions refused before the gateway (a date
 * refused, a total changed) cost the gateway nothing: they have their own, higher ceiling per client
 * (RATE_LIMIT_REFUSALS_PER_CLIENT) and do not spend the client's payment attempts. The public
 * payment pages count on keys of their own, the same ceilings per client and per IP (refusals per
 * IP too), so that an anonymous visitor cannot spend the signed-in client's.
 *
 * Each submission is counted on both sides while it runs (so a burst cannot outrun either
 * ceiling), then the side it did not take is given back. A retry of a submission that reached the
 * gateway (the same Idempotency-Key for the same client) is not counted again: the ledger calls the
 * gateway at most once per key. `attempt` null: nothing of this submission can reach the gateway.
 */
export async function withPaymentAttempt<T>(
  deps: PaymentAttemptDeps,
  attempt: PaymentAttempt | null,
  work: (gateway: PaymentGateway) => Promise<T>,
): Promise<T> {
  if (!attempt) return work(deps.gateway);
  const { db, clock, config } = deps;
  const now = clock.now();
  const submission = `payment-attempt:submission:${attempt.clientId}:${attempt.idempotencyKey}`;
  if (await hitWithin(db, submission, ONE_HOUR, now)) return work(deps.gateway);

  const who = attempt.page === 'public' ? 'public-' : '';
  const gatewayKeys = [
    `payment-attempt:${who}client:${attempt.clientId}`,
    `payment-attempt:${who}ip:${attempt.ip}`,
  ];
  const refusalKeys = [`payment-refusal:${who}client:${attempt.clientId}`];
  if (attempt.page === 'public') refusalKeys.push(`payment-refusal:public-ip:${attempt.ip}`);
  const decision = await countRateLimits(db, now, [
    { key: gatewayKeys[0] as string, limit: config.rateLimits.paymentPerClient, windowMs: ONE_HOUR },
    { key: gatewayKeys[1] as string, limit: config.rateLimits.paymentPerIp, windowMs: ONE_HOUR },
    ...refusalKeys.map((key) => ({ key, limit: config.rateLimits.refusalsPerClient, windowMs: ONE_HOUR })),
  ]);
  let reached = false;
  try {
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds, TOO_MANY_PAYMENT_ATTEMPTS);
    return await work(watchedGateway(deps.gateway, () => (reached = true)));
  } finally {
    if (reached) {
      for (const key of refusalKeys) await releaseRateLimitHit(db, key);
      await countRateLimits(db, now, [{ key: submission, limit: 1, windowMs: ONE_HOUR }]);
    } else {
      for (const key of gatewayKeys) await releaseRateLimitHit(db, key);
    }
  }
}
