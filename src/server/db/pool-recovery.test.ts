import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLost } from '../lib/failures';
import {
  createTestDatabase,
  type TestDatabase,
  testDatabaseKind,
  testOwnerUrl,
} from '../testing/test-database';

/**
 * The pool after its connections are cut: every client a request or a transaction checked out
 * comes back (or is discarded), so the pool serves again and closes promptly. A client kept
 * checked out for good would, after a database restart under load, leave the pool empty: every
 * request waiting for a connection that never comes, and `pool.end()` waiting with them.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

// Only PostgreSQL has connections to lose; PGlite runs inside the process.
describe.skipIf(testDatabaseKind() !== 'postgres')(
  'the pool after its connections are terminated (PostgreSQL only: needs TEST_DATABASE_URL)',
  () => {
    let handle: TestDatabase;
    let pool: pg.Pool;
    let admin: pg.Client;
    let databaseName: string;
    let closing: Promise<void> | undefined;

    beforeAll(async () => {
      handle = await createTestDatabase();
      pool = handle.pool as pg.Pool;
      const result = await pool.query<{ name: string }>('select current_database() as name');
      databaseName = result.rows[0]?.name as string;
      admin = new pg.Client({ connectionString: testOwnerUrl() });
      await admin.connect();
    });
    afterAll(async () => {
      try {
        // A client kept checked out keeps `pool.end()` waiting for ever: fail in moments instead.
        if (handle) {
          closing ??= handle.close();
          await within(10_000, closing, 'closing the pool');
        }
      } catch (error) {
        await admin.query(`drop database if exists ${databaseName} with (force)`);
        throw error;
      } finally {
        await admin?.end();
      }
    });

    const backendsOf = async () =>
      (
        await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
          databaseName,
        ])
      ).rows.map((row) => row.pid);

    const terminateAll = () =>
      admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
        databaseName,
      ]);

    /**
     * A query after the cut succeeds. An idle client whose backend was cut a moment ago may not
     * have heard of it yet (on a loaded machine): its query fails as a lost connection and the pool
     * discards it, so the query is tried again on the next; any other failure fails the test.
     */
    async function servesAgain() {
      for (;;) {
        try {
          return await handle.db.execute(sql`select 1 as one`);
        } catch (error) {
          if (!isConnectionLost(error)) throw error;
        }
      }
    }

    async function settled() {
      // The pool hears of the cut idle connections a moment later.
      for (let i = 0; i < 100 && pool.totalCount !== pool.idleCount; i++) await sleep(20);
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    }

    it('rolls back a transaction that fails for another reason and keeps its connection', async () => {
      // The owner makes the table (the app's role has no DDL) and lets the app's role use it.
      await handle.owner.db.execute(sql`create table pool_recovery_probe (n int)`);
      await handle.owner.db.execute(sql`grant select, insert on pool_recovery_probe to public`);
      const [before] = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
      const failure = await handle.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into pool_recovery_probe values (1)`);
          throw new Error('not this time');
        })
        .catch((error: unknown) => error);
      expect((failure as Error).message).toBe('not this time');
      const { rows } = await pool.query('select * from pool_recovery_probe');
      expect(rows).toEqual([]);
      const [after] = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
      expect({ total: pool.totalCount, pid: after?.pid }).toEqual({ total: 1, pid: before?.pid });
    });

    it('gives back the client of a transaction whose BEGIN meets a connection cut the pool has not noticed yet', async () => {
      // Empty the pool, then hold its one client with its socket paused: the backend is
      // terminated, but the client cannot hear of it until the socket reads again. That is the
      // moment a request can check out an idle client whose backend is already gone.
      await terminateAll();
      for (let i = 0; i < 100 && pool.totalCount > 0; i++) await sleep(20);
      expect(pool.totalCount).toBe(0);
      const client = await pool.connect();
      const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
      const socket = (client as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection
        .stream;
      socket.pause();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      for (let i = 0; i < 100 && (await backendsOf()).includes(pid as number); i++) await sleep(20);
      expect(await backendsOf()).not.toContain(pid);
      client.release();

      // The transaction takes that client and sends its BEGIN; then the socket reads again, and
      // the BEGIN fails on the dead connection.
      const transaction = handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
      });
      await new Promise((resolve) => setImmediate(resolve));
      socket.resume();
      const failure = await transaction.then(
        () => null,
        (error: unknown) => error,
      );
      expect(isConnectionLost(failure), String(failure)).toBe(true);
      expect(await settled()).toEqual({ total: 0, idle: 0, waiting: 0 });
      await expect(handle.db.execute(sql`select 1 as one`)).resolves.toBeDefined();
    });

    it('has every client back after transactions and queries lose their connections under load', async () => {
      const outcomes = new Map<string, number>();
      for (let round = 0; round < 20; round++) {
        const work: Array<Promise<unknown>> = [];
        for (let i = 0; i < 12; i++) {
          work.push(
            i % 3 === 0
              ? handle.db.execute(sql`select pg_sleep(0.01)`)
              : handle.db.transaction(async (tx) => {
                  await tx.execute(sql`select 1`);
                  await tx.execute(sql`select pg_sleep(0.005)`);
                  await tx.execute(sql`select count(*) from clients`);
                }),
          );
        }
        // Each outcome is read as soon as it comes (a rejection left unread would be reported).
        const outcomesOfRound = work.map((done) =>
          done.then(
            () => 'ok',
            (error: unknown) => (isConnectionLost(error) ? 'lost' : error),
          ),
        );
        await sleep((round * 7) % 20);
        await terminateAll();
        for (const outcome of await Promise.all(outcomesOfRound)) {
          if (outcome !== 'ok' && outcome !== 'lost') throw outcome;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
        // Every client checked out is back (idle) or gone; nobody waits; the pool serves again.
        const state = await settled();
        expect(state.waiting, JSON.stringify(state)).toBe(0);
        expect(state.idle, JSON.stringify(state)).toBe(state.total);
        await expect(within(5_000, servesAgain(), 'a query after the cut')).resolves.toBeDefined();
      }
      // The fault was really injected.
      expect(outcomes.get('lost') ?? 0, JSON.stringify([...outcomes])).toBeGreaterThan(0);
    });

    it('closes promptly afterwards: no client is left checked out for `pool.end()` to wait for', async () => {
      closing = handle.close();
      await within(10_000, closing, 'closing the pool');
    });
  },
);
