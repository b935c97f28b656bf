import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { tooManyRequests } from './http-error';

/** One counter: at most `limit` hits on `key` in a fixed window of `windowMs`. */
export interface RateLimit {
  key: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Counts one hit against the key in its fixed window. One statement, so concurrent requests in
 * several processes count exactly.
 */
async function hit(db: Database, { key, limit, windowMs }: RateLimit, now: Date): Promise<RateLimitDecision> {
  const windowStartFloor = new Date(now.getTime() - windowMs).toISOString();
  const result = (await db.execute(sql`
    insert into rate_limits (key, window_start, hits) values (${key}, ${now.toISOString()}, 1)
    on conflict (key) do update set
      hits = case when rate_limits.window_start <= ${windowStartFloor} then 1 else rate_limits.hits + 1 end,
      window_start = case when rate_limits.window_start <= ${windowStartFloor} then excluded.window_start else rate_limits.window_start end
    returning hits, window_start`)) as unknown as {
    rows: Array<{ hits: number; window_start: string | Date }>;
  };
  const row = result.rows[0];
  if (!row) return { allowed: true, retryAfterSeconds: 0 };
  const windowStart = new Date(row.window_start).getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now.getTime()) / 1000));
  return { allowed: Number(row.hits) <= limit, retryAfterSeconds };
}

/**
 * Counts one hit against every limit (all of them, so a refused attempt still counts everywhere)
 * and says whether all are within bounds; when not, how long until the last one over reopens.
 */
export async function countRateLimits(
  db: Database,
  now: Date,
  limits: readonly RateLimit[],
): Promise<RateLimitDecision> {
  let decision: RateLimitDecision = { allowed: true, retryAfterSeconds: 0 };
  for (const limit of limits) {
    const one = await hit(db, limit, now);
    if (!one.allowed) {
      decision = {
        allowed: false,
        retryAfterSeconds: Math.max(decision.allowed ? 0 : decision.retryAfterSeconds, one.retryAfterSeconds),
      };
    }
  }
  return decision;
}

/** Counts one hit against every limit; any over answers 429 with Retry-After and the message. */
export async function enforceRateLimits(
  db: Database,
  now: Date,
  limits: readonly RateLimit[],
  message: string,
): Promise<void> {
  const decision = await countRateLimits(db, now, limits);
  if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds, message);
}

/** Whether the key was hit within its window (read only: counts nothing). */
export async function hitWithin(db: Database, key: string, windowMs: number, now: Date): Promise<boolean> {
  const result = (await db.execute(sql`
    select 1 from rate_limits
    where key = ${key} and window_start > ${new Date(now.getTime() - windowMs).toISOString()}`)) as unknown as {
    rows: unknown[];
  };
  return result.rows.length > 0;
}

/**
 * Gives back one hit counted on the key (a claim whose outcome should not count, such as a code
 * that turned out right); never below zero.
 */
export async function releaseRateLimitHit(db: Database, key: string): Promise<void> {
  await db.execute(sql`update rate_limits set hits = greatest(hits - 1, 0) where key = ${key}`);
}
