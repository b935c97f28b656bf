/**
 * npm run bench (and alone: tsx bench/billing-run.ts): the billing run on PostgreSQL with the
 * sandbox gateway (issue 21).
 *
 * 1. Throughput: BENCH_BILLING_CLIENTS (default 10,000) banked clients with a card on file, all due
 *    on the same day, on a scratch database with the demo data. The run as the daily job calls it
 *    (runBilling, in this process): first up to the day before (the notices), then the due day (the
 *    renewals). Prints notices and renewals charged per second; the target is at least 200
 *    renewals a second. It prints figures and never fails on them.
 * 2. The billing simulation of the fault suite (src/server/faults/billing-simulation.ts) with
 *    BENCH_BILLING_SIM_CLIENTS clients (default 1,000; 0 skips it): three years, two server
 *    processes, one SIGKILLed mid-run; prints its time and checks, and fails when a check does.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; scratch databases are
 * made and dropped).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { todayFor } from '../src/domain/client-basics';
import { addDays, addYears } from '../src/domain/dates';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openPostgres } from '../src/server/db/client';
import { migrateDatabase } from '../src/server/db/migrate';
import { seedDemoData } from '../src/server/db/seed';
import { runBillingSimulation } from '../src/server/faults/billing-simulation';
import { Admin, databaseUrl } from '../src/server/faults/fault-database';
import { freePort, startServer, waitUntilHealthy } from '../src/server/faults/server-process';
import { renewalDeps } from '../src/server/modules/payments/billing-routes';
import { runBilling } from '../src/server/modules/payments/billing-run';

const dueClients = Number(process.env.BENCH_BILLING_CLIENTS ?? 10_000);
const simulatedClients = Number(process.env.BENCH_BILLING_SIM_CLIENTS ?? 1_000);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_RENEWALS_PER_SECOND = 200;
const prefix = `portal_bench_billing_${process.pid}`;
const admin = new Admin(adminUrl);

async function throughput() {
  const name = `${prefix}_run`;
  const url = await admin.create(name);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-billing-'));
  const database = openPostgres(url, 10);
  try {
    await migrateDatabase(database);
    const today = todayFor(new Date());
    await seedDemoData(database.db, today);
    const app = await buildApp({
      config: loadConfig({
        DATA_DIR: dataDir,
        DEMO: 'true',
        LOG_LEVEL: 'silent',
        PAYMENT_GATEWAY: 'sandbox',
      }),
      db: database.db,
      webRoot: null,
      logger: false,
    });
    const due = addDays(today, 40);
    const prepared = Date.now();
    await database.db.execute(sql`
      with made as (
        insert into clients (client_act_id, password_hash, first_name, last_name, date_of_birth, email, country,
            date_banked_in, annual_storage_paid_until, initial_processing_form_completed,
            client_consent_form_completed, infectious_disease_form_completed)
        select 'BEN' || lpad(n::text, 6, '0'), 'x', 'Bench', 'Client ' || n, date '1980-01-01',
            'ben' || lpad(n::text, 6, '0') || '@example.com', 'United States', ${addYears(due, -1)}::date,
            ${due}::date, true, true, true
        from generate_series(1, ${dueClients}::int) as n
        returning id, client_act_id),
      gateway as (
        insert into sandbox_payment_methods (payment_ref, customer_ref, kind, brand, last4, expiry_month,
            expiry_year, behavior, created_at)
        select 'pm-' || client_act_id, 'cust-' || client_act_id, 'card', 'Visa', '4242', 12, 2040, 'approve', now()
        from made)
      insert into payment_methods (client_id, kind, brand, last4, expiry_month, expiry_year, gateway,
          gateway_customer_ref, gateway_payment_ref)
      select id, 'card', 'Visa', '4242', 12, 2040, 'sandbox', 'cust-' || client_act_id, 'pm-' || client_act_id
      from made`);
    // The run starts on the notice day (the hourly job's cursor, as if it had run until then).
    await database.db.execute(sql`
      insert into billing_runs (scope, last_day, updated_at) values ('all', ${addDays(due, -31)}::date, now())
      on conflict (scope) do update set last_day = excluded.last_day`);
    console.log(
      `\nBilling run: ${dueClients} clients due on ${due}, each with a card on file (prepared in ${((Date.now() - prepared) / 1000).toFixed(1)} s)`,
    );
    const deps = renewalDeps(app.deps);
    const noticeStart = performance.now();
    const notices = await runBilling(deps, { asOf: addDays(due, -1) });
    const noticeSeconds = (performance.now() - noticeStart) / 1000;
    console.log(
      `  notices: ${notices.notices} in ${noticeSeconds.toFixed(1)} s (${notices.days} days run): ${(notices.notices / noticeSeconds).toFixed(0)} a second`,
    );
    const chargeStart = performance.now();
    const cpuBefore = process.cpuUsage();
    const renewals = await runBilling(deps, { asOf: due });
    const chargeSeconds = (performance.now() - chargeStart) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const perSecond = renewals.charges / chargeSeconds;
    console.log(
      `  renewals: ${renewals.charges} charged (${renewals.declines} declined) in ${chargeSeconds.toFixed(1)} s: ${perSecond.toFixed(0)} a second` +
        `   (target >= ${TARGET_RENEWALS_PER_SECOND}: ${perSecond >= TARGET_RENEWALS_PER_SECOND ? 'met' : 'NOT met'})`,
    );
    // On a shared machine the rate follows its load; the CPU time per renewal does not.
    console.log(
      `  the portal's CPU time: ${((cpu.user + cpu.system) / 1000 / Math.max(1, renewals.charges)).toFixed(1)} ms per renewal (the database's not counted)`,
    );
    await app.close();
  } finally {
    await database.close();
    await admin.drop(name);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function simulation(): Promise<boolean> {
  const template = `${prefix}_template`;
  const templateUrl = await admin.create(template);
  const documentsKey = randomBytes(32).toString('base64');
  const linkSecret = randomBytes(32).toString('hex');
  const first = await freePort();
  const second = await freePort([first]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-billing-'));
  // The template is migrated and seeded by a real server process, as the fault suite's is.
  const seeder = startServer({
    port: first,
    databaseUrl: databaseUrl(adminUrl, template),
    migrationUrl: templateUrl,
    dataDir,
    documentsKey,
    linkSecret,
  });
  try {
    await waitUntilHealthy(seeder);
  } finally {
    await seeder.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const seed = Date.now() % 1_000_000;
  console.log(
    `\nBilling simulation: ${simulatedClients} clients, three years, two processes, one SIGKILLed (seed ${seed})`,
  );
  const began = Date.now();
  const { checks, figures } = await runBillingSimulation({
    admin,
    template,
    name: `${prefix}_sim`,
    ports: [first, second],
    documentsKey,
    linkSecret,
    seed,
    clients: simulatedClients,
    say: (line) => console.log(line),
  });
  for (const c of checks) {
    console.log(`  ${c.ok ? 'PASS' : 'FAIL'} ${c.name}`);
    if (!c.ok) for (const line of c.details.slice(0, 8)) console.log(`         ${line}`);
  }
  console.log(
    `  ${((Date.now() - began) / 1000).toFixed(0)} s in all; stepping ${figures.steppingSeconds?.toFixed(1)} s for ${figures.steps} steps, ${figures.charges} renewals charged, ${figures.paidByCheck} years paid by check, ${figures.installmentCharges} newborn installments charged`,
  );
  return checks.every((c) => c.ok);
}

try {
  if (dueClients > 0) await throughput();
  if (simulatedClients > 0 && !(await simulation())) process.exitCode = 1;
} finally {
  await admin.dropAll();
}
