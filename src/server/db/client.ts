import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg, NodePgSession } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { isConnectionLost } from '../lib/failures';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of the database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** What a query runs on: the database, or a transaction of it. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies the committed migrations in drizzle/. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** The raw pool (PostgreSQL only), for benchmarks that compare with a bare query. */
  pool?: pg.Pool;
  /** Plain SQL for the job queue (pg-boss): several statements at once when there are no values. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number }>;
}

export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../drizzle',
);

// One fixed advisory-lock key so that two processes starting together migrate (and grant the app
// role its rights: ./migrate.ts) one after the other.
export const MIGRATION_LOCK_KEY = 7_310_001;

export function openPostgres(url: string, poolSize = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // A dropped connection must not take the process down. Idle ones report to the pool, which
  // replaces them; one checked out by a request (inside a transaction, between two queries) reports
  // to itself: its query fails (a 503 for that request) and the pool discards it when released.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = drizzleNodePg(pool, { schema, casing: 'snake_case' }) as unknown as Database;
  releaseEveryTransactionClient(db, pool);
  return {
    db,
    kind: 'postgres',
    pool,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migrateNodePg(drizzleNodePg(client, { casing: 'snake_case' }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
    close: () => pool.end(),
    async executeSql(text, values) {
      const result = await pool.query(text, values as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
  };
}

/**
 * drizzle-orm's node-postgres transaction (0.45.x) checks a client out of the pool and sends BEGIN
 * before the try/finally that gives it back (drizzle-team/drizzle-orm#6241): a BEGIN that fails
 * leaves the client checked out for good. It fails so when the connection was cut (a database
 * restart, pg_terminate_backend) just before the pool heard of it; a few of those and the pool is
 * empty: every request waits for a connection, and `pool.end()` never returns.
 *
 * So the pool's transactions check their client out here and always give it back, discarded when
 * its connection is lost; on that one client, drizzle's own transaction runs BEGIN, COMMIT or
 * ROLLBACK and releases nothing. Nested transactions (savepoints) are drizzle's, unchanged.
 */
function releaseEveryTransactionClient(db: Database, pool: pg.Pool): void {
  type Session = NodePgSession<typeof schema, never>;
  const session = db._.session as unknown as Session;
  // What the pool's session was made with (internal in drizzle's types), for one on a client.
  type Made = ConstructorParameters<typeof NodePgSession>;
  const {
    dialect,
    schema: relational,
    options,
  } = session as unknown as {
    dialect: Made[1];
    schema: Made[2];
    options: Made[3];
  };
  session.transaction = async (transaction, config) => {
    const client = await pool.connect();
    let lost: Error | undefined;
    try {
      const onClient = new NodePgSession(client, dialect, relational, options) as unknown as Session;
      return await onClient.transaction(transaction, config);
    } catch (error) {
      if (isConnectionLost(error)) lost = error as Error;
      throw error;
    } finally {
      client.release(lost);
    }
  };
}

export function wrapPglite(client: PGlite): DatabaseHandle {
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite(client, { casing: 'snake_case' }), { migrationsFolder });
    },
    close: () => client.close(),
    async executeSql(text, values) {
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        const last = results.at(-1);
        return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
      }
      const result = await client.query(text, values);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/** PGlite keeps its files in DATA_DIR/pglite; one process only. */
export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const dir = path.join(dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create({ dataDir: dir, relaxedDurability: true });
  return wrapPglite(client);
}

export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize?: number;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize);
  return openPglite(options.dataDir);
}

export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** The rows a plain statement returned (node-postgres and PGlite both answer with `rows`). */
export async function returnedRows<R>(executor: Executor, statement: SQL): Promise<R[]> {
  const result: unknown = await executor.execute(statement);
  const rows = typeof result === 'object' && result !== null && 'rows' in result ? result.rows : null;
  if (!Array.isArray(rows)) throw new Error('the statement returned no rows');
  return rows as R[];
}
