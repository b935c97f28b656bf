/**
 * The portal server as `npm run bench` measures it, in its own process: the real app on a fresh
 * database, plus one bare route doing a single primary-key select through the same pool, as the
 * yardstick for what the database round trip alone costs, and one telling the process's CPU time so
 * far. With BENCH_WEB it also serves the built web app (bench/web.ts).
 *
 * On PostgreSQL, as in production (README, "Database roles"): BENCH_DB_MIGRATION_URL is the owner
 * that migrates and grants, BENCH_DB_URL the restricted role the app serves as (one role when the
 * first is not given).
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { todayFor } from '../src/domain/client';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openPglite, openPostgres } from '../src/server/db/client';
import { migrateDatabase } from '../src/server/db/migrate';
import { seedDemoData, seedDemoStaff } from '../src/server/db/seed';

const kind = process.env.BENCH_KIND === 'pglite' ? 'pglite' : 'postgres';
const dataDir = process.env.BENCH_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
fs.mkdirSync(dataDir, { recursive: true });
const database =
  kind === 'postgres' ? openPostgres(process.env.BENCH_DB_URL as string, 10) : await openPglite(dataDir);
const ownerUrl = process.env.BENCH_DB_MIGRATION_URL;
if (kind === 'postgres' && ownerUrl && ownerUrl !== process.env.BENCH_DB_URL) {
  const owner = openPostgres(ownerUrl, 1);
  try {
    await migrateDatabase(owner, database);
  } finally {
    await owner.close();
  }
} else {
  await migrateDatabase(database);
}
await seedDemoData(database.db, todayFor(new Date()));

const config = loadConfig({
  DATA_DIR: dataDir,
  DEMO: 'true',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_LOGIN_PER_IP: '100000',
});
// The web part of the bench serves the built web app; the API part measures the API alone.
const webRoot = process.env.BENCH_WEB ? undefined : null;
const app = await buildApp({ config, db: database.db, webRoot, logger: false });
// The demo admin, as the server adds it at start in demo mode (bench/web.ts signs in as them).
await seedDemoStaff(database.db, app.deps.documentsKey);

const [{ id } = { id: '' }] = (
  (await database.db.execute(sql`select id from clients where client_act_id = 'ACT10001'`)) as unknown as {
    rows: Array<{ id: string }>;
  }
).rows;

app.get('/bench/pk', async () => {
  if (database.pool) {
    const result = await database.pool.query('select id, first_name, last_name from clients where id = $1', [
      id,
    ]);
    return result.rows[0];
  }
  const result = (await database.db.execute(
    sql`select id, first_name, last_name from clients where id = ${id}`,
  )) as unknown as { rows: unknown[] };
  return result.rows[0];
});

// The server's CPU time so far (user and system, microseconds): the bench divides it by the answers.
app.get('/bench/cpu', async () => {
  const { user, system } = process.cpuUsage();
  return { micros: user + system };
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ ready: true, port })}\n`);

const stop = async () => {
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
