/**
 * The billing simulation (issue 21): about 200 clients (the bench: 1,000 or more) billed through
 * three years of storage renewals and newborn installments by two real server processes on one
 * PostgreSQL database, one of them killed with SIGKILL in the middle of a run and started again.
 *
 * The days are stepped by "Run billing as of…" (`POST /api/staff/billing/run`, demo mode, limited
 * to the simulation's clients) in steps of 1 to 8 days, each sent to one process in turn, and every
 * fourth to both at once, so that both run the same days and meet on the same years: the run's own
 * guards (the unique notice, the claimed year, the keyed charge) must keep each year billed once.
 * During each step the clients and staff act through the API as a browser would: a declined client
 * or one who was sent an invoice saves a card (which pays what is overdue), a client told their card
 * expires replaces it, a few buy a 5-year plan between a notice and its due date; staff record the
 * checks of clients paying by check on the storage check queue (./billing-check-payers.ts); and
 * newborns' main contacts sign their finance agreements with a card, change it and pay on the
 * agreement's page (./billing-newborns.ts). The newborns sign on the real day (the installments
 * follow it), in the step that holds it, before its run.
 *
 * The run may reach at most two years ahead, so the three years start a year back: the run's
 * cursor for these clients is set to the day before, and the hourly job's own cursor (all
 * clients) follows the simulation's, never at today or before, so that no run but the simulation's
 * bills them, and the agreement's page reads what is overdue on the simulation's day.
 *
 * The checks (./billing-invariants.ts) read the tables as an auditor would.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { todayFor } from '../../domain/client-basics';
import { addDays, addYears } from '../../domain/dates';
import { billingRunScope } from '../modules/payments/billing-run';
import { checkActions, type OpenYear } from './billing-check-payers';
import {
  billingChecks,
  expiryEnd,
  overdueDrift,
  type PayerKind,
  paidUntilDrift,
  type SimulatedPayer,
} from './billing-invariants';
import { installmentDrift, newbornChecks } from './billing-newborn-invariants';
import { isNewborn, NEWBORN_KINDS, newbornActions, newbornSignings, planNewborn } from './billing-newborns';
import { type Admin, openPool, openSessions, openStaffSession, rows } from './fault-database';
import { type Check, settled } from './invariants';
import {
  type Answer,
  buyFiveYearPlan,
  explainAnswer,
  runBillingAsOf,
  type SimulatedClient,
  savePaymentMethod,
  tokenizeCard,
} from './portal-client';
import { type ServerProcess, startServer, waitUntilHealthy } from './server-process';

export interface BillingSimulationSettings {
  admin: Admin;
  /** The migrated and seeded template database the simulation's database is copied from. */
  template: string;
  /** The simulation's own database (made here, dropped at the end). */
  name: string;
  ports: [number, number];
  documentsKey: string;
  linkSecret: string;
  seed: number;
  clients: number;
  say: (line: string) => void;
}

export interface BillingSimulationResult {
  checks: Check[];
  /** What was measured: seconds of the stepping, charges, notices, steps. */
  figures: Record<string, number>;
}

/** Out of every 20 clients (after the leap-day clients, the plan buyers and the newborns). */
const MIX: PayerKind[] = [
  ...Array<PayerKind>(5).fill('card'),
  ...Array<PayerKind>(3).fill('ach'),
  ...Array<PayerKind>(3).fill('no method'),
  ...Array<PayerKind>(2).fill('check'),
  ...Array<PayerKind>(3).fill('declining card'),
  ...Array<PayerKind>(2).fill('expiring card'),
  ...Array<PayerKind>(2).fill('short ACH'),
];

const LEASE_MS = 10_000;
const SESSION_RENEWAL_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** mulberry32, as the fault suite's: a run is repeated by running it again with its seed. */
function seededRandom(start: number) {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The last 29 February before `day`. */
function lastLeapDayBefore(day: string): string {
  for (let year = Number(day.slice(0, 4)); ; year -= 1) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    if (leap && `${year}-02-29` < day) return `${year}-02-29`;
  }
}

/** The clients of the mix, their banked dates and their paid-until when the simulation starts. */
function planPayers(
  count: number,
  start: string,
  today: string,
  random: () => number,
): Omit<SimulatedPayer, 'id'>[] {
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const leapDays = Math.max(2, Math.round(count * 0.02));
  const planBuyers = Math.max(3, Math.round(count * 0.03));
  const newborns = Math.max(NEWBORN_KINDS.length, Math.round(count * 0.08));
  const leapDay = lastLeapDayBefore(start);
  return Array.from({ length: count }, (_, i) => {
    const kind: PayerKind =
      i < leapDays
        ? 'leap day'
        : i < leapDays + planBuyers
          ? 'plan buyer'
          : i < leapDays + planBuyers + newborns
            ? (NEWBORN_KINDS[(i - leapDays - planBuyers) % NEWBORN_KINDS.length] as PayerKind)
            : (MIX[i % MIX.length] as PayerKind);
    const actId = `BIL${String(i + 1).padStart(5, '0')}`;
    let bankedOn: string;
    let paidUntil: string;
    let bornOn = '1980-01-01';
    if (isNewborn(kind)) {
      // Born in the last year (a newborn finance agreement is for them only), banked days after.
      bornOn = addDays(today, -between(5, 300));
      bankedOn = addDays(bornOn, between(1, 3));
      paidUntil = addYears(bankedOn, 1);
    } else if (kind === 'leap day') {
      // Banked on 29 February: paid until the first anniversary at least a month into the run.
      bankedOn = leapDay;
      let n = 1;
      while (addYears(bankedOn, n) < addDays(start, 31)) n += 1;
      paidUntil = addYears(bankedOn, n);
    } else {
      // Banked in the year before the run: the included first year ends during its first year
      // (a few within its first days, whose notice cannot go 15 days ahead).
      bankedOn = addDays(start, i % 25 === 0 ? -364 : -between(1, 365));
      paidUntil = addYears(bankedOn, 1);
    }
    // The card of an expiring-card client runs out about two months before its third due date.
    const expiresOn = addDays(addYears(paidUntil, 2), -between(35, 90));
    return {
      actId,
      ip: `10.${90 + Math.floor(i / 62500)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`,
      kind,
      bornOn,
      bankedOn,
      paidUntil,
      // Half the declined clients and a third of those sent an invoice pay online; half those
      // told their card expires replace it.
      fixes:
        (kind === 'declining card' || kind === 'short ACH' || kind === 'expiring card') && random() < 0.5
          ? true
          : kind === 'no method' && random() < 0.34,
      cardExpiry:
        kind === 'expiring card'
          ? { month: Number(expiresOn.slice(5, 7)), year: Number(expiresOn.slice(0, 4)) }
          : null,
      fixedOn: null,
      planBoughtOn: null,
      planPaidUntil: null,
      checks: [],
      cardAddedFor: null,
      newborn: isNewborn(kind) ? planNewborn({ actId, kind }, today, between) : null,
    };
  });
}

/** The clients, each with the method the mix gives them written where the gateway and the portal keep it. */
async function addPayers(pool: pg.Pool, planned: Omit<SimulatedPayer, 'id'>[]): Promise<SimulatedPayer[]> {
  const made = await rows<{ id: string; actId: string }>(
    pool,
    `insert into clients (client_act_id, password_hash, first_name, last_name, date_of_birth, email, country,
        date_banked_in, annual_storage_paid_until, initial_processing_form_completed,
        client_consent_form_completed, infectious_disease_form_completed)
     select p.act_id, john.password_hash, 'Billing', 'Client ' || p.act_id, p.born_on::date,
        lower(p.act_id) || '@example.com', 'United States', p.banked_on::date, p.paid_until::date,
        true, true, true
     from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as p(act_id, banked_on, paid_until, born_on),
        (select password_hash from clients where client_act_id = 'ACT10002') as john
     returning id, client_act_id as "actId"`,
    [
      planned.map((p) => p.actId),
      planned.map((p) => p.bankedOn),
      planned.map((p) => p.paidUntil),
      planned.map((p) => p.bornOn),
    ],
  );
  if (made.length !== planned.length) throw new Error(`made ${made.length} of ${planned.length} clients`);
  const ids = new Map(made.map((m) => [m.actId, m.id]));
  const payers = planned.map((p) => ({ ...p, id: ids.get(p.actId) as string }));
  interface MethodOnFile {
    p: SimulatedPayer;
    kind: 'card' | 'ach';
    last4: string;
    expiry: { month: number; year: number } | null;
    behavior: string;
  }
  const methods = payers.flatMap((p): MethodOnFile[] => {
    const far = { month: 12, year: Number(p.paidUntil.slice(0, 4)) + 6 };
    switch (p.kind) {
      case 'card':
      case 'plan buyer':
      case 'leap day':
      case 'newborn':
      case 'newborn declined deposit':
      case 'newborn declining card':
        return [{ p, kind: 'card', last4: '4242', expiry: far, behavior: 'approve' }];
      case 'expiring card':
        return [{ p, kind: 'card', last4: '4444', expiry: p.cardExpiry ?? far, behavior: 'approve' }];
      case 'declining card':
        return [{ p, kind: 'card', last4: '0341', expiry: far, behavior: 'charge:generic_decline' }];
      case 'ach':
        return [{ p, kind: 'ach', last4: '6789', expiry: null, behavior: 'approve' }];
      case 'short ACH':
        return [{ p, kind: 'ach', last4: '2227', expiry: null, behavior: 'charge:ach_insufficient_funds' }];
      default:
        return [];
    }
  });
  const refs = methods.map((m) => `sim-${m.p.actId.toLowerCase()}`);
  await pool.query(
    `insert into sandbox_payment_methods (payment_ref, customer_ref, kind, brand, last4, expiry_month,
        expiry_year, behavior, created_at)
     select 'pm-' || r, 'cust-' || r, k, case when k = 'card' then 'Visa' end, l, em, ey, b, now()
     from unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[]) as m(r, k, l, em, ey, b)`,
    [
      refs,
      methods.map((m) => m.kind),
      methods.map((m) => m.last4),
      methods.map((m) => m.expiry?.month ?? null),
      methods.map((m) => m.expiry?.year ?? null),
      methods.map((m) => m.behavior),
    ],
  );
  await pool.query(
    `insert into payment_methods (client_id, kind, brand, last4, expiry_month, expiry_year,
        holder_first_name, holder_last_name, name_on_account, routing_number, billing_email, gateway,
        gateway_customer_ref, gateway_payment_ref)
     select c, k, case when k = 'card' then 'Visa' end, l, em, ey, 'Billing', 'Client',
        case when k = 'ach' then 'Billing Client' end, case when k = 'ach' then '110000000' end,
        'billing@example.com', 'sandbox', 'cust-' || r, 'pm-' || r
     from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[])
       as m(c, r, k, l, em, ey)`,
    [
      methods.map((m) => m.p.id),
      refs,
      methods.map((m) => m.kind),
      methods.map((m) => m.last4),
      methods.map((m) => m.expiry?.month ?? null),
      methods.map((m) => m.expiry?.year ?? null),
    ],
  );
  return payers;
}

/**
 * The billing day of the application (the agreement's page reads what is overdue on it): where the
 * simulation's run reached, and never today or earlier, so that the hourly job (billing all clients
 * up to today from the day after it) finds nothing to do, even past midnight.
 */
async function moveBillingDay(pool: pg.Pool, reached: string, today: string) {
  const day = reached > addDays(today, 1) ? reached : addDays(today, 1);
  await pool.query(
    `insert into billing_runs (scope, last_day, updated_at) values ('all', $1::date, now())
     on conflict (scope) do update set last_day = excluded.last_day`,
    [day],
  );
}

/** Waits until no run-once operation runs and no payment is in progress (what a kill left is settled). */
async function waitSettled(pool: pg.Pool, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await rows<{ what: string }>(
      pool,
      `select kind || ' ' || idempotency_key as what from operations where status = 'running'
       union all
       select 'payment ' || idempotency_key from payments where status = 'in_progress'`,
    );
    if (left.length === 0 || Date.now() >= deadline) return left.map((r) => r.what);
    await sleep(250);
  }
}

/** The clients' open years as they stand before a step. */
function openYears(pool: pg.Pool, payers: SimulatedPayer[]): Promise<OpenYear[]> {
  return rows<OpenYear>(
    pool,
    `select id, client_id, year_number, status, tries, charge_on::text, due_date::text from annual_storage_fees
     where client_id = any($1::uuid[]) and status in ('noticed', 'retrying', 'overdue')`,
    [payers.map((p) => p.id)],
  );
}

/**
 * What the clients do during one step, from the years as they stand before it: only from today
 * on, since the portal pays what is owed as of the real day (a year past due before today).
 */
function clientActions(
  baseUrl: string,
  payers: SimulatedPayer[],
  open: OpenYear[],
  day: string,
  asOf: string,
  tag: string,
): Promise<{ payer: SimulatedPayer; what: string; answer: Answer }>[] {
  const byClient = new Map<string, OpenYear[]>();
  for (const year of open) byClient.set(year.client_id, [...(byClient.get(year.client_id) ?? []), year]);
  const actions: Promise<{ payer: SimulatedPayer; what: string; answer: Answer }>[] = [];
  for (const payer of payers) {
    const years = byClient.get(payer.id) ?? [];
    if (payer.fixes && !payer.fixedOn) {
      const owes = years.some((y) => y.status === 'overdue' || (y.status === 'retrying' && y.tries >= 2));
      const expiring =
        payer.kind === 'expiring card' &&
        years.some(
          (y) => y.status === 'noticed' && payer.cardExpiry && y.charge_on > expiryEnd(payer.cardExpiry),
        );
      if (owes || expiring) {
        payer.fixedOn = day;
        actions.push(
          (async () => {
            const card = {
              number: '4111111111111111',
              expiryMonth: 12,
              expiryYear: Number(asOf.slice(0, 4)) + 6,
            };
            const token = await tokenizeCard(baseUrl, payer, card);
            const answer = await savePaymentMethod(baseUrl, payer, token, `${tag}-fix-${payer.actId}`, card);
            // A year being charged at that moment is refused as busy: the client tries again later.
            if (answer.cut || answer.status !== 200) payer.fixedOn = null;
            return {
              payer,
              what: owes ? 'saves a card, paying what is overdue' : 'replaces the expiring card',
              answer,
            };
          })(),
        );
      }
    }
    if (payer.kind === 'plan buyer' && !payer.planBoughtOn) {
      // Between the notice and the charge, clear of this step's days: the noticed year is covered.
      const noticed = years.find((y) => y.status === 'noticed' && y.charge_on > asOf && y.due_date > day);
      if (noticed) {
        payer.planBoughtOn = day;
        payer.planPaidUntil = addYears(noticed.due_date, 5);
        actions.push(
          (async () => {
            const answer = await buyFiveYearPlan(baseUrl, payer, `${tag}-plan-${payer.actId}`);
            if (answer.cut || answer.status !== 200) {
              payer.planBoughtOn = null;
              payer.planPaidUntil = null;
            }
            return { payer, what: 'buys a 5-year plan', answer };
          })(),
        );
      }
    }
  }
  return actions;
}

export async function runBillingSimulation(
  settings: BillingSimulationSettings,
): Promise<BillingSimulationResult> {
  const { admin, say } = settings;
  const random = seededRandom(settings.seed);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const checks: Check[] = [];
  const figures: Record<string, number> = {};
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-billing-'));
  const servers: ServerProcess[] = [];
  let pool: pg.Pool | undefined;
  const url = await admin.create(settings.name, settings.template);
  const start = (port: number) => {
    const server = startServer({
      port,
      databaseUrl: admin.appUrl(settings.name),
      migrationUrl: url,
      dataDir,
      documentsKey: settings.documentsKey,
      linkSecret: settings.linkSecret,
    });
    servers.push(server);
    return server;
  };
  try {
    pool = openPool(url);
    const today = todayFor(new Date());
    // Three years: from a year back to the furthest day the run may reach (two years ahead).
    const first = addDays(addYears(today, -1), 1);
    const last = addYears(today, 2);
    const setUp = Date.now();
    const payers = await addPayers(pool, planPayers(settings.clients, first, today, random));
    const actIds = payers.map((p) => p.actId);
    // A client's session signs out after 5 idle minutes, and a loaded machine may take longer than
    // that to step the three years: each client is signed in again (a new session) every 2 minutes.
    const sessions = pool;
    const signIn = async () => {
      const cookies = await openSessions(
        sessions,
        payers.map((p) => p.id),
      );
      for (const payer of payers) payer.cookie = cookies.get(payer.id);
      return Date.now();
    };
    let signedInAt = await signIn();
    const staffSession = await openStaffSession(pool);
    const staff: SimulatedClient = {
      id: staffSession.staffId,
      actId: 'staff@example.com',
      ip: '10.89.0.1',
      cookie: staffSession.cookie,
    };
    await pool.query(
      `insert into billing_runs (scope, last_day, updated_at) values ($1, $2::date, now())
       on conflict (scope) do update set last_day = excluded.last_day`,
      [billingRunScope(actIds), addDays(first, -1)],
    );
    await moveBillingDay(pool, addDays(first, -1), today);
    const counts = new Map<string, number>();
    for (const p of payers) counts.set(p.kind, (counts.get(p.kind) ?? 0) + 1);
    say(
      `  ${payers.length} clients (${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')}), billed ${first} to ${last}`,
    );
    const a = start(settings.ports[0]);
    let b = start(settings.ports[1]);
    await Promise.all([waitUntilHealthy(a), waitUntilHealthy(b)]);
    say(`  two servers up ${Date.now() - setUp} ms after the setup began`);

    const killDay = addDays(first, between(330, 760));
    const runProblems: string[] = [];
    const drift: string[] = [];
    const overdueEarlyOrLate: string[] = [];
    const installmentProblems: string[] = [];
    const actionLines = new Map<string, number>();
    let killed = false;
    let steps = 0;
    let checkNumbers = 100_000 + settings.seed * 1_000;
    const stepping = Date.now();
    for (let cursor = addDays(first, -1); cursor < last; ) {
      steps += 1;
      const killNow = !killed && addDays(cursor, 30) >= killDay;
      const stride = killNow ? 30 : between(1, 8);
      const asOf = addDays(cursor, stride) < last ? addDays(cursor, stride) : last;
      const day = addDays(cursor, 1);
      const tag = `sim-${settings.seed}-${steps}`;
      if (Date.now() - signedInAt > SESSION_RENEWAL_MS) signedInAt = await signIn();
      // The newborns sign on the real day, in the step that holds it, before its run: the
      // installments follow the real signing day (./billing-newborns.ts).
      const signings = await newbornSignings(pool, a.baseUrl, staff, payers, { day, asOf, tag });
      if (signings.length > 0) {
        say(`  the newborns sign on ${today} (the real day), before the run of the days ${day} to ${asOf}`);
      }
      const open = await openYears(pool, payers);
      const actions = day >= today ? clientActions(a.baseUrl, payers, open, day, asOf, tag) : [];
      actions.push(...signings.map((done) => Promise.resolve(done)));
      // Checks arrive whatever the day (their date is never after today); staff act after the
      // clients above, so a check may meet a card saved in the same step.
      actions.push(
        ...(await checkActions(a.baseUrl, staff, payers, open, {
          day,
          asOf,
          today,
          seed: settings.seed,
          tag,
          nextCheckNumber: () => {
            checkNumbers += 1;
            return String(checkNumbers);
          },
        })),
        ...newbornActions(pool, a.baseUrl, staff, payers, { day, asOf, tag }),
      );
      const body = { asOf, clients: actIds };
      const target = b;
      // Every fourth step (and the one of the kill) both processes run the same days at once; the
      // others go to one process in turn, as the hourly job lands on whichever is free.
      const both = killNow || steps % 4 === 0;
      const runners = both ? [a, b] : [steps % 2 === 1 ? a : b];
      const runs = runners.map((server) =>
        runBillingAsOf(server.baseUrl, staff, body, `${tag}-run-${server === a ? 'a' : 'b'}`, 120_000),
      );
      let killTimer: NodeJS.Timeout | undefined;
      let killedAfter = -1;
      if (killNow) {
        const afterMs = between(100, 900);
        const began = Date.now();
        killTimer = setTimeout(() => {
          killedAfter = Date.now() - began;
          void target.kill();
        }, afterMs);
      }
      const answers = await Promise.all(runs);
      for (const done of await Promise.all(actions)) {
        const label = `${done.what}: ${done.answer.cut ? 'no answer' : done.answer.status}`;
        actionLines.set(label, (actionLines.get(label) ?? 0) + 1);
        if (!done.answer.cut && (done.answer.status >= 500 || done.answer.status === 401)) {
          runProblems.push(`${done.payer.actId} ${done.what} on ${day}: ${explainAnswer(done.answer)}`);
        }
      }
      clearTimeout(killTimer);
      for (const [i, answer] of answers.entries()) {
        const name = runners[i] === a ? 'A' : 'B';
        if (killNow && name === 'B' && answer?.cut) continue;
        if (!answer || answer.cut || answer.status !== 200) {
          runProblems.push(
            `the run to ${asOf} on server ${name}: ${answer ? explainAnswer(answer) : 'none'}`,
          );
        }
      }
      if (killNow) {
        killed = true;
        const running = await rows<{ kind: string; n: number }>(
          pool,
          `select kind, count(*)::int as n from operations where status = 'running' group by kind`,
        );
        say(
          killedAfter >= 0 && answers[1]?.cut
            ? `  step ${steps} (the days to ${asOf}): server B SIGKILLed ${killedAfter} ms into its run, leaving running ${running.map((r) => `${r.n} ${r.kind}`).join(', ') || 'nothing'}`
            : `  step ${steps} (the days to ${asOf}): server B answered before the kill; SIGKILLed after its run`,
        );
        await target.kill();
        const restart = Date.now();
        b = start(settings.ports[1]);
        await waitUntilHealthy(b);
        const left = await waitSettled(pool, LEASE_MS + 20_000);
        say(
          `  server B restarted in ${Date.now() - restart} ms; what the kill left settled after ${Date.now() - restart} ms`,
        );
        if (left.length > 0) runProblems.push(`still running after the restart: ${left.join(', ')}`);
      }
      if (drift.length < 12) drift.push(...(await paidUntilDrift(pool, payers, asOf)));
      if (overdueEarlyOrLate.length < 12)
        overdueEarlyOrLate.push(...(await overdueDrift(pool, payers, asOf)));
      if (installmentProblems.length < 12)
        installmentProblems.push(...(await installmentDrift(pool, payers, asOf)));
      cursor = asOf;
      await moveBillingDay(pool, cursor, today);
      if (!a.alive()) throw new Error(`server A exited:\n${a.output(20)}`);
    }
    figures.steppingSeconds = (Date.now() - stepping) / 1000;
    figures.steps = steps;
    say(
      `  ${steps} steps of 1 to 8 days (one of 30), every fourth on both processes at once, in ${figures.steppingSeconds.toFixed(1)} s`,
    );
    say(`  the clients: ${[...actionLines].map(([label, n]) => `${n} × ${label}`).join('; ') || 'nothing'}`);
    const left = await waitSettled(pool, LEASE_MS + 20_000);
    checks.push({
      name: 'every run answered 200 (the killed one excepted), and the kill settled',
      ok: runProblems.length === 0 && left.length === 0,
      details: [...runProblems, ...left.map((what) => `still running at the end: ${what}`)],
    });
    checks.push({
      name: 'paid-until was the end of the last paid year after every step',
      ok: drift.length === 0,
      details: drift,
    });
    checks.push({
      name: "a check payer's unpaid year was overdue from 14 days after its charge day, and not before, after every step",
      ok: overdueEarlyOrLate.length === 0,
      details: overdueEarlyOrLate,
    });
    checks.push({
      name: 'an installment unpaid 30 days after its date carried its one late charge, and none had it earlier; each was reminded from 3 days before its date, and none earlier, after every step',
      ok: installmentProblems.length === 0,
      details: installmentProblems,
    });
    // The runs' own settling is checked too, as every fault scenario's.
    for (const c of await settled({
      pool,
      baseUrl: a.baseUrl,
      payers: [],
      signers: [],
      screeners: [],
      cancelled: [],
      refundedByStaff: [],
      staff: null,
      submissions: [],
      tag: 'billing',
      leaseMs: LEASE_MS,
      settleTimeoutMs: 15_000,
    })) {
      checks.push(c);
    }
    const checking = Date.now();
    const result = await billingChecks(pool, payers, { first, last, today });
    const newborn = await newbornChecks(pool, payers, { last });
    checks.push(...result.checks, ...newborn.checks);
    Object.assign(figures, result.figures, newborn.figures);
    figures.checkSeconds = (Date.now() - checking) / 1000;
    say(
      `  ${result.figures.notices} notices, ${result.figures.charges} renewals charged, ${result.figures.declines} declines, ${result.figures.paidByCheck} years paid by check, ${result.figures.overdue} years overdue at the end; ${newborn.figures.agreementsSigned} newborn agreements signed, ${newborn.figures.installmentCharges} installments charged, ${newborn.figures.installmentDeclines} declined, ${newborn.figures.lateCharges} late charges; checks took ${figures.checkSeconds.toFixed(1)} s`,
    );
    for (const server of [a, b]) {
      checks.push({
        name: `server ${server === a ? 'A' : 'B'} stayed up to the end`,
        ok: server.alive(),
        details: server.alive() ? [] : [server.output(10)],
      });
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    checks.push({
      name: 'the billing simulation ran to its end',
      ok: false,
      details: message.split('\n').slice(0, 12),
    });
    const lastServer = servers.at(-1);
    if (lastServer) say(`  server output:\n${lastServer.output(30)}`);
  } finally {
    for (const server of servers) await server.kill();
    await pool?.end().catch(() => {});
    await admin.drop(settings.name).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { checks, figures };
}
