import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Counts one hit against `key` in a fixed window and says whether it is within `limit`.
 * One statement, so concurrent requests in several processes count exactly.
 */
export async function hitRateLimit(
  db: Database,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<RateLimitDecision> {
  const windowStartFloor = new Date(now.getTime() - windowMs);
  const result = (await db.execute(sql`
    insert into rate_limits (key, window_start, hits) values (${key}, ${now.toISOString()}, 1)
    on conflict (key) do update set
      hits = case when rate_limits.window_start <= ${windowStartFloor.toISOString()} then 1 else rate_limits.hits + 1 end,
      window_start = case when rate_limits.window_start <= ${windowStartFloor.toISOString()} then excluded.window_start else rate_limits.window_start end
    returning hits, window_start`)) as unknown as {
    rows: Array<{ hits: number; window_start: string | Date }>;
  };
  const row = result.rows[0];
  if (!row) return { allowed: true, retryAfterSeconds: 0 };
  const windowStart = new Date(row.window_start).getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now.getTime()) / 1000));
  return { allowed: Number(row.hits) <= limit, retryAfterSeconds };
}
