import { TOO_MANY_PAYMENT_ATTEMPTS } from '../../../domain/payments';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { countRateLimits, enforceRateLimits, hitWithin } from '../../lib/rate-limit';

const ONE_HOUR = 60 * 60 * 1000;

/**
 * Counts a submission that saves a payment method or charges one, per client and per IP, before
 * the gateway sees it: declines count as much as approvals, so the portal cannot be used to try
 * out card numbers. A retry of a submission already counted (the same Idempotency-Key for the same
 * client) is not counted again: the ledger calls the gateway at most once per key, so the retry
 * costs the gateway nothing. It is marked only once allowed, so a key refused here stays refused.
 */
export async function countPaymentAttempt(
  deps: { db: Database; clock: Clock; config: Pick<Config, 'rateLimits'> },
  attempt: { clientId: string; ip: string; idempotencyKey: string },
): Promise<void> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const submission = `payment-attempt:submission:${attempt.clientId}:${attempt.idempotencyKey}`;
  if (await hitWithin(db, submission, ONE_HOUR, now)) return;
  await enforceRateLimits(
    db,
    now,
    [
      {
        key: `payment-attempt:client:${attempt.clientId}`,
        limit: config.rateLimits.paymentPerClient,
        windowMs: ONE_HOUR,
      },
      { key: `payment-attempt:ip:${attempt.ip}`, limit: config.rateLimits.paymentPerIp, windowMs: ONE_HOUR },
    ],
    TOO_MANY_PAYMENT_ATTEMPTS,
  );
  await countRateLimits(db, now, [{ key: submission, limit: 1, windowMs: ONE_HOUR }]);
}
