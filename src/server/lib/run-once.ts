import { randomBytes } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { type ErrorCode, isErrorCode } from '../../domain/errors';
import { type Database, returnedRows, type Transaction } from '../db/client';
import { operations } from '../db/schema';
import type { Clock } from './clock';
import { HttpError } from './http-error';
import { jsonSha256 } from './secrets';

/**
 * The run-once engine: every submission that must happen once (a payment, a signed form, an
 * order) runs through it, keyed by its Idempotency-Key within a scope (the client).
 *
 * - The claim (the operation row, plus what the caller claims with it: the fees, the form) is
 *   committed before any side effect.
 * - The outcome is committed in the same transaction as its effects (`run.succeed`).
 * - A definite failure gives the claim back at once and is kept, so the same key replays it;
 *   a failure that may have left an effect outside (a charge sent, no answer) is left to
 *   reconciliation, which settles it with the caller's `recover`.
 * - The same key with the same body replays the first answer, success included; with another
 *   body it is refused (422).
 * - The owner renews a lease while it works; a claim whose owner died is taken over once the
 *   lease lapses (seconds), by a retry of the same key or by the reconciliation sweep.
 */

export type { Transaction } from '../db/client';
export type OperationRow = typeof operations.$inferSelect;

export interface RunOnceDeps {
  db: Database;
  clock: Clock;
  /** How long a claim stays its owner's without renewal. */
  leaseMs: number;
}

/** The work's handle on its operation. */
export interface Run<T> {
  readonly id: string;
  /** Commits the effects and the answer in one transaction; refused if the lease was lost. */
  succeed(effects: (tx: Transaction) => Promise<void>, response: T): Promise<T>;
  /** As `succeed`, with the answer the effects compute (a date the database moved on). */
  succeedWith(effects: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Marks the stretch where a failure leaves the outcome unknown outside (a charge sent to the
   * gateway and not yet answered): a failure then is left to reconciliation, not given back.
   */
  setInDoubt(inDoubt: boolean): void;
}

/** What recovery decided for an operation whose owner is gone. */
export type Recovered = 'settled' | { retryAfterMs: number };

export interface RunOnceSpec<C, T> {
  scope: string;
  key: string;
  kind: string;
  /** The submission as sent: the same key with another request is refused. */
  request: unknown;
  /** Claims made with the operation, in its transaction; a throw refuses with nothing kept. */
  claim: (tx: Transaction, operationId: string) => Promise<C>;
  work: (run: Run<T>, claimed: C) => Promise<T>;
  /** Gives back what the claim took, after a definite failure (nothing happened outside). */
  release: (tx: Transaction, claimed: C, error: unknown) => Promise<void>;
  /** Settles an operation whose owner died: look the effect up, apply or give back. */
  recover: (run: RecoveryRun<T>, claimed: C) => Promise<Recovered>;
}

/** Recovery's handle: it may succeed with effects, or fail giving the claim back. */
export interface RecoveryRun<T> {
  readonly id: string;
  succeed(effects: (tx: Transaction) => Promise<void>, response: T): Promise<void>;
  succeedWith(effects: (tx: Transaction) => Promise<T>): Promise<T>;
  fail(error: HttpError, giveBack: (tx: Transaction) => Promise<void>): Promise<void>;
}

const WAIT_MS = 20_000;
const POLL_MS = 100;

const IN_DOUBT_MESSAGE =
  'We could not confirm the outcome yet. We are checking it and will e-mail you; nothing will be done twice.';

class LeaseLost extends Error {}

interface StoredError {
  code: string;
  message: string;
  fields?: Record<string, string>;
  /** Rows kept before each code had one status carry the status they were answered with. */
  status?: number;
}

/**
 * The codes that went out with more than one status before each code had its own: an older row's
 * code and status name the code that answers that way now, so its replay answers as it first did.
 */
const SPLIT_CODES: Readonly<Record<string, ErrorCode>> = {
  'VALIDATION 409': 'NOT_ALLOWED_NOW',
  'VALIDATION 422': 'CANNOT_SHIP',
  'PAYMENT_PENDING 409': 'PAYMENT_IN_PROGRESS',
  'INVALID_CODE 401': 'INVALID_SIGN_IN_CODE',
  'FORBIDDEN_FIELD 403': 'CHANGE_NOT_PERMITTED',
  'IDEMPOTENCY_CONFLICT 422': 'IDEMPOTENCY_KEY_REUSED',
  'VERIFICATION_FAILED 404': 'NOT_FOUND',
};

function storedError(error: HttpError): string {
  const stored: StoredError = {
    code: error.code,
    message: error.message,
    ...(error.fields ? { fields: error.fields } : {}),
  };
  return JSON.stringify(stored);
}

const NOT_THROUGH = 'This submission did not go through. Please try again.';

/** The kept failure again, answered with its code's status; a code this version lacks, as not through. */
export function replayError(op: Pick<OperationRow, 'errorJson'>): HttpError {
  if (!op.errorJson) return new HttpError('IDEMPOTENCY_CONFLICT', NOT_THROUGH);
  const stored = JSON.parse(op.errorJson) as StoredError;
  const code = SPLIT_CODES[`${stored.code} ${stored.status}`] ?? stored.code;
  if (!isErrorCode(code)) return new HttpError('IDEMPOTENCY_CONFLICT', NOT_THROUGH);
  return new HttpError(code, stored.message, stored.fields);
}

const newToken = () => randomBytes(16).toString('hex');

/** The operation of a key within a scope, for a caller that nests one operation in another. */
export async function findOperation(db: Database, scope: string, key: string) {
  const [row] = await db
    .select()
    .from(operations)
    .where(and(eq(operations.scope, scope), eq(operations.idempotencyKey, key)))
    .limit(1);
  return row;
}

/** Marks the operation done with its effects, if this token still holds it. */
async function finishWith<R>(
  db: Database,
  clock: Clock,
  id: string,
  token: string,
  effects: (tx: Transaction) => Promise<R>,
  outcome: Partial<typeof operations.$inferInsert>,
): Promise<R> {
  return db.transaction(async (tx) => {
    const [held] = await tx
      .update(operations)
      .set({ ...outcome, completedAt: clock.now() })
      .where(and(eq(operations.id, id), eq(operations.status, 'running'), eq(operations.leaseToken, token)))
      .returning({ id: operations.id });
    // Someone else took the work over (our lease lapsed): our effects must not land twice.
    if (!held) throw new LeaseLost();
    return effects(tx);
  });
}

/** Succeeds with the answer its effects compute, written in their transaction. */
function succeedWithAnswer<T>(
  db: Database,
  clock: Clock,
  id: string,
  token: string,
  effects: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return finishWith(
    db,
    clock,
    id,
    token,
    async (tx) => {
      const answer = await effects(tx);
      await tx
        .update(operations)
        .set({ responseJson: JSON.stringify(answer) })
        .where(eq(operations.id, id));
      return answer;
    },
    { status: 'succeeded' },
  );
}

/** Takes a lapsed operation over: a new lease and token, or null when it is not lapsed. */
async function takeOver(deps: RunOnceDeps, id: string): Promise<OperationRow | null> {
  const now = deps.clock.now();
  const token = newToken();
  const [taken] = await deps.db
    .update(operations)
    .set({ leaseToken: token, leaseUntil: new Date(now.getTime() + deps.leaseMs) })
    .where(and(eq(operations.id, id), eq(operations.status, 'running'), lt(operations.leaseUntil, now)))
    .returning();
  return taken ?? null;
}

/**
 * Settles one lapsed operation with its kind's recovery; false when someone else holds it.
 * Used by a retry of the same key and by the reconciliation sweep.
 */
export async function recoverLapsed<C, T>(
  deps: RunOnceDeps,
  id: string,
  recover: (run: RecoveryRun<T>, claimed: C) => Promise<Recovered>,
): Promise<boolean> {
  const op = await takeOver(deps, id);
  if (!op) return false;
  const { db, clock } = deps;
  const run: RecoveryRun<T> = {
    id: op.id,
    succeed: (effects, response) =>
      finishWith(db, clock, op.id, op.leaseToken, effects, {
        status: 'succeeded',
        responseJson: JSON.stringify(response),
      }),
    succeedWith: (effects) => succeedWithAnswer(db, clock, op.id, op.leaseToken, effects),
    fail: (error, giveBack) =>
      finishWith(db, clock, op.id, op.leaseToken, giveBack, {
        status: 'failed',
        errorJson: storedError(error),
      }),
  };
  const claimed = JSON.parse(op.stateJson ?? 'null') as C;
  const decided = await recover(run, claimed);
  if (decided !== 'settled') {
    // Still in doubt (the gateway could not say): look again later; the claim stays held.
    await db
      .update(operations)
      .set({ leaseUntil: new Date(clock.now().getTime() + decided.retryAfterMs) })
      .where(and(eq(operations.id, op.id), eq(operations.leaseToken, op.leaseToken)));
  }
  return true;
}

/** The lapsed operations to settle, oldest first. */
export async function lapsedOperations(deps: RunOnceDeps, limit = 50): Promise<OperationRow[]> {
  return deps.db
    .select()
    .from(operations)
    .where(and(eq(operations.status, 'running'), lt(operations.leaseUntil, deps.clock.now())))
    .orderBy(operations.leaseUntil)
    .limit(limit);
}

/** True when a live owner holds the operation (its lease has not lapsed). */
export function isHeld(op: Pick<OperationRow, 'status' | 'leaseUntil'>, now: Date): boolean {
  return op.status === 'running' && op.leaseUntil.getTime() >= now.getTime();
}

/**
 * Ends a running operation's lease now, if its holder still holds it under this token, so that
 * `recoverLapsed` may take it over at once (staff settling a payment whose owner is long silent).
 */
export async function expireLease(
  db: Database,
  op: Pick<OperationRow, 'id' | 'leaseToken'>,
  now: Date,
): Promise<void> {
  await db
    .update(operations)
    .set({ leaseUntil: new Date(now.getTime() - 1) })
    .where(
      and(
        eq(operations.id, op.id),
        eq(operations.status, 'running'),
        eq(operations.leaseToken, op.leaseToken),
      ),
    );
}

/** The operation of an id, for callers that keep the id with what it claimed. */
export async function operationById(db: Database, id: string): Promise<OperationRow | undefined> {
  const [row] = await db.select().from(operations).where(eq(operations.id, id)).limit(1);
  return row;
}

export async function runOnce<C, T>(deps: RunOnceDeps, spec: RunOnceSpec<C, T>): Promise<T> {
  const { db, clock } = deps;
  const requestHash = jsonSha256(spec.request);

  const answerExisting = async (found: OperationRow): Promise<T> => {
    if (found.requestHash !== requestHash || found.kind !== spec.kind) {
      throw new HttpError(
        'IDEMPOTENCY_KEY_REUSED',
        'This submission was already used for a different request. Please reload the page and try again.',
      );
    }
    let op: OperationRow | undefined = found;
    const deadline = Date.now() + WAIT_MS;
    while (op) {
      if (op.status === 'succeeded') return JSON.parse(op.responseJson ?? 'null') as T;
      if (op.status === 'failed') throw replayError(op);
      if (!isHeld(op, clock.now())) await recoverLapsed(deps, op.id, spec.recover);
      else if (Date.now() >= deadline) break;
      else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      op = await operationById(db, found.id);
    }
    throw new HttpError(
      'IDEMPOTENCY_CONFLICT',
      'This submission is still being processed. Please wait a moment and reload the page.',
    );
  };

  const existing = await findOperation(db, spec.scope, spec.key);
  if (existing) return answerExisting(existing);

  const token = newToken();
  const now = clock.now();
  let started: { op: OperationRow; claimed: C } | null = null;
  await db.transaction(async (tx) => {
    const [op] = await tx
      .insert(operations)
      .values({
        scope: spec.scope,
        idempotencyKey: spec.key,
        kind: spec.kind,
        requestHash,
        status: 'running',
        leaseToken: token,
        leaseUntil: new Date(now.getTime() + deps.leaseMs),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!op) return;
    const claimed = await spec.claim(tx, op.id);
    await tx
      .update(operations)
      .set({ stateJson: JSON.stringify(claimed ?? null) })
      .where(eq(operations.id, op.id));
    started = { op, claimed };
  });
  if (!started) {
    // The same key raced us and won: answer what it answers.
    const raced = await findOperation(db, spec.scope, spec.key);
    if (!raced) throw new HttpError('IDEMPOTENCY_CONFLICT', 'Please try again.');
    return answerExisting(raced);
  }
  const { op, claimed } = started as { op: OperationRow; claimed: C };

  // Renew the lease while the work runs, so nobody takes over a live owner's work.
  const renewEvery = Math.max(50, Math.floor(deps.leaseMs / 3));
  const renewal = setInterval(() => {
    db.update(operations)
      .set({ leaseUntil: new Date(clock.now().getTime() + deps.leaseMs) })
      .where(
        and(eq(operations.id, op.id), eq(operations.status, 'running'), eq(operations.leaseToken, token)),
      )
      .catch(() => {});
  }, renewEvery);
  renewal.unref?.();

  let inDoubt = false;
  let succeeded = false;
  const run: Run<T> = {
    id: op.id,
    async succeed(effects, response) {
      await finishWith(db, clock, op.id, token, effects, {
        status: 'succeeded',
        responseJson: JSON.stringify(response),
      });
      succeeded = true;
      inDoubt = false;
      return response;
    },
    async succeedWith(effects) {
      const answer = await succeedWithAnswer(db, clock, op.id, token, effects);
      succeeded = true;
      inDoubt = false;
      return answer;
    },
    setInDoubt(value) {
      inDoubt = value;
    },
  };

  try {
    const result = await spec.work(run, claimed);
    if (!succeeded) await run.succeed(async () => {}, result);
    return result;
  } catch (error) {
    if (error instanceof LeaseLost) {
      const now = await operationById(db, op.id);
      if (now) return answerExisting(now);
      throw error;
    }
    if (inDoubt) {
      // The outcome outside is unknown: hand it to reconciliation at once (the lease lapses now).
      await db
        .update(operations)
        .set({ leaseUntil: new Date(clock.now().getTime() - 1) })
        .where(and(eq(operations.id, op.id), eq(operations.leaseToken, token)))
        .catch(() => {});
      if (error instanceof HttpError) throw error;
      throw new HttpError('PAYMENT_PENDING', IN_DOUBT_MESSAGE);
    }
    // Nothing happened outside: give the claim back now, so a corrected retry is not blocked.
    // If this fails too (the database went away), the lease lapses and reconciliation does it.
    await db
      .transaction(async (tx) => {
        const [held] = await tx
          .update(operations)
          .set({
            status: 'failed',
            errorJson: error instanceof HttpError ? storedError(error) : null,
            completedAt: clock.now(),
          })
          .where(
            and(eq(operations.id, op.id), eq(operations.status, 'running'), eq(operations.leaseToken, token)),
          )
          .returning({ id: operations.id });
        if (held) await spec.release(tx, claimed, error);
      })
      .catch(() => {});
    throw error;
  } finally {
    clearInterval(renewal);
  }
}

/**
 * Operations an owner starts and settles together, a batch at a time (a billing run's renewals,
 * payments/paid-order-batch.ts): the same rows, leases and outcomes as `runOnce` keeps for one,
 * written in one statement for many. All hold the batch's one lease token.
 */
export interface OperationStart {
  id: string;
  scope: string;
  key: string;
  kind: string;
  request: unknown;
  /** What recovery needs, when it is known at the start. */
  state?: unknown;
}

/** Starts these operations; the ids started (a key already used is left to its operation). */
export async function startOperations(
  tx: Transaction,
  lease: { token: string; until: Date; now: Date },
  starts: readonly OperationStart[],
  options: { skipUsedKeys: boolean },
): Promise<Set<string>> {
  if (starts.length === 0) return new Set();
  const insert = tx.insert(operations).values(
    starts.map((s) => ({
      id: s.id,
      scope: s.scope,
      idempotencyKey: s.key,
      kind: s.kind,
      requestHash: jsonSha256(s.request),
      status: 'running' as const,
      leaseToken: lease.token,
      leaseUntil: lease.until,
      createdAt: lease.now,
      stateJson: s.state === undefined ? null : JSON.stringify(s.state),
    })),
  );
  const made = await (options.skipUsedKeys ? insert.onConflictDoNothing() : insert).returning({
    id: operations.id,
  });
  return new Set(made.map((row) => row.id));
}

/** Takes back operations started in this transaction whose claim found nothing to claim. */
export async function dropStartedOperations(tx: Transaction, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await tx.delete(operations).where(inArray(operations.id, [...ids]));
}

/** Keeps what recovery needs with each operation (its claim), once the claims are made. */
export async function keepOperationStates(
  tx: Transaction,
  states: readonly { id: string; state: unknown }[],
): Promise<void> {
  if (states.length === 0) return;
  const rows = sql.join(
    states.map((s) => sql`(${s.id}::uuid, ${JSON.stringify(s.state)})`),
    sql`, `,
  );
  await tx.execute(sql`
    update ${operations} set state_json = v.state
    from (values ${rows}) as v(id, state)
    where ${operations.id} = v.id`);
}

/**
 * Marks these operations succeeded with their answers (null: answered later with
 * `keepOperationAnswers`), those the token still holds; the ids it held.
 */
export async function succeedOperations(
  tx: Transaction,
  token: string,
  done: readonly { id: string; response: unknown }[],
  now: Date,
): Promise<Set<string>> {
  if (done.length === 0) return new Set();
  const rows = sql.join(
    done.map((d) => sql`(${d.id}::uuid, ${d.response === null ? null : JSON.stringify(d.response)}::text)`),
    sql`, `,
  );
  const held = await returnedRows<{ id: string }>(
    tx,
    sql`
      update ${operations}
      set status = 'succeeded', completed_at = ${now.toISOString()}::timestamptz, response_json = v.response
      from (values ${rows}) as v(id, response)
      where ${operations.id} = v.id and ${operations.status} = 'running' and ${operations.leaseToken} = ${token}
      returning ${operations.id}::text as id`,
  );
  return new Set(held.map((r) => r.id));
}

/** The answers of operations just succeeded in this transaction. */
export async function keepOperationAnswers(
  tx: Transaction,
  answers: readonly { id: string; response: unknown }[],
): Promise<void> {
  if (answers.length === 0) return;
  const rows = sql.join(
    answers.map((a) => sql`(${a.id}::uuid, ${JSON.stringify(a.response)})`),
    sql`, `,
  );
  await tx.execute(sql`
    update ${operations} set response_json = v.response
    from (values ${rows}) as v(id, response)
    where ${operations.id} = v.id`);
}

/** Fails an operation the token still holds, keeping its error to replay; false when not held. */
export async function failOperation(
  tx: Transaction,
  id: string,
  token: string,
  error: HttpError,
  now: Date,
): Promise<boolean> {
  const [held] = await tx
    .update(operations)
    .set({ status: 'failed', errorJson: storedError(error), completedAt: now })
    .where(and(eq(operations.id, id), eq(operations.status, 'running'), eq(operations.leaseToken, token)))
    .returning({ id: operations.id });
  return held !== undefined;
}

/** Renews the batch's leases while it works, as `runOnce` renews one; returns the stop. */
export function holdOperations(deps: RunOnceDeps, ids: readonly string[], token: string): () => void {
  const renewal = setInterval(
    () => {
      deps.db
        .update(operations)
        .set({ leaseUntil: new Date(deps.clock.now().getTime() + deps.leaseMs) })
        .where(
          and(
            inArray(operations.id, [...ids]),
            eq(operations.status, 'running'),
            eq(operations.leaseToken, token),
          ),
        )
        .catch(() => {});
    },
    Math.max(50, Math.floor(deps.leaseMs / 3)),
  );
  renewal.unref?.();
  return () => clearInterval(renewal);
}

/** Ends these leases now, so that the reconciliation sweep settles the operations at once. */
export async function handOverOperations(deps: RunOnceDeps, ids: readonly string[], token: string) {
  if (ids.length === 0) return;
  await deps.db
    .update(operations)
    .set({ leaseUntil: new Date(deps.clock.now().getTime() - 1) })
    .where(and(inArray(operations.id, [...ids]), eq(operations.leaseToken, token)))
    .catch(() => {});
}
