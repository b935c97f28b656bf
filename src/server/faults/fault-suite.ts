/**
 * The fault suite (issue 13): real server processes on PostgreSQL, killed with SIGKILL at named
 * points and at a random moment during 20 concurrent payments and 20 concurrent consents (and, in
 * the White Glove scenarios, 20 concurrent White Glove Labs screenings paid by card; in the refund
 * scenarios of issue 22, 40 cancellations of 20 paid orders and 40 partial refunds by an admin that
 * add up to more than their charges, beside 5 payments and 5 consents), then restarted; and a run
 * whose database connections are terminated mid-load. After each, once reconciliation has
 * settled, the money and the records are checked (./invariants.ts).
 *
 * Needs TEST_DATABASE_URL (any database on the PostgreSQL server; the suite makes its own and drops
 * them); with TEST_DATABASE_MIGRATION_URL, that owner role makes and migrates the databases and the
 * servers run as the restricted role of TEST_DATABASE_URL, as in production. Optional: FAULT_SCENARIOS (comma-separated parts of scenario titles to run), FAULT_SEED,
 * FAULT_SETTLE_TIMEOUT_MS, FAULT_PARALLEL, FAULT_SUITE_TIMEOUT_MS, and FAULT_REPORT (the JSON
 * summary scripts/test.ts counts).
 * Exits 1 when a check fails.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { todayFor } from '../../domain/client-basics';
import { validTuesday } from '../testing/dates';
import { runBillingSimulation } from './billing-simulation';
import {
  Admin,
  addClients,
  openPool,
  openSessions,
  openStaffSession,
  rows,
  settleCharges,
} from './fault-database';
import {
  acknowledgedCancellationsDone,
  acknowledgedConsentsCompleted,
  acknowledgedPaymentsInLedger,
  acknowledgedScreeningsCompleted,
  acknowledgedStaffRefundsRecorded,
  approvedChargesRecorded,
  type Check,
  cancellationsRefundedOnce,
  consentMailedOnce,
  consentsCompleteOnce,
  feesNotBlocked,
  gatewayRefundsMatchLedger,
  nothingChargedTwice,
  ordersCancelAfterRestart,
  orphanDocumentsCleaned,
  owingClientsCanPay,
  type PlacedOrder,
  refundsRecordedOnce,
  refundsWithinCharges,
  type Scene,
  type Submission,
  screeningsCompleteOnce,
  settled,
  staffRefundBody,
  staffRefundsRepeatedAnswerAsFirst,
  whiteGloveChargesHaveScreenings,
} from './invariants';
import {
  type Answer,
  type CardToken,
  cancelOrder,
  describeAnswer,
  explainAnswer,
  getClient,
  health,
  placeStoreOrder,
  placeVialRequest,
  type SimulatedClient,
  savePaymentMethod,
  sendConsent,
  sendWhiteGlove,
  signIn,
  staffRefund,
  tokenizeCard,
} from './portal-client';
import { exitWithin, freePort, type ServerProcess, startServer, waitUntilHealthy } from './server-process';

interface Scenario {
  title: string;
  /** The server SIGKILLs itself the first time it reaches this point. */
  faultPoint?: string;
  /** The suite SIGKILLs the server after a random number of answers. */
  randomKill?: boolean;
  /** The suite terminates the server's database connections during the load. */
  connectionStorm?: boolean;
  /** The load also has 20 White Glove Labs screenings, each charged by a new card. */
  screening?: boolean;
  /**
   * The load also has 40 cancellations of 20 paid orders by their clients and 40 partial refunds
   * by an admin of 5 charges, more than each charge (issue 22).
   */
  refunds?: boolean;
  /**
   * Three years of storage renewals for FAULT_BILLING_CLIENTS clients (200) on two processes, one
   * SIGKILLed mid-run (./billing-simulation.ts, issue 21).
   */
  billing?: boolean;
}

const SCENARIOS: Scenario[] = [
  // The longest: first, so that the others run beside it.
  { title: 'billing: three years of renewals on two processes, one SIGKILLed mid-run', billing: true },
  ...[
    'payment:after-claim',
    'payment:after-save-method',
    'payment:before-charge',
    'payment:after-charge',
    'payment:after-commit',
    'consent:after-claim',
    'consent:after-documents',
    'consent:after-commit',
  ].map((point) => ({ title: `SIGKILL at ${point}`, faultPoint: point })),
  { title: 'SIGKILL at a random moment', randomKill: true },
  { title: 'database connections terminated mid-load', connectionStorm: true },
  // A screening charged at the gateway must be completed, never given back (issue 19).
  {
    title: 'White Glove screenings, SIGKILL at white-glove:after-charge',
    faultPoint: 'white-glove:after-charge',
    screening: true,
  },
  { title: 'White Glove screenings, killed by the suite mid-load', randomKill: true, screening: true },
  // Between the cancellation (or the refund's claim) committed and the gateway's answer; after the
  // gateway refunded or voided and before the refund is recorded; and anywhere (issue 22).
  ...['refund:before-send', 'refund:after-gateway'].map((point) => ({
    title: `refunds, SIGKILL at ${point}`,
    faultPoint: point,
    refunds: true,
  })),
  { title: 'refunds, killed by the suite mid-load', randomKill: true, refunds: true },
];

const PAYERS = 20;
const SIGNERS = 20;
/** The refund scenarios keep a few payers and signers in their load, for the time their refunds take. */
const PAYERS_AND_SIGNERS_WITH_REFUNDS = 5;
const SCREENERS = 20;
/** Each canceller sends two cancellations at once, a third of them with the same key twice. */
const CANCELLERS = 20;
const CHARGES_REFUNDED_BY_STAFF = 5;
/** $100.00 each of a $463.50 charge: at most four of the eight can be refunded. */
const STAFF_REFUNDS_PER_CHARGE = 8;
const LEASE_MS = 2000;
/** Scenarios run side by side, each with its own database, port and server. */
const PARALLEL = Number(process.env.FAULT_PARALLEL ?? 2);
// A hang guard, not a speed limit (the billing simulation alone takes minutes on a loaded machine).
const SUITE_TIMEOUT_MS = Number(process.env.FAULT_SUITE_TIMEOUT_MS ?? 25 * 60_000);
const settleTimeoutMs = Number(process.env.FAULT_SETTLE_TIMEOUT_MS ?? 30_000);
const seed = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000);
const billingClients = Number(process.env.FAULT_BILLING_CLIENTS ?? 200);
const root = path.resolve(import.meta.dirname, '../../..');
const reportFile = process.env.FAULT_REPORT ?? path.join(root, 'test-results', 'faults.json');

/** mulberry32: the random choices of a run are repeated by running it again with its seed. */
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
const random = seededRandom(seed);
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The lines of a dead process's output that say why it died. */
const crashLines = (server: ServerProcess) =>
  server
    .output(80)
    .split('\n')
    .filter((line) => /error|code:|severity|signal/i.test(line))
    .slice(-4)
    .join('\n');

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `    | ${line}`)
    .join('\n');

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  }
  return results;
}

function failure(name: string, error: unknown): Check {
  const message = error instanceof Error ? error.message : String(error);
  return { name, ok: false, details: message.split('\n').slice(0, 12) };
}

async function attempt(name: string, work: () => Promise<Check | Check[]>): Promise<Check[]> {
  try {
    const result = await work();
    return Array.isArray(result) ? result : [result];
  } catch (error) {
    return [failure(name, error)];
  }
}

function checkLines(c: Check): string[] {
  const problems = c.ok ? [] : c.details;
  const notes = c.ok && c.details.length > 0 ? ` (${c.details.join('; ')})` : '';
  return [
    `  ${c.ok ? 'PASS' : 'FAIL'} ${c.name}${notes}`,
    ...problems.slice(0, 12).map((line) => `         ${line}`),
    ...(problems.length > 12 ? [`         … and ${problems.length - 12} more`] : []),
  ];
}

/** The refund scenarios' part of the load: the orders the clients cancel, the charges the admin refunds. */
interface RefundLoad {
  cancelled: PlacedOrder[];
  refundedByStaff: PlacedOrder[];
  staff: SimulatedClient | null;
}

/** The 40 (60, or 90) requests of a scenario, all sent at once; each answer is reported as it arrives. */
function sendLoad(
  baseUrl: string,
  payers: SimulatedClient[],
  tokens: CardToken[],
  signers: SimulatedClient[],
  screeners: { client: SimulatedClient; token: CardToken }[],
  refunds: RefundLoad,
  tag: string,
  onAnswer: (answer: Answer) => void,
): Promise<Submission[]> {
  const payments = payers.map(async (client, i) => {
    const key = `${tag}-pay-${client.actId}`;
    const answer = await savePaymentMethod(baseUrl, client, tokens[i] as CardToken, key);
    onAnswer(answer);
    return { client, kind: 'payment' as const, key, answer };
  });
  const consents = signers.map(async (client) => {
    const key = `${tag}-consent-${client.actId}`;
    const answer = await sendConsent(baseUrl, client, key);
    onAnswer(answer);
    return { client, kind: 'consent' as const, key, answer };
  });
  const screenings = screeners.map(async ({ client, token }) => {
    const key = `${tag}-screen-${client.actId}`;
    const answer = await sendWhiteGlove(baseUrl, client, token, key);
    onAnswer(answer);
    return { client, kind: 'screening' as const, key, answer };
  });
  const cancellations = refunds.cancelled.flatMap((order, i) => {
    const key = `${tag}-cancel-${order.client.actId}`;
    return [key, i % 3 === 0 ? key : `${key}-b`].map(async (k) => {
      const answer = await cancelOrder(baseUrl, order.client, order, k);
      onAnswer(answer);
      return { client: order.client, kind: 'cancellation' as const, key: k, answer, order };
    });
  });
  const staff = refunds.staff;
  const staffRefunds = staff
    ? refunds.refundedByStaff.flatMap((order) =>
        Array.from({ length: STAFF_REFUNDS_PER_CHARGE }, async (_, k) => {
          const key = `${tag}-refund-${order.client.actId}-${k + 1}`;
          const answer = await staffRefund(baseUrl, staff, staffRefundBody(order), key);
          onAnswer(answer);
          return { client: order.client, kind: 'staff refund' as const, key, answer, order };
        }),
      )
    : [];
  return Promise.all([...payments, ...consents, ...screenings, ...cancellations, ...staffRefunds]);
}

function summariseLoad(submissions: Submission[]): string {
  const part = (kind: Submission['kind']) => {
    const mine = submissions.filter((s) => s.kind === kind);
    const counts = new Map<string, number>();
    for (const s of mine) {
      const label = describeAnswer(s.answer);
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
    return `${mine.length} ${kind}s: ${[...counts].map(([label, n]) => `${n} × ${label}`).join(', ')}`;
  };
  const also = (['screening', 'cancellation', 'staff refund'] as const)
    .filter((kind) => submissions.some((s) => s.kind === kind))
    .map((kind) => `; ${part(kind)}`)
    .join('');
  return `${part('payment')}; ${part('consent')}${also}`;
}

interface Context {
  admin: Admin;
  template: string;
  prefix: string;
  documentsKey: string;
  linkSecret: string;
}

interface ScenarioResult {
  title: string;
  checks: Check[];
}

/** Runs one scenario on its own database and port; what it has to say is printed at its end. */
async function runScenario(
  ctx: Context,
  scenario: Scenario,
  index: number,
  port: number,
  say: (line: string) => void,
): Promise<ScenarioResult> {
  const nn = String(index + 1).padStart(2, '0');
  const name = `${ctx.prefix}_s${nn}`;
  const tag = `fault-${seed}-${nn}`;
  const checks: Check[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-faults-'));
  const servers: ServerProcess[] = [];
  let pool: pg.Pool | undefined;
  const url = await ctx.admin.create(name, ctx.template);
  const start = (faultPoint?: string) => {
    const server = startServer({
      port,
      databaseUrl: ctx.admin.appUrl(name),
      migrationUrl: url,
      dataDir,
      documentsKey: ctx.documentsKey,
      linkSecret: ctx.linkSecret,
      faultPoint,
    });
    servers.push(server);
    return server;
  };
  try {
    pool = openPool(url);
    const toClient = (c: { id: string; actId: string }, i: number, block: number): SimulatedClient => ({
      ...c,
      ip: `10.${70 + block}.${index + 1}.${i + 1}`,
    });
    const [payerCount, signerCount] = scenario.refunds
      ? [PAYERS_AND_SIGNERS_WITH_REFUNDS, PAYERS_AND_SIGNERS_WITH_REFUNDS]
      : [PAYERS, SIGNERS];
    const payers = (await addClients(pool, `FLT${nn}P`, payerCount, 'payer')).map((c, i) =>
      toClient(c, i, 0),
    );
    const signers = (await addClients(pool, `FLT${nn}S`, signerCount, 'signer')).map((c, i) =>
      toClient(c, i, 1),
    );
    const screeners = scenario.screening
      ? (await addClients(pool, `FLT${nn}W`, SCREENERS, 'screener')).map((c, i) => toClient(c, i, 2))
      : [];
    const cancellers = scenario.refunds
      ? (await addClients(pool, `FLT${nn}C`, CANCELLERS, 'orderer')).map((c, i) => toClient(c, i, 3))
      : [];
    const refundees = scenario.refunds
      ? (await addClients(pool, `FLT${nn}R`, CHARGES_REFUNDED_BY_STAFF, 'orderer')).map((c, i) =>
          toClient(c, i, 4),
        )
      : [];

    const phaseStart = Date.now();
    let server = start(scenario.faultPoint);
    await waitUntilHealthy(server);
    const upAfter = Date.now() - phaseStart;
    const tokens = await signInAndTokenize(pool, server, payers, signers, screeners);
    const screenerCards = screeners.map((client, i) => ({
      client,
      token: tokens[payers.length + i] as CardToken,
    }));
    say(
      `  ${payers.length} payers, ${signers.length} signers and ${screeners.length} screeners added; server up in ${upAfter} ms, all signed in after ${Date.now() - phaseStart} ms`,
    );
    const refundLoad: RefundLoad = { cancelled: [], refundedByStaff: [], staff: null };
    if (scenario.refunds) {
      const placedAt = Date.now();
      Object.assign(refundLoad, await placeOrders(pool, server, cancellers, refundees, tag, index));
      say(
        `  ${refundLoad.cancelled.length} orders to cancel (${refundLoad.cancelled.filter((o) => o.settled).length} of them settled) and ${refundLoad.refundedByStaff.length} settled charges for the admin placed in ${Date.now() - placedAt} ms`,
      );
    }

    // Requests the server answered (a request cut by the kill is no answer).
    let answers = 0;
    let killedAfter = '';
    let onAnswer = (answer: Answer) => {
      if (!answer.cut) answers += 1;
    };
    const started = Date.now();
    let storm: Promise<number[]> | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    if (scenario.randomKill) {
      const afterAnswers = between(3, 30);
      const afterMs = between(800, 6000);
      say(`  the suite kills the server after ${afterAnswers} answers or ${afterMs} ms`);
      const target = server;
      const kill = () => {
        if (killedAfter || !target.alive()) return;
        killedAfter = `${answers} answers, ${Date.now() - started} ms`;
        void target.kill();
      };
      killTimer = setTimeout(kill, afterMs);
      onAnswer = (answer) => {
        if (answer.cut) return;
        answers += 1;
        if (answers === afterAnswers) kill();
      };
    }
    let loadDone = false;
    const load = sendLoad(server.baseUrl, payers, tokens, signers, screenerCards, refundLoad, tag, (answer) =>
      onAnswer(answer),
    ).finally(() => {
      loadDone = true;
    });
    if (scenario.connectionStorm) {
      storm = (async () => {
        const cut: number[] = [];
        for (let round = 0; round < 4 && !loadDone; round += 1) {
          await sleep(between(100, 300));
          cut.push(await ctx.admin.terminateBackends(name));
        }
        return cut;
      })();
    }
    const submissions = await load;
    clearTimeout(killTimer);
    say(`  load (${Date.now() - started} ms): ${summariseLoad(submissions)}`);

    if (scenario.connectionStorm) {
      const cut = (await storm) ?? [];
      say(`  connections terminated per round: ${cut.join(', ')}`);
      checks.push(...stormChecks(submissions, cut));
      checks.push(...(await attempt('the process is still serving', () => stillServing(server, payers[0]))));
      if (!server.alive()) {
        // The checks below still say what the crash left: on a restarted process, as after a kill.
        say(`  the process died in the storm:\n${indent(crashLines(server))}`);
        server = start();
        await waitUntilHealthy(server);
        say('  restarted to check what the storm left');
      }
    } else {
      const exit = await exitWithin(server, scenario.randomKill ? 5000 : 1000);
      if (scenario.faultPoint) {
        checks.push({
          name: `the server killed itself at ${scenario.faultPoint}`,
          ok: exit?.signal === 'SIGKILL',
          details:
            exit?.signal === 'SIGKILL'
              ? []
              : [
                  exit
                    ? `it exited with ${exit.signal ?? `code ${exit.code}`}`
                    : `it never reached ${scenario.faultPoint}: every request was answered`,
                ],
        });
      } else {
        say(`  killed by the suite after ${killedAfter || 'the load (it was over first)'}`);
      }
      await server.kill();
      const restart = Date.now();
      server = start();
      await waitUntilHealthy(server);
      say(`  restarted in ${Date.now() - restart} ms`);
    }

    const scene: Scene = {
      pool,
      baseUrl: server.baseUrl,
      payers,
      signers,
      screeners,
      ...refundLoad,
      submissions,
      tag,
      leaseMs: LEASE_MS,
      settleTimeoutMs,
    };
    checks.push(...(await checksAfterRecovery(scene, say)));
    checks.push({
      name: 'the server stayed up through the checks',
      ok: server.alive(),
      details: server.alive() ? [] : ['it exited:', ...crashLines(server).split('\n')],
    });
  } catch (error) {
    checks.push(failure('the scenario ran to its end', error));
    const last = servers.at(-1);
    if (last) say(`  server output:\n${indent(last.output(30))}`);
  } finally {
    for (const server of servers) await server.kill();
    await pool?.end().catch(() => {});
    await ctx.admin.drop(name).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { title: scenario.title, checks };
}

/** The billing simulation on its own database, with a second port for its second process. */
async function runBillingScenario(
  ctx: Context,
  scenario: Scenario,
  index: number,
  port: number,
  say: (line: string) => void,
): Promise<ScenarioResult> {
  try {
    const second = await freePort([port]);
    const { checks } = await runBillingSimulation({
      admin: ctx.admin,
      template: ctx.template,
      name: `${ctx.prefix}_s${String(index + 1).padStart(2, '0')}`,
      ports: [port, second],
      documentsKey: ctx.documentsKey,
      linkSecret: ctx.linkSecret,
      seed,
      clients: billingClients,
      say,
    });
    return { title: scenario.title, checks };
  } catch (error) {
    return { title: scenario.title, checks: [failure('the billing simulation ran to its end', error)] };
  }
}

/**
 * Two clients sign in through the API; the others get their sessions written directly. Each
 * payer's and screener's card is tokenized ahead of the load, as the page does before it submits
 * (the payers' tokens first, then the screeners').
 */
async function signInAndTokenize(
  pool: pg.Pool,
  server: ServerProcess,
  payers: SimulatedClient[],
  signers: SimulatedClient[],
  screeners: SimulatedClient[],
): Promise<CardToken[]> {
  const [firstPayer, ...otherPayers] = payers;
  const [firstSigner, ...otherSigners] = signers;
  if (!firstPayer || !firstSigner) throw new Error('no clients to sign in');
  await Promise.all([signIn(server.baseUrl, firstPayer), signIn(server.baseUrl, firstSigner)]);
  const others = [...otherPayers, ...otherSigners, ...screeners];
  const cookies = await openSessions(
    pool,
    others.map((c) => c.id),
  );
  for (const client of others) client.cookie = cookies.get(client.id);
  const probe = await getClient(server.baseUrl, others[0] ?? firstPayer);
  if (probe.cut || probe.status !== 200) {
    throw new Error(`a session written for the suite is refused: get_Client ${describeAnswer(probe)}`);
  }
  return inBatches([...payers, ...screeners], 8, (client) => tokenizeCard(server.baseUrl, client));
}

/**
 * The refund scenarios' paid orders, placed through the API before the load, each paid by a new
 * card: the cancellers order 3 vials (one pre-paid) or, every other one, 2 bottles of serum; the
 * charges the admin refunds in parts are serum orders. Half the cancellers' charges and all the
 * admin's are moved into a settled batch at the gateway (refunded); the others stay in the open
 * batch (voided whole).
 */
async function placeOrders(
  pool: pg.Pool,
  server: ServerProcess,
  cancellers: SimulatedClient[],
  refundees: SimulatedClient[],
  tag: string,
  index: number,
): Promise<RefundLoad> {
  const clients = [...cancellers, ...refundees];
  const cookies = await openSessions(
    pool,
    clients.map((c) => c.id),
  );
  for (const client of clients) client.cookie = cookies.get(client.id);
  const today = todayFor(new Date());
  const place = async (client: SimulatedClient, kind: PlacedOrder['kind'], settled: boolean) => {
    const token = await tokenizeCard(server.baseUrl, client);
    const key = `${tag}-order-${client.actId}`;
    const answer =
      kind === 'vial request'
        ? await placeVialRequest(server.baseUrl, client, token, key, validTuesday(today, 28))
        : await placeStoreOrder(server.baseUrl, client, token, key, validTuesday(today, 7));
    const id = answer.cut ? undefined : answer.body?.id;
    if (answer.cut || answer.status !== 200 || typeof id !== 'string') {
      throw new Error(`${client.actId} could not place a ${kind}: ${explainAnswer(answer)}`);
    }
    const [row] = await rows<{ payment_id: string | null }>(
      pool,
      `select payment_id from ${kind === 'vial request' ? 'vial_requests' : 'store_orders'} where id = $1`,
      [id],
    );
    if (!row?.payment_id) throw new Error(`${client.actId}'s ${kind} ${id} has no charge`);
    return { client, kind, id, paymentId: row.payment_id, settled };
  };
  const cancelled = await inBatches(
    cancellers.map((client, i) => ({ client, i })),
    6,
    ({ client, i }) => place(client, i % 2 === 0 ? 'vial request' : 'store order', i % 4 < 2),
  );
  const refundedByStaff = await inBatches(refundees, 6, (client) => place(client, 'store order', true));
  const toSettle = [...cancelled, ...refundedByStaff].filter((o) => o.settled).map((o) => o.client.id);
  const moved = await settleCharges(pool, toSettle);
  if (moved !== toSettle.length)
    throw new Error(`${moved} of ${toSettle.length} charges moved to a settled batch`);
  const staff = await openStaffSession(pool);
  return {
    cancelled,
    refundedByStaff,
    staff: {
      id: staff.staffId,
      actId: 'staff@example.com',
      ip: `10.75.${index + 1}.1`,
      cookie: staff.cookie,
    },
  };
}

/** What must hold once reconciliation has settled, in an order where each check reads a stable state. */
async function checksAfterRecovery(scene: Scene, say: (line: string) => void): Promise<Check[]> {
  const checkStart = Date.now();
  const checks = await attempt('reconciliation settled', () => settled(scene));
  say(`  settling took ${Date.now() - checkStart} ms`);
  const screening = scene.screeners.length > 0;
  const refunds = scene.cancelled.length > 0 || scene.refundedByStaff.length > 0;
  type Step = [string, (scene: Scene) => Promise<Check>];
  const steps: Step[] = [
    ['1. acknowledged payments', acknowledgedPaymentsInLedger],
    ['3a. fees not blocked', feesNotBlocked],
    ['5a. acknowledged consents', acknowledgedConsentsCompleted],
    ...(refunds
      ? ([
          ['R1. acknowledged cancellations', acknowledgedCancellationsDone],
          ['R2. acknowledged staff refunds', acknowledgedStaffRefundsRecorded],
        ] as Step[])
      : []),
    ...(screening
      ? ([
          ['W1. acknowledged screenings', acknowledgedScreeningsCompleted],
          ['W2. White Glove charges have their screenings', whiteGloveChargesHaveScreenings],
        ] as Step[])
      : []),
    // The checks from here on send new payments, consents and screenings of their own.
    ['3b. owing clients can pay', owingClientsCanPay],
    ...(screening ? ([['W3. screenings complete once', screeningsCompleteOnce]] as Step[]) : []),
    ['2. approved charges recorded', approvedChargesRecorded],
    ['4. nothing charged twice', nothingChargedTwice],
    ['5b. consents complete once', consentsCompleteOnce],
    ['5c. consent e-mailed once', consentMailedOnce],
    ['5d. orphaned documents', orphanDocumentsCleaned],
    ...(refunds
      ? ([
          // These send cancellations and staff refunds of their own first.
          ['R3. cancelled after the restart', ordersCancelAfterRestart],
          ['R4. staff refunds repeated', staffRefundsRepeatedAnswerAsFirst],
          ['R5. cancellations refunded once', cancellationsRefundedOnce],
          ['R6. refunded <= charged', refundsWithinCharges],
          ['R7. gateway refunds match the ledger', gatewayRefundsMatchLedger],
          ['R8. refunds recorded once', refundsRecordedOnce],
        ] as Step[])
      : []),
  ];
  for (const [name, run] of steps) checks.push(...(await attempt(name, () => run(scene))));
  say(`  checks took ${Date.now() - checkStart} ms`);
  return checks;
}

/** The storm's own checks: it hit open connections, and nothing answered 500 (503 is allowed). */
function stormChecks(submissions: Submission[], cut: number[]): Check[] {
  const failed = submissions.filter(
    (s) => !s.answer.cut && s.answer.status >= 500 && s.answer.status !== 503,
  );
  return [
    {
      name: "the storm terminated the server's database connections",
      ok: cut.some((n) => n > 0),
      details: cut.some((n) => n > 0) ? [] : ['no connection was open to terminate'],
    },
    {
      name: 'no 500 during the storm (503 allowed)',
      ok: failed.length === 0,
      details: failed.map((s) => `${s.client.actId} ${s.kind}: ${explainAnswer(s.answer)}`),
    },
  ];
}

/** After the storm: the same process answers health and a signed-in read (its pool recovered). */
async function stillServing(server: ServerProcess, client: SimulatedClient | undefined): Promise<Check> {
  const problems: string[] = [];
  if (!server.alive()) return { name: 'the process is still serving', ok: false, details: ['it exited'] };
  const deadline = Date.now() + 10_000;
  let last = '';
  for (;;) {
    const answers = [await health(server.baseUrl), client ? await getClient(server.baseUrl, client) : null];
    last = answers.map((a) => (a ? describeAnswer(a) : '')).join(', ');
    if (answers.every((a) => a === null || (!a.cut && a.status === 200))) break;
    if (Date.now() >= deadline || !server.alive()) {
      problems.push(`health, get_Client answered ${last}${server.alive() ? '' : '; the process exited'}`);
      break;
    }
    await sleep(250);
  }
  return {
    name: 'the process is still serving: health and get_Client answer 200',
    ok: problems.length === 0,
    details: problems,
  };
}

function writeReport(results: ScenarioResult[], extra: Check[] = []) {
  const all = [...results.flatMap((r) => r.checks), ...extra];
  const passed = all.filter((c) => c.ok).length;
  const failed = all.length - passed;
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  fs.writeFileSync(reportFile, JSON.stringify({ seed, passed, failed, scenarios: results, extra }, null, 2));
  return { passed, failed };
}

async function main() {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    console.error('The fault suite needs TEST_DATABASE_URL, a PostgreSQL URL (it makes its own databases).');
    writeReport([], [{ name: 'TEST_DATABASE_URL is set', ok: false, details: [] }]);
    process.exit(1);
  }
  const wanted = (process.env.FAULT_SCENARIOS ?? '').split(',').filter(Boolean);
  const scenarios = SCENARIOS.filter((s) => wanted.length === 0 || wanted.some((w) => s.title.includes(w)));
  const admin = new Admin(process.env.TEST_DATABASE_MIGRATION_URL ?? serverUrl, serverUrl);
  // By scenario number: scenarios running side by side finish in any order.
  const results: ScenarioResult[] = [];
  const watchdog = setTimeout(() => {
    console.error(`\nThe fault suite ran out of time (${SUITE_TIMEOUT_MS / 1000} s).`);
    writeReport(results.filter(Boolean), [
      { name: 'the fault suite finished in time', ok: false, details: [] },
    ]);
    void admin.dropAll().finally(() => process.exit(1));
  }, SUITE_TIMEOUT_MS);
  watchdog.unref();

  const ctx: Context = {
    admin,
    template: '',
    prefix: `portal_faults_${process.pid}_${Date.now() % 1_000_000}`,
    documentsKey: randomBytes(32).toString('base64'),
    linkSecret: randomBytes(32).toString('hex'),
  };
  const ports: number[] = [];
  for (let i = 0; i < Math.min(PARALLEL, scenarios.length); i += 1) ports.push(await freePort(ports));
  const began = Date.now();
  console.log(
    `Fault suite on PostgreSQL: seed ${seed}, ${scenarios.length} scenarios, ${ports.length} at a time (ports ${ports.join(', ')})`,
  );
  try {
    ctx.template = `${ctx.prefix}_template`;
    const templateUrl = await admin.create(ctx.template);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-faults-'));
    const first = startServer({
      ...ctx,
      port: ports[0] as number,
      databaseUrl: admin.appUrl(ctx.template),
      migrationUrl: templateUrl,
      dataDir,
    });
    try {
      await waitUntilHealthy(first);
    } finally {
      await first.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const queue = scenarios.map((scenario, index) => ({ scenario, index }));
    await Promise.all(
      ports.map(async (port) => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const { scenario, index } = next;
          const lines = [`\n[${index + 1}/${scenarios.length}] ${scenario.title}`];
          const scenarioStart = Date.now();
          const say = (line: string) => lines.push(line);
          const result = scenario.billing
            ? await runBillingScenario(ctx, scenario, index, port, say)
            : await runScenario(ctx, scenario, index, port, say);
          lines.push(...result.checks.flatMap(checkLines));
          lines.push(`  (${((Date.now() - scenarioStart) / 1000).toFixed(1)} s)`);
          console.log(lines.join('\n'));
          results[index] = result;
        }
      }),
    );
  } catch (error) {
    results.push({ title: 'setting up', checks: [failure('the suite could set up its database', error)] });
    console.log(checkLines(results.at(-1)?.checks[0] as Check).join('\n'));
  } finally {
    await admin.dropAll();
  }
  const { passed, failed } = writeReport(results.filter(Boolean));
  const failedScenarios = results
    .filter(Boolean)
    .filter((r) => r.checks.some((c) => !c.ok))
    .map((r) => r.title);
  console.log(
    `\nFault suite: ${passed} checks passed, ${failed} failed in ${((Date.now() - began) / 1000).toFixed(0)} s (seed ${seed}).`,
  );
  if (failedScenarios.length > 0) console.log(`Scenarios with a failure: ${failedScenarios.join('; ')}`);
  process.exit(failed > 0 ? 1 : 0);
}

void main();
