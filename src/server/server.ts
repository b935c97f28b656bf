import type { AddressInfo } from 'node:net';
import { todayFor } from '../domain/client';
import { buildApp, loggerOptions } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase, openPostgres } from './db/client';
import { migrateDatabase } from './db/migrate';
import { seedDemoData, seedDemoDocuments, seedDemoStaff } from './db/seed';
import {
  seedDemoCancellationClient,
  seedDemoObjectionClient,
  seedDemoPlanStoreClient,
  seedDemoRefundApprovalClient,
  seedDemoRefundClient,
  seedDemoRenewalClients,
  seedDemoVialRequest,
} from './db/seed-back-office';
import { seedDemoNewbornAgreement } from './db/seed-newborn';
import { type Jobs, startJobs } from './jobs/jobs';
import { forgetServerAddress, recordServerAddress } from './lib/server-address';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  const database = await openDatabase(config);
  // The owner role migrates and grants; the portal then serves as the app role of DATABASE_URL.
  if (config.databaseMigrationUrl && config.databaseMigrationUrl !== config.databaseUrl) {
    const owner = openPostgres(config.databaseMigrationUrl, 1);
    try {
      await migrateDatabase(owner, database);
    } finally {
      await owner.close();
    }
  } else {
    await migrateDatabase(database);
  }
  if (config.demo) await seedDemoData(database.db, todayFor(new Date()));

  const app = await buildApp({ config, db: database.db, logger: loggerOptions(config.logLevel) });
  if (config.demo) {
    await seedDemoStaff(database.db, app.deps.documentsKey);
    await seedDemoDocuments(database.db, app.deps.documentsKey, new Date());
    await seedDemoVialRequest(database.db, new Date());
    await seedDemoNewbornAgreement(database.db, new Date());
    await seedDemoPlanStoreClient(database.db, new Date());
    await seedDemoRenewalClients(database.db, new Date());
    await seedDemoCancellationClient(database.db, new Date());
    await seedDemoRefundClient(database.db, new Date());
    await seedDemoRefundApprovalClient(database.db, new Date());
    await seedDemoObjectionClient(database.db, new Date());
  }
  app.log.info(
    { database: database.kind, demo: config.demo, mail: config.smtpUrl ? 'smtp' : 'outbox' },
    'starting the Client Portal',
  );
  for (const warning of config.warnings) app.log.warn(warning);

  let jobs: Jobs | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    try {
      forgetServerAddress(config.dataDir, process.pid);
      await jobs?.stop();
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // Without PUBLIC_URL the address is this machine's, on the port listened to (PORT=0 lets the
  // system choose it).
  const { port } = app.server.address() as AddressInfo;
  const publicUrl =
    config.publicUrl === `http://localhost:${config.port}` ? `http://localhost:${port}` : config.publicUrl;
  // The link scripts read it from DATA_DIR, beside the key they sign with.
  const unrecorded = recordServerAddress(config.dataDir, {
    publicUrl,
    pid: process.pid,
    linkKey: config.linkSecret ? 'LINK_SECRET' : 'DATA_DIR',
  });
  if (unrecorded) app.log.warn({ error: unrecorded }, 'could not record the address for the link scripts');
  jobs = await startJobs(app.deps, database, app.log);
  if (config.demo) {
    app.log.info(`demo mode: sign in at ${publicUrl} as ACT10001 / DemoClient#2026`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
