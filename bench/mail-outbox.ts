/**
 * npm run bench (and alone: tsx bench/mail-outbox.ts): the mail outbox against a real SMTP server
 * on loopback, on a scratch PostgreSQL database.
 *
 * 1. A burst: BENCH_MAIL_BURST e-mails (default 400) pending, one kick; e-mails sent per second.
 * 2. Steady load: BENCH_MAIL_ORDERS_PER_MINUTE orders a minute (default 200) for BENCH_MAIL_SECONDS
 *    (default 30), each writing two e-mails (the receipt and the bank's notice) and kicking the
 *    outbox, as the order workflow does. Prints the most pending at once, the longest wait from
 *    written to sent, and whether the backlog is empty a few seconds after the load ends.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; a scratch database is made and dropped).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createMailer, smtpTransport } from '../src/server/adapters/mailer';
import { openPostgres } from '../src/server/db/client';
import { systemClock } from '../src/server/lib/clock';
import { startLoopbackSmtp } from '../src/server/testing/loopback-smtp';

const burst = Number(process.env.BENCH_MAIL_BURST ?? 400);
const ordersPerMinute = Number(process.env.BENCH_MAIL_ORDERS_PER_MINUTE ?? 200);
const seconds = Number(process.env.BENCH_MAIL_SECONDS ?? 30);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = `portal_bench_mail_${process.pid}`;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

await admin(`drop database if exists ${scratch}`);
await admin(`create database ${scratch}`);
const url = new URL(adminUrl);
url.pathname = `/${scratch}`;
const database = openPostgres(url.toString(), 10);
const smtp = await startLoopbackSmtp();
const log = { info() {}, warn() {} };
const mailer = createMailer({
  db: database.db,
  clock: systemClock,
  documentsKey: randomBytes(32),
  transport: smtpTransport(smtp.url, 'portal@example.com'),
  from: 'portal@example.com',
  log,
});

async function pending(): Promise<number> {
  const result = (await database.db.execute(
    sql`select count(*)::int as n from outbox_messages where status = 'pending'`,
  )) as unknown as { rows: Array<{ n: number }> };
  return Number(result.rows[0]?.n ?? 0);
}

try {
  await database.migrate();

  // 1. The burst.
  for (let i = 0; i < burst; i++) {
    await mailer.enqueue(database.db, {
      to: `client${i}@example.com`,
      subject: `Burst ${i}`,
      text: 'Receipt.',
    });
  }
  const burstStart = performance.now();
  const drained = await mailer.deliverDue();
  const burstSeconds = (performance.now() - burstStart) / 1000;
  console.log(
    `burst: ${drained.sent} of ${burst} e-mails sent after one call in ${burstSeconds.toFixed(2)} s: ` +
      `${(drained.sent / burstSeconds).toFixed(0)} e-mails/s; ${await pending()} left pending`,
  );

  // 2. Steady load.
  const orderEveryMs = 60_000 / ordersPerMinute;
  const loadStart = performance.now();
  let orders = 0;
  let mostPending = 0;
  const sampler = setInterval(() => {
    void pending().then((n) => {
      mostPending = Math.max(mostPending, n);
    });
  }, 250);
  while (performance.now() - loadStart < seconds * 1000) {
    const due = loadStart + orders * orderEveryMs;
    if (performance.now() < due) await sleep(due - performance.now());
    await database.db.transaction(async (tx) => {
      await mailer.enqueue(tx, {
        to: `order${orders}@example.com`,
        subject: `Receipt ${orders}`,
        text: 'Paid.',
      });
      await mailer.enqueue(tx, { to: 'bank@example.com', subject: `New order ${orders}`, text: 'Order.' });
    });
    mailer.kick();
    orders += 1;
  }
  await sleep(3000);
  clearInterval(sampler);
  const waits = (await database.db.execute(sql`
    select count(*) filter (where status = 'sent')::int as sent,
      count(*) filter (where status = 'pending')::int as pending,
      coalesce(max(extract(epoch from sent_at - created_at)) filter (where subject like 'Receipt %' or subject like 'New order %'), 0)::float as longest
    from outbox_messages where subject not like 'Burst %'`)) as unknown as {
    rows: Array<{ sent: number; pending: number; longest: number }>;
  };
  const steady = waits.rows[0];
  const loadSeconds = (performance.now() - loadStart) / 1000 - 3;
  console.log(
    `load: ${orders} orders in ${loadSeconds.toFixed(1)} s (${ordersPerMinute} a minute), ${orders * 2} e-mails: ` +
      `${steady?.sent} sent (${((steady?.sent ?? 0) / loadSeconds).toFixed(1)} e-mails/s), most pending at once ${mostPending}, ` +
      `longest wait ${Number(steady?.longest ?? 0).toFixed(2)} s; 3 s after the load: ${steady?.pending} pending`,
  );
  console.log(
    steady?.pending === 0 ? 'backlog empty: delivery keeps up' : 'BACKLOG NOT EMPTY: delivery falls behind',
  );
  if (steady?.pending !== 0) process.exitCode = 1;
} finally {
  await mailer.close();
  await smtp.close();
  await database.close();
  await admin(`drop database if exists ${scratch} with (force)`);
}
