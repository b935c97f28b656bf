import PgBoss from 'pg-boss';
import { todayFor } from '../../domain/client-basics';
import type { AppDeps } from '../app-deps';
import type { DatabaseHandle } from '../db/client';
import { runInstallmentsDay } from '../modules/newborn-agreement/newborn-installments';
import { renewalDeps } from '../modules/payments/billing-routes';
import { runBilling } from '../modules/payments/billing-run';
import { cleanUp, reconcile } from './reconcile';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface Jobs {
  stop(): Promise<void>;
}

const QUEUES = {
  reconcile: 'reconcile-operations',
  mail: 'deliver-mail',
  cleanUp: 'clean-up',
  billing: 'storage-billing',
} as const;

/** The queue pg-boss 10's timekeeper sends scheduled jobs through (its timekeeper.js). */
const PG_BOSS_CRON_QUEUE = '__pgboss__send-it';

/**
 * Creates or migrates pg-boss's own schema and the portal's queues: run by the owner role with the
 * portal's migrations (src/server/db/migrate.ts), so that the app role that runs the jobs needs no
 * DDL (pg-boss makes one table per queue).
 */
export async function installJobQueue(owner: DatabaseHandle): Promise<void> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => owner.executeSql(text, values) },
    schema: 'pgboss',
    supervise: false,
    schedule: false,
    migrate: true,
  });
  boss.on('error', () => {});
  await boss.start();
  try {
    // pg-boss's cron sends through a queue of its own, which it would otherwise make at the first
    // start with a schedule (and, as a role without DDL, fail silently: no cron job would run).
    for (const queue of [...Object.values(QUEUES), PG_BOSS_CRON_QUEUE]) await boss.createQueue(queue);
  } finally {
    await boss.stop({ graceful: false, wait: true, close: false });
  }
}

/**
 * Background work on the database, through pg-boss (a maintained PostgreSQL job queue), in every
 * server process: its cron schedules each job once a minute across all processes, and whichever
 * process is free runs it. The jobs themselves are safe to run in several processes at once.
 *
 * - reconciliation of interrupted payments and signings (also once at start);
 * - delivery of the mail outbox, with retries and backoff (mail is also delivered right after
 *   each commit; this job sends what a crash or an SMTP failure left behind);
 * - clean-up of orphaned documents and expired rows, hourly;
 * - storage billing for today (notices, renewals, retries) and the newborn installments
 *   (charges, reminders, late charges), hourly: each day runs once.
 *
 * On PGlite (one process) pg-boss runs on the same embedded database through its plain-SQL
 * adapter; the schedules and retries behave the same.
 */
export async function startJobs(deps: AppDeps, database: DatabaseHandle, log: Log): Promise<Jobs> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    schema: 'pgboss',
    supervise: true,
    schedule: true,
    // The owner role installed the schema and the queues (installJobQueue): no DDL here.
    migrate: false,
  });
  boss.on('error', (error: Error) => log.warn({ jobs: { error: error.name } }, 'job queue error'));
  await boss.start();

  const guarded = (name: string, task: () => Promise<unknown>) => async () => {
    try {
      await task();
    } catch (error) {
      log.warn({ job: name, error: error instanceof Error ? error.name : 'Error' }, 'job failed');
      throw error;
    }
  };
  const sweep = guarded(QUEUES.reconcile, () => reconcile(deps, log));
  const deliver = guarded(QUEUES.mail, () => deps.mailer.deliverDue());
  const clean = guarded(QUEUES.cleanUp, () => cleanUp(deps));
  // Billing for today (and any day a stopped server missed): the cursor makes each day run once.
  const bill = guarded(QUEUES.billing, () => {
    const billing = { ...renewalDeps(deps), log };
    return runBilling(billing, {
      asOf: todayFor(deps.clock.now()),
      installmentsDay: (day, scope) => runInstallmentsDay(billing, day, scope),
    });
  });

  await boss.work(QUEUES.reconcile, { pollingIntervalSeconds: 2 }, sweep);
  await boss.work(QUEUES.mail, { pollingIntervalSeconds: 2 }, deliver);
  await boss.work(QUEUES.cleanUp, { pollingIntervalSeconds: 10 }, clean);
  await boss.work(QUEUES.billing, { pollingIntervalSeconds: 10 }, bill);
  await boss.schedule(QUEUES.reconcile, '* * * * *');
  await boss.schedule(QUEUES.mail, '* * * * *');
  await boss.schedule(QUEUES.cleanUp, '17 * * * *');
  await boss.schedule(QUEUES.billing, '7 * * * *');
  // Whatever a previous process left: settle it now rather than at the next minute.
  await boss.send(QUEUES.reconcile, {});
  await boss.send(QUEUES.mail, {});

  // A shorter interval than the cron's minute (tests, the fault suite): this process sweeps too.
  const timer =
    deps.config.reconcileIntervalMs < 60_000
      ? setInterval(() => {
          void sweep().catch(() => {});
        }, deps.config.reconcileIntervalMs)
      : null;
  timer?.unref();

  return {
    async stop() {
      if (timer) clearInterval(timer);
      await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
    },
  };
}
