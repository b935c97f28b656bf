import type pg from 'pg';
import { rows, tableExists } from './fault-database';
import {
  type Answer,
  cancelOrder,
  describeAnswer,
  explainAnswer,
  type SimulatedClient,
  savePaymentMethod,
  sendConsent,
  sendWhiteGlove,
  staffRefund,
  tokenizeCard,
} from './portal-client';

/**
 * What must hold after a crash, a restart and reconciliation, read from the tables and checked
 * through the API. Each check answers pass or fail with the rows that break it, so a failure
 * names the client and the row.
 */

export interface Check {
  name: string;
  ok: boolean;
  details: string[];
}

/** A paid order placed before the load: a canceller's, or a charge the staff refund in parts. */
export interface PlacedOrder {
  client: SimulatedClient;
  kind: 'vial request' | 'store order';
  id: string;
  /** Its charge in the ledger. */
  paymentId: string;
  /** Its charge moved into a settled batch at the gateway: refunded, not voided. */
  settled: boolean;
}

export interface Submission {
  client: SimulatedClient;
  kind: 'payment' | 'consent' | 'screening' | 'cancellation' | 'staff refund';
  key: string;
  answer: Answer;
  /** What a cancellation cancels, or the charge a staff refund refunds part of. */
  order?: PlacedOrder;
}

export interface Scene {
  pool: pg.Pool;
  baseUrl: string;
  payers: SimulatedClient[];
  signers: SimulatedClient[];
  /** Clients sending a White Glove Labs screening in the load (the White Glove scenarios). */
  screeners: SimulatedClient[];
  /** The orders their clients cancel in the load (the refund scenarios). */
  cancelled: PlacedOrder[];
  /** The charges an admin refunds in parts in the load (the refund scenarios), and the admin. */
  refundedByStaff: PlacedOrder[];
  staff: SimulatedClient | null;
  submissions: Submission[];
  /** A name for idempotency keys sent by the checks themselves. */
  tag: string;
  leaseMs: number;
  settleTimeoutMs: number;
}

const acknowledged = (s: Submission) => !s.answer.cut && s.answer.status === 200;

function check(name: string, problems: string[], notes: string[] = []): Check {
  return { name, ok: problems.length === 0, details: [...problems, ...notes] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the query answers no rows or the time is up; answers the rows left. */
async function pollUntilEmpty<T extends pg.QueryResultRow>(
  pool: pg.Pool,
  sql: string,
  params: unknown[],
  timeoutMs: number,
): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await rows<T>(pool, sql, params);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await sleep(250);
  }
}

function clientIds(scene: Scene): string[] {
  return [
    ...scene.payers,
    ...scene.signers,
    ...scene.screeners,
    ...[...scene.cancelled, ...scene.refundedByStaff].map((o) => o.client),
  ].map((c) => c.id);
}

/**
 * Reconciliation settles what the crash left: no ledger row in progress, no run-once operation
 * running, no consent left pending past the lease.
 */
export async function settled(scene: Scene): Promise<Check[]> {
  const { pool } = scene;
  const deadline = Date.now() + scene.settleTimeoutMs;
  const ledger = await pollUntilEmpty<{ act: string; key: string; age: string }>(
    pool,
    `select c.client_act_id as act, p.idempotency_key as key, (now() - p.created_at)::text as age
     from payments p join clients c on c.id = p.client_id where p.status = 'in_progress'`,
    [],
    scene.settleTimeoutMs,
  );
  const checks = [
    check(
      'ledger settled: no payment left in progress',
      ledger.map((r) => `${r.act}: payment ${r.key} still in progress after ${r.age}`),
    ),
  ];
  if (await tableExists(pool, 'operations')) {
    const operations = await pollUntilEmpty<{ kind: string; scope: string; key: string }>(
      pool,
      `select kind, scope, idempotency_key as key from operations where status = 'running'`,
      [],
      Math.max(0, deadline - Date.now()),
    );
    checks.push(
      check(
        'run-once operations settled: none left running',
        operations.map((r) => `${r.kind} ${r.scope} ${r.key} still running`),
      ),
    );
  } else {
    checks.push(check('run-once operations settled: none left running', ['there is no operations table']));
  }
  const pending = await pollUntilEmpty<{ act: string; age: string }>(
    pool,
    `select c.client_act_id as act, (now() - f.created_at)::text as age
     from form_submissions f join clients c on c.id = f.client_id
     where f.status = 'pending' and f.created_at < now() - make_interval(secs => $1::float / 1000)`,
    [scene.leaseMs],
    Math.max(0, deadline - Date.now()),
  );
  checks.push(
    check(
      'no consent left pending past the lease',
      pending.map((r) => `${r.act}: a consent submission pending for ${r.age}`),
    ),
  );
  const inDoubt = await pollUntilEmpty<{ act: string; reference: string; age: string }>(
    pool,
    `select c.client_act_id as act, r.reference, (now() - r.created_at)::text as age
     from refunds r join clients c on c.id = r.client_id where r.status = 'in_progress'`,
    [],
    Math.max(0, deadline - Date.now()),
  );
  checks.push(
    check(
      'no refund left in doubt (in progress)',
      inDoubt.map((r) => `${r.act}: refund ${r.reference} still in progress after ${r.age}`),
    ),
  );
  return checks;
}

/** 1. Every payment answered 200 is in the ledger, approved, with the transaction it answered. */
export async function acknowledgedPaymentsInLedger(scene: Scene): Promise<Check> {
  const answered = scene.submissions.filter((s) => s.kind === 'payment' && acknowledged(s));
  const problems: string[] = [];
  for (const s of answered) {
    const body = s.answer.cut ? null : s.answer.body;
    const transactionId = body?.TransactionId;
    if (typeof transactionId !== 'string') {
      problems.push(`${s.client.actId}: answered 200 without a transaction id (${JSON.stringify(body)})`);
      continue;
    }
    const [row] = await rows<{ status: string; gateway_transaction_id: string | null }>(
      scene.pool,
      'select status, gateway_transaction_id from payments where client_id = $1 and idempotency_key = $2',
      [s.client.id, s.key],
    );
    if (!row) problems.push(`${s.client.actId}: acknowledged transaction ${transactionId} has no ledger row`);
    else if (row.status !== 'approved' || row.gateway_transaction_id !== transactionId) {
      problems.push(
        `${s.client.actId}: acknowledged ${transactionId}, ledger says ${row.status} ${row.gateway_transaction_id}`,
      );
    }
  }
  return check('1. every acknowledged payment is in the ledger, approved', problems, [
    `${answered.length} acknowledged`,
  ]);
}

/**
 * 2. Every charge the gateway approved has exactly one ledger row, approved with its transaction,
 * its fee rows paid, one Client Activity row and one e-mail in the outbox.
 */
export async function approvedChargesRecorded(scene: Scene): Promise<Check> {
  const charges = await rows<{
    transaction_id: string;
    reference: string;
    amount_cents: number;
    ledger_rows: number;
    act: string | null;
    status: string | null;
    gateway_transaction_id: string | null;
    purpose: string | null;
    total_cents: number | null;
    fee_rows: number;
    fee_rows_unpaid: number;
    activities: number;
    mails: number;
  }>(
    scene.pool,
    `select t.transaction_id, t.reference, t.amount_cents,
        (select count(*)::int from payments q where q.reference = t.reference) as ledger_rows,
        c.client_act_id as act, p.status, p.gateway_transaction_id, p.purpose, p.total_cents,
        (select count(*)::int from annual_storage_fees f where f.payment_id = p.id) as fee_rows,
        (select count(*)::int from annual_storage_fees f where f.payment_id = p.id and f.paid_at is null)
          as fee_rows_unpaid,
        -- A White Glove Labs charge's activity and e-mail are its screening form's.
        case when p.purpose = 'white_glove_lab'
          then (select count(*)::int from client_activities a
                where a.client_id = p.client_id and a.type = 'White Glove Labs')
          else (select count(*)::int from client_activities a where a.payment_id = p.id) end as activities,
        -- An order's e-mail is its order's, to the client (and a copy to its shipping address).
        case when p.purpose = 'white_glove_lab'
          then (select count(*)::int from outbox_messages o join form_submissions f
                  on o.dedupe_key = 'form:' || f.id::text where f.payment_id = p.id)
          when p.purpose = 'vial_request'
          then (select count(*)::int from outbox_messages o join vial_requests v
                  on o.dedupe_key = 'vial-request:' || v.id::text || ':' || lower(c.email)
                where v.payment_id = p.id)
          when p.purpose = 'store_order'
          then (select count(*)::int from outbox_messages o join store_orders s
                  on o.dedupe_key = 'store-order:' || s.id::text || ':' || lower(c.email)
                where s.payment_id = p.id)
          else (select count(*)::int from outbox_messages o where o.dedupe_key = 'payment:' || p.id::text)
        end as mails
     from sandbox_transactions t
     left join lateral (select * from payments q where q.reference = t.reference order by q.created_at limit 1) p
       on true
     left join clients c on c.id = p.client_id
     where t.status = 'approved'
     order by c.client_act_id, t.created_at`,
  );
  const problems: string[] = [];
  for (const t of charges) {
    const who = `${t.act ?? 'no client'}: charge ${t.transaction_id} (${t.reference})`;
    if (t.ledger_rows !== 1) {
      problems.push(`${who} has ${t.ledger_rows} ledger rows`);
      if (t.ledger_rows === 0) continue;
    }
    if (t.status !== 'approved' || t.gateway_transaction_id !== t.transaction_id) {
      problems.push(`${who}: ledger row is ${t.status} with transaction ${t.gateway_transaction_id}`);
    }
    if (t.total_cents !== t.amount_cents) {
      problems.push(`${who}: gateway charged ${t.amount_cents} cents, ledger total ${t.total_cents}`);
    }
    if (t.purpose === 'annual_storage_overdue' && (t.fee_rows === 0 || t.fee_rows_unpaid > 0)) {
      problems.push(`${who}: ${t.fee_rows} fee rows, ${t.fee_rows_unpaid} of them unpaid`);
    }
    if (t.activities !== 1) problems.push(`${who}: ${t.activities} Client Activity rows`);
    if (t.mails !== 1) problems.push(`${who}: ${t.mails} e-mails in the outbox`);
  }
  return check('2. every approved charge has one ledger row, its effects and its e-mail', problems, [
    `${charges.length} approved charges at the gateway`,
  ]);
}

/** 3a. No fee row is held by a payment that did not succeed. */
export async function feesNotBlocked(scene: Scene): Promise<Check> {
  const held = await rows<{ act: string; due_date: string; status: string | null }>(
    scene.pool,
    `select c.client_act_id as act, f.due_date::text, p.status
     from annual_storage_fees f join clients c on c.id = f.client_id
     left join payments p on p.id = f.payment_id
     where f.payment_id is not null and (p.id is null or p.status <> 'approved')
     order by c.client_act_id, f.due_date`,
  );
  return check(
    '3a. no fee row is held by a payment that did not succeed',
    held.map((r) => `${r.act}: fee due ${r.due_date} held by a payment that is ${r.status ?? 'missing'}`),
  );
}

/** 3b. Every client still owing can pay now: a fresh save with a new key answers 200. */
export async function owingClientsCanPay(scene: Scene): Promise<Check> {
  const owing = await rows<{ id: string }>(
    scene.pool,
    `select distinct client_id as id from annual_storage_fees
     where paid_at is null and due_date < current_date and client_id = any($1::uuid[])`,
    [scene.payers.map((c) => c.id)],
  );
  const clients = scene.payers.filter((c) => owing.some((o) => o.id === c.id));
  const answers = await Promise.all(
    clients.map(async (client) => {
      const key = `${scene.tag}-retry-${client.actId}`;
      let answer: Answer;
      try {
        answer = await savePaymentMethod(
          scene.baseUrl,
          client,
          await tokenizeCard(scene.baseUrl, client),
          key,
        );
      } catch (error) {
        answer = { cut: true, error: (error as Error).message };
      }
      scene.submissions.push({ client, kind: 'payment', key, answer });
      return { client, answer };
    }),
  );
  const problems = answers
    .filter(({ answer }) => answer.cut || answer.status !== 200)
    .map(({ client, answer }) => `${client.actId}: a fresh save answered ${explainAnswer(answer)}`);
  return check('3b. every client still owing can pay after the restart', problems, [
    `${clients.length} clients still owed and tried again`,
  ]);
}

/**
 * 4. Nothing charged twice: per client, the gateway's approved charges add up to the ledger's
 * approved totals, and the overdue years paid add up to what the ledger says it charged for them.
 * A charge voided later stays approved in the ledger, its void a refund row beside it (the refund
 * checks R5 to R8 match those): here it counts as charged on both sides.
 */
export async function nothingChargedTwice(scene: Scene): Promise<Check> {
  const charged = await rows<{ client: string | null; cents: string }>(
    scene.pool,
    `select coalesce(
          (select c.client_act_id from payments p join clients c on c.id = p.client_id
           where p.reference = t.reference limit 1),
          (select c.client_act_id from payment_methods m join clients c on c.id = m.client_id
           where m.gateway_customer_ref = t.customer_ref limit 1)) as client,
        sum(t.amount_cents)::text as cents
     from sandbox_transactions t where t.status in ('approved', 'voided') group by 1`,
  );
  const ledger = await rows<{ client: string; cents: string; fee_cents: string; paid_fee_cents: string }>(
    scene.pool,
    `select c.client_act_id as client, sum(p.total_cents)::text as cents,
        sum(case when p.purpose = 'annual_storage_overdue' then p.amount_cents else 0 end)::text as fee_cents,
        (select coalesce(sum(f.amount_cents), 0) from annual_storage_fees f
         join payments q on q.id = f.payment_id
         where f.client_id = c.id and f.paid_at is not null and q.status = 'approved'
           and q.purpose = 'annual_storage_overdue')::text as paid_fee_cents
     from payments p join clients c on c.id = p.client_id
     where p.status = 'approved' group by c.id, c.client_act_id`,
  );
  const problems: string[] = [];
  const byClient = new Map(ledger.map((r) => [r.client, r]));
  for (const r of charged) {
    if (r.client === null) {
      problems.push(`${r.cents} cents approved at the gateway for no known client`);
      continue;
    }
    const booked = byClient.get(r.client)?.cents ?? '0';
    if (booked !== r.cents) {
      problems.push(`${r.client}: gateway approved ${r.cents} cents, the ledger approved ${booked}`);
    }
  }
  for (const r of ledger) {
    if (!charged.some((c) => c.client === r.client)) {
      problems.push(`${r.client}: the ledger approved ${r.cents} cents the gateway never charged`);
    }
    if (r.fee_cents !== r.paid_fee_cents) {
      problems.push(
        `${r.client}: approved payments for ${r.fee_cents} cents of storage, the years marked paid are ${r.paid_fee_cents}`,
      );
    }
  }
  return check('4. nothing charged twice: gateway, ledger and paid years agree per client', problems, [
    `${ledger.length} clients with approved payments`,
  ]);
}

/** 5a. Every consent answered 200 is completed, with its signed PDF stored. */
export async function acknowledgedConsentsCompleted(scene: Scene): Promise<Check> {
  const answered = scene.submissions.filter((s) => s.kind === 'consent' && acknowledged(s));
  const problems: string[] = [];
  for (const s of answered) {
    const [row] = await rows<{ status: string; pdf: string | null; stored: string | null; signed: boolean }>(
      scene.pool,
      `select f.status, f.pdf_document_id as pdf, d.id as stored, c.client_consent_form_completed as signed
       from form_submissions f join clients c on c.id = f.client_id
       left join documents d on d.id = f.pdf_document_id
       where f.client_id = $1 and f.form = 'consent'`,
      [s.client.id],
    );
    const documentId = s.answer.cut ? null : s.answer.body?.documentId;
    if (!row) problems.push(`${s.client.actId}: acknowledged consent has no submission row`);
    else if (row.status !== 'completed' || !row.stored || !row.signed) {
      problems.push(
        `${s.client.actId}: acknowledged consent is ${row.status}, PDF ${row.pdf ?? 'none'} ${row.stored ? 'stored' : 'missing'}, client flag ${row.signed}`,
      );
    } else if (documentId !== row.pdf) {
      problems.push(`${s.client.actId}: answered document ${String(documentId)}, stored ${row.pdf}`);
    }
  }
  return check('5a. every acknowledged consent is completed with its PDF', problems, [
    `${answered.length} acknowledged`,
  ]);
}

/**
 * 5b. Each client whose consent was not acknowledged can sign now with a new key (or is told it
 * is already signed, when the crash came after the commit); an acknowledged one is not signed
 * twice. Afterwards every signer has exactly one completed consent.
 */
export async function consentsCompleteOnce(scene: Scene): Promise<Check> {
  const answeredIds = new Set(
    scene.submissions.filter((s) => s.kind === 'consent' && acknowledged(s)).map((s) => s.client.id),
  );
  const completedBefore = new Set(
    (
      await rows<{ id: string }>(
        scene.pool,
        `select client_id as id from form_submissions where form = 'consent' and status = 'completed'`,
      )
    ).map((r) => r.id),
  );
  const problems: string[] = [];
  await Promise.all(
    scene.signers.map(async (client) => {
      const key = `${scene.tag}-again-${client.actId}`;
      const answer = await sendConsent(scene.baseUrl, client, key);
      const alreadySigned = answeredIds.has(client.id) || completedBefore.has(client.id);
      const expected = alreadySigned ? '409 ALREADY_COMPLETED' : '200';
      if (describeAnswer(answer) !== expected) {
        problems.push(`${client.actId}: a new submission answered ${explainAnswer(answer)}, not ${expected}`);
      }
      if (!alreadySigned) scene.submissions.push({ client, kind: 'consent', key, answer });
    }),
  );
  const state = await rows<{ act: string; completed: number; signed: boolean }>(
    scene.pool,
    `select c.client_act_id as act, c.client_consent_form_completed as signed,
        (select count(*)::int from form_submissions f
         where f.client_id = c.id and f.form = 'consent' and f.status = 'completed') as completed
     from clients c where c.id = any($1::uuid[]) order by c.client_act_id`,
    [scene.signers.map((c) => c.id)],
  );
  for (const r of state) {
    if (r.completed !== 1 || !r.signed) {
      problems.push(`${r.act}: ${r.completed} completed consents, client flag ${r.signed}`);
    }
  }
  return check('5b. every signer can complete the consent, and completes it once', problems, [
    `${scene.signers.length - answeredIds.size} signers without an acknowledgement tried again`,
  ]);
}

/** 5c. Every completed consent has exactly one e-mail in the outbox. */
export async function consentMailedOnce(scene: Scene): Promise<Check> {
  const completed = await rows<{ act: string; mails: number }>(
    scene.pool,
    `select c.client_act_id as act,
        (select count(*)::int from outbox_messages o where o.dedupe_key = 'form:' || f.id::text) as mails
     from form_submissions f join clients c on c.id = f.client_id
     where f.status = 'completed' and f.client_id = any($1::uuid[]) order by c.client_act_id`,
    [clientIds(scene)],
  );
  return check(
    '5c. every completed consent has exactly one e-mail',
    completed.filter((r) => r.mails !== 1).map((r) => `${r.act}: ${r.mails} e-mails in the outbox`),
    [`${completed.length} completed consents`],
  );
}

/**
 * 5d. Documents a crash left without a submission are cleaned up within seconds. A refund's
 * receipt belongs to no submission: it is kept with the e-mail that attaches it, committed with
 * the refund.
 */
export async function orphanDocumentsCleaned(scene: Scene): Promise<Check> {
  const left = await pollUntilEmpty<{ act: string; kind: string; age: string }>(
    scene.pool,
    `select c.client_act_id as act, d.kind, (now() - d.created_at)::text as age
     from documents d join clients c on c.id = d.client_id
     where d.client_id = any($1::uuid[]) and not exists (
       select 1 from form_submissions f
       where d.id in (f.answers_document_id, f.signature_document_id, f.pdf_document_id, f.lab_report_document_id))
       and not exists (
         select 1 from outbox_messages o
         where o.attachments_json::jsonb @> jsonb_build_array(jsonb_build_object('documentId', d.id::text)))
     order by c.client_act_id`,
    [clientIds(scene)],
    15_000,
  );
  return check(
    '5d. documents left without a submission are cleaned up',
    left.map((r) => `${r.act}: an orphaned ${r.kind} document, ${r.age} old`),
  );
}

/** W1. Every White Glove Labs screening answered 200 is completed, with the charge it answered. */
export async function acknowledgedScreeningsCompleted(scene: Scene): Promise<Check> {
  const answered = scene.submissions.filter((s) => s.kind === 'screening' && acknowledged(s));
  const problems: string[] = [];
  for (const s of answered) {
    const [row] = await rows<{ status: string; transaction: string | null; done: boolean }>(
      scene.pool,
      `select f.status, p.gateway_transaction_id as transaction, c.infectious_disease_form_completed as done
       from form_submissions f join clients c on c.id = f.client_id
       left join payments p on p.id = f.payment_id and p.status = 'approved'
       where f.client_id = $1 and f.form = 'infectious_disease'`,
      [s.client.id],
    );
    const transactionId = s.answer.cut ? null : s.answer.body?.TransactionId;
    if (!row) problems.push(`${s.client.actId}: acknowledged screening has no submission row`);
    else if (row.status !== 'completed' || !row.done || row.transaction !== transactionId) {
      problems.push(
        `${s.client.actId}: acknowledged screening (transaction ${String(transactionId)}) is ${row.status}, approved charge ${row.transaction ?? 'none'}, client flag ${row.done}`,
      );
    }
  }
  return check('W1. every acknowledged White Glove screening is completed with its charge', problems, [
    `${answered.length} acknowledged`,
  ]);
}

/**
 * W2. Every approved White Glove Labs charge has its completed screening (a form is never given
 * back while its money is taken), and every completed White Glove screening names an approved
 * charge.
 */
export async function whiteGloveChargesHaveScreenings(scene: Scene): Promise<Check> {
  const unmatched = await rows<{ act: string; problem: string }>(
    scene.pool,
    `select c.client_act_id as act,
        'approved White Glove charge ' || coalesce(p.gateway_transaction_id, p.id::text) || ' has no completed screening'
          as problem
     from payments p join clients c on c.id = p.client_id
     where p.purpose = 'white_glove_lab' and p.status = 'approved' and not exists (
       select 1 from form_submissions f
       where f.payment_id = p.id and f.form = 'infectious_disease' and f.status = 'completed')
     union all
     select c.client_act_id, 'completed White Glove screening ' || f.id::text || ' has no approved charge'
     from form_submissions f join clients c on c.id = f.client_id
     where f.form = 'infectious_disease' and f.status = 'completed' and f.submission_option = 'White Glove Labs'
       and not exists (select 1 from payments p where p.id = f.payment_id and p.status = 'approved')
     order by 1`,
  );
  const [count] = await rows<{ n: number }>(
    scene.pool,
    `select count(*)::int as n from payments where purpose = 'white_glove_lab' and status = 'approved'`,
  );
  return check(
    'W2. every approved White Glove charge has its completed screening',
    unmatched.map((r) => `${r.act}: ${r.problem}`),
    [`${count?.n ?? 0} approved White Glove charges`],
  );
}

/**
 * W3. Each screener without an acknowledgement can send the screening again with a new key (or
 * is told it is done, when recovery finished it); afterwards every screener has exactly one
 * completed screening and one approved White Glove charge.
 */
export async function screeningsCompleteOnce(scene: Scene): Promise<Check> {
  const answeredIds = new Set(
    scene.submissions.filter((s) => s.kind === 'screening' && acknowledged(s)).map((s) => s.client.id),
  );
  const completedBefore = new Set(
    (
      await rows<{ id: string }>(
        scene.pool,
        `select client_id as id from form_submissions where form = 'infectious_disease' and status = 'completed'`,
      )
    ).map((r) => r.id),
  );
  const problems: string[] = [];
  await Promise.all(
    scene.screeners.map(async (client) => {
      const key = `${scene.tag}-screen-again-${client.actId}`;
      let answer: Answer;
      try {
        answer = await sendWhiteGlove(scene.baseUrl, client, await tokenizeCard(scene.baseUrl, client), key);
      } catch (error) {
        answer = { cut: true, error: (error as Error).message };
      }
      const done = answeredIds.has(client.id) || completedBefore.has(client.id);
      const expected = done ? '409 ALREADY_COMPLETED' : '200';
      if (describeAnswer(answer) !== expected) {
        problems.push(`${client.actId}: a new screening answered ${explainAnswer(answer)}, not ${expected}`);
      }
      if (!done) scene.submissions.push({ client, kind: 'screening', key, answer });
    }),
  );
  const state = await rows<{ act: string; completed: number; charges: number; done: boolean }>(
    scene.pool,
    `select c.client_act_id as act, c.infectious_disease_form_completed as done,
        (select count(*)::int from form_submissions f
         where f.client_id = c.id and f.form = 'infectious_disease' and f.status = 'completed') as completed,
        (select count(*)::int from payments p
         where p.client_id = c.id and p.purpose = 'white_glove_lab' and p.status = 'approved') as charges
     from clients c where c.id = any($1::uuid[]) order by c.client_act_id`,
    [scene.screeners.map((c) => c.id)],
  );
  for (const r of state) {
    if (r.completed !== 1 || r.charges !== 1 || !r.done) {
      problems.push(
        `${r.act}: ${r.completed} completed screenings, ${r.charges} approved White Glove charges, client flag ${r.done}`,
      );
    }
  }
  return check('W3. every screener completes the screening once, charged once', problems, [
    `${scene.screeners.length - answeredIds.size} screeners without an acknowledgement tried again`,
  ]);
}

/*
 * Refunds (issue 22): clients cancel paid orders and an admin refunds parts of charges during the
 * load. Each refund is a ledger row linked to its charge and the gateway's record of it, or the
 * charge voided whole while its batch was open.
 */

const orderTable = (order: PlacedOrder) => (order.kind === 'vial request' ? 'vial_requests' : 'store_orders');
const sourceOf = (order: PlacedOrder) =>
  `${order.kind === 'vial request' ? 'vial-request' : 'store-order'}:${order.id}`;

/** R1. Every cancellation answered 200 answered its order cancelled, and the order is cancelled. */
export async function acknowledgedCancellationsDone(scene: Scene): Promise<Check> {
  const answered = scene.submissions.filter((s) => s.kind === 'cancellation' && acknowledged(s));
  const problems: string[] = [];
  for (const s of answered) {
    const order = s.order as PlacedOrder;
    const status = s.answer.cut ? null : s.answer.body?.status;
    const [row] = await rows<{ status: string }>(
      scene.pool,
      `select status from ${orderTable(order)} where id = $1`,
      [order.id],
    );
    if (status !== 'cancelled' || row?.status !== 'cancelled') {
      problems.push(
        `${s.client.actId}: ${order.kind} ${order.id} answered ${String(status)}, the order is ${row?.status ?? 'missing'}`,
      );
    }
  }
  return check('R1. every acknowledged cancellation cancelled its order', problems, [
    `${answered.length} acknowledged`,
  ]);
}

/** R2. Every staff refund answered 200 is in the ledger, refunded with the transaction it answered. */
export async function acknowledgedStaffRefundsRecorded(scene: Scene): Promise<Check> {
  const answered = scene.submissions.filter((s) => s.kind === 'staff refund' && acknowledged(s));
  const problems: string[] = [];
  for (const s of answered) {
    const body = s.answer.cut ? null : s.answer.body;
    const [row] = await rows<{ status: string; gateway_transaction_id: string | null; amount_cents: number }>(
      scene.pool,
      'select status, gateway_transaction_id, amount_cents from refunds where id = $1',
      [body?.refundId],
    );
    if (!row)
      problems.push(`${s.client.actId}: acknowledged refund ${String(body?.refundId)} has no ledger row`);
    else if (
      row.status !== 'refunded' ||
      row.gateway_transaction_id !== body?.transactionId ||
      row.amount_cents !== body?.amountCents
    ) {
      problems.push(
        `${s.client.actId}: acknowledged ${String(body?.transactionId)} of ${String(body?.amountCents)} cents, ledger says ${row.status} ${row.gateway_transaction_id} of ${row.amount_cents}`,
      );
    }
  }
  const refused = scene.submissions.filter(
    (s) => s.kind === 'staff refund' && !s.answer.cut && s.answer.status !== 200,
  );
  const reasons = new Map<string, number>();
  for (const s of refused)
    reasons.set(describeAnswer(s.answer), (reasons.get(describeAnswer(s.answer)) ?? 0) + 1);
  return check('R2. every acknowledged staff refund is in the ledger, refunded', problems, [
    `${answered.length} acknowledged`,
    ...(refused.length > 0 ? [`refused: ${[...reasons].map(([a, n]) => `${n} × ${a}`).join(', ')}`] : []),
  ]);
}

/**
 * R3. After the restart every client can cancel their order with a new key (the one not cancelled
 * yet is cancelled now, the cancelled one answers as it is): 200, cancelled.
 */
export async function ordersCancelAfterRestart(scene: Scene): Promise<Check> {
  const problems: string[] = [];
  await Promise.all(
    scene.cancelled.map(async (order) => {
      const key = `${scene.tag}-cancel-again-${order.client.actId}`;
      const answer = await cancelOrder(scene.baseUrl, order.client, order, key);
      scene.submissions.push({ client: order.client, kind: 'cancellation', key, answer, order });
      const status = answer.cut ? null : answer.body?.status;
      if (answer.cut || answer.status !== 200 || status !== 'cancelled') {
        problems.push(
          `${order.client.actId}: cancelling ${order.kind} again answered ${explainAnswer(answer)}`,
        );
      }
    }),
  );
  return check('R3. every order can be cancelled after the restart, and is', problems, [
    `${scene.cancelled.length} orders`,
  ]);
}

/**
 * R4. Each staff refund sent again with its key answers as the first did when it was answered
 * (the same refund); afterwards, the bound still holds (R6).
 */
export async function staffRefundsRepeatedAnswerAsFirst(scene: Scene): Promise<Check> {
  const staff = scene.staff;
  if (!staff) return check('R4. a repeated staff refund answers as the first', ['no admin session']);
  const first = scene.submissions.filter((s) => s.kind === 'staff refund');
  const problems: string[] = [];
  const repeats = await Promise.all(
    first.map(async (s) => {
      const order = s.order as PlacedOrder;
      const answer = await staffRefund(scene.baseUrl, staff, staffRefundBody(order), s.key);
      return { s, answer };
    }),
  );
  for (const { s, answer } of repeats) {
    if (!acknowledged(s) || s.answer.cut) continue;
    const before = s.answer.body?.refundId;
    const after = answer.cut ? null : answer.body?.refundId;
    if (answer.cut || answer.status !== 200 || before !== after) {
      problems.push(
        `${s.client.actId}: key ${s.key} answered refund ${String(before)}, again ${explainAnswer(answer)} ${String(after)}`,
      );
    }
  }
  const outcomes = new Map<string, number>();
  for (const { answer } of repeats) {
    outcomes.set(describeAnswer(answer), (outcomes.get(describeAnswer(answer)) ?? 0) + 1);
  }
  return check('R4. a repeated staff refund answers as the first', problems, [
    `${first.length} sent again: ${[...outcomes].map(([a, n]) => `${n} × ${a}`).join(', ')}`,
  ]);
}

/** What the admin asks in the load: $100.00 of a charge of $463.50, eight times at once. */
export function staffRefundBody(order: PlacedOrder) {
  return { paymentId: order.paymentId, amount: '100.00', reason: 'Goodwill refund (fault suite)' };
}

/**
 * R5. Every cancelled order's refund goes out once: the order settled, one live refund of its
 * charge under its source, of the whole charge, refunded or voided; one at the gateway (a refund
 * there, or the charge voided); the order's Client Activity row cancelled, its cancellation
 * e-mailed once; a vial request's pre-paid vial given back once.
 */
export async function cancellationsRefundedOnce(scene: Scene): Promise<Check> {
  const problems: string[] = [];
  const owing = await pollUntilEmpty<{ id: string }>(
    scene.pool,
    `select id::text from vial_requests where id = any($1::uuid[]) and cancel_refunds_settled_at is null
     union all
     select id::text from store_orders where id = any($1::uuid[]) and cancel_refunds_settled_at is null`,
    [scene.cancelled.map((o) => o.id)],
    scene.settleTimeoutMs,
  );
  const stillOwing = new Set(owing.map((r) => r.id));
  let voids = 0;
  let refunded = 0;
  for (const order of scene.cancelled) {
    const who = `${order.client.actId}: ${order.kind}`;
    const [row] = await rows<{
      status: string;
      refund_cents: number | null;
      total_cents: number;
      activity_stage: string | null;
      cancel_mails: number;
      gateway_status: string | null;
      gateway_refunds: number;
      gateway_refunded_cents: number;
      vials_available: number;
      returned_vials: number | null;
    }>(
      scene.pool,
      `select o.status, o.cancel_refund_cents as refund_cents, p.total_cents,
          a.stage_name as activity_stage,
          (select count(*)::int from outbox_messages m
           where m.dedupe_key = $3 || '-cancelled:' || o.id::text) as cancel_mails,
          t.status as gateway_status,
          (select count(*)::int from sandbox_refunds g
           where g.charge_transaction_id = t.transaction_id and g.status = 'refunded') as gateway_refunds,
          (select coalesce(sum(g.amount_cents), 0)::int from sandbox_refunds g
           where g.charge_transaction_id = t.transaction_id and g.status = 'refunded') as gateway_refunded_cents,
          c.bio_insurance_vials_available as vials_available,
          ${order.kind === 'vial request' ? 'o.cancel_returned_vials' : 'null::int'} as returned_vials
       from ${orderTable(order)} o join payments p on p.id = $2 join clients c on c.id = o.client_id
       left join client_activities a on a.id = o.client_activity_id
       left join sandbox_transactions t on t.transaction_id = p.gateway_transaction_id
       where o.id = $1`,
      [order.id, order.paymentId, order.kind === 'vial request' ? 'vial-request' : 'store-order'],
    );
    if (!row) {
      problems.push(`${who} ${order.id} is missing`);
      continue;
    }
    const live = await rows<{ status: string; amount_cents: number; kind: string | null }>(
      scene.pool,
      `select status, amount_cents, kind from refunds
       where payment_id = $1 and source = $2 and status <> 'failed'`,
      [order.paymentId, sourceOf(order)],
    );
    if (row.status !== 'cancelled') problems.push(`${who} is ${row.status}`);
    if (stillOwing.has(order.id))
      problems.push(`${who}: its refund is still owed after ${scene.settleTimeoutMs} ms`);
    if (row.refund_cents !== row.total_cents) {
      problems.push(`${who}: ${row.refund_cents} cents owed back of a charge of ${row.total_cents}`);
    }
    const done = live.filter((r) => r.status === 'refunded' || r.status === 'voided');
    if (live.length !== 1 || done.length !== 1 || done[0]?.amount_cents !== row.total_cents) {
      problems.push(
        `${who}: ${live.length} live refunds in the ledger (${live.map((r) => `${r.status} ${r.amount_cents}`).join(', ') || 'none'}), expected one of ${row.total_cents} cents`,
      );
    }
    const voided = row.gateway_status === 'voided';
    if (voided) voids += 1;
    else if (row.gateway_refunds > 0) refunded += 1;
    const atGateway = row.gateway_refunds + (voided ? 1 : 0);
    if (atGateway !== 1 || (!voided && row.gateway_refunded_cents !== row.total_cents)) {
      problems.push(
        `${who}: at the gateway the charge is ${row.gateway_status} with ${row.gateway_refunds} refunds of ${row.gateway_refunded_cents} cents`,
      );
    }
    if (done[0] && (done[0].status === 'voided') !== voided) {
      problems.push(
        `${who}: the ledger says ${done[0].status}, the gateway's charge is ${row.gateway_status}`,
      );
    }
    if (row.activity_stage !== 'Cancelled')
      problems.push(`${who}: its Client Activity row is ${row.activity_stage}`);
    if (row.cancel_mails !== 1) problems.push(`${who}: ${row.cancel_mails} cancellation e-mails`);
    if (order.kind === 'vial request' && (row.returned_vials !== 1 || row.vials_available !== 1)) {
      problems.push(
        `${who}: ${row.returned_vials} pre-paid vials given back, the client has ${row.vials_available} (had 1 before ordering)`,
      );
    }
  }
  return check('R5. every cancelled order is refunded once, its vials given back once', problems, [
    `${scene.cancelled.length} orders: ${refunded} refunded, ${voids} voided while unsettled`,
  ]);
}

/** R6. No charge is refunded beyond itself, in the ledger or at the gateway. */
export async function refundsWithinCharges(scene: Scene): Promise<Check> {
  const over = await rows<{ act: string | null; problem: string }>(
    scene.pool,
    `select c.client_act_id as act,
        'charge ' || p.gateway_transaction_id || ' of ' || p.total_cents || ' cents: the ledger refunded ' ||
          sum(r.amount_cents) || ' cents' as problem
     from refunds r join payments p on p.id = r.payment_id join clients c on c.id = p.client_id
     where r.status in ('refunded', 'voided')
     group by c.client_act_id, p.id having sum(r.amount_cents) > p.total_cents
     union all
     select null, 'gateway charge ' || t.transaction_id || ' (' || t.status || ') of ' || t.amount_cents ||
          ' cents: refunded ' || sum(g.amount_cents) || ' cents'
     from sandbox_refunds g join sandbox_transactions t on t.transaction_id = g.charge_transaction_id
     where g.status = 'refunded'
     group by t.transaction_id
     having sum(g.amount_cents) > t.amount_cents or (t.status = 'voided' and sum(g.amount_cents) > 0)
     order by 1`,
  );
  const [count] = await rows<{ n: number }>(
    scene.pool,
    `select count(distinct payment_id)::int as n from refunds where status in ('refunded', 'voided')`,
  );
  return check(
    'R6. refunded <= charged for every charge, in the ledger and at the gateway',
    over.map((r) => `${r.act ?? 'gateway'}: ${r.problem}`),
    [`${count?.n ?? 0} charges refunded`],
  );
}

/**
 * R7. One gateway refund per ledger refund: each refund at the gateway has exactly one ledger
 * row, refunded with its transaction and amount, and each refunded ledger row has its gateway
 * refund; each voided charge at the gateway has one voided ledger refund, and the other way round.
 */
export async function gatewayRefundsMatchLedger(scene: Scene): Promise<Check> {
  const unmatched = await rows<{ problem: string }>(
    scene.pool,
    `select 'gateway refund ' || g.transaction_id || ' (' || g.reference || ', ' || g.amount_cents ||
          ' cents) has ' || count(r.id) || ' ledger rows: ' ||
          coalesce(string_agg(r.status || ' ' || coalesce(r.gateway_transaction_id, '-') || ' ' || r.amount_cents, ', '), '')
          as problem
     from sandbox_refunds g left join refunds r on r.reference = g.reference
     group by g.transaction_id, g.reference, g.amount_cents, g.status
     having count(r.id) <> 1 or g.status <> 'refunded'
       or bool_or(r.status <> 'refunded' or r.gateway_transaction_id <> g.transaction_id
                  or r.amount_cents <> g.amount_cents)
     union all
     select 'ledger refund ' || r.reference || ' is refunded (' || coalesce(r.gateway_transaction_id, '-') ||
          ') with no refund at the gateway'
     from refunds r where r.status = 'refunded' and not exists (
       select 1 from sandbox_refunds g where g.reference = r.reference and g.transaction_id = r.gateway_transaction_id)
     union all
     select 'charge ' || p.gateway_transaction_id || ': ' || count(r.id) || ' voided ledger refunds, the gateway says ' ||
          coalesce(t.status, 'nothing')
     from payments p join refunds r on r.payment_id = p.id and r.status = 'voided'
     left join sandbox_transactions t on t.transaction_id = p.gateway_transaction_id
     group by p.id, t.status having count(r.id) <> 1 or t.status is distinct from 'voided'
     union all
     select 'gateway charge ' || t.transaction_id || ' is voided with no voided ledger refund'
     from sandbox_transactions t where t.status = 'voided' and not exists (
       select 1 from payments p join refunds r on r.payment_id = p.id and r.status = 'voided'
       where p.gateway_transaction_id = t.transaction_id)
     order by 1`,
  );
  const [count] = await rows<{ refunds: number; voids: number }>(
    scene.pool,
    `select (select count(*)::int from sandbox_refunds) as refunds,
        (select count(*)::int from sandbox_transactions where status = 'voided') as voids`,
  );
  return check(
    'R7. one gateway refund per ledger refund, one void per ledger void',
    unmatched.map((r) => r.problem),
    [`${count?.refunds ?? 0} refunds and ${count?.voids ?? 0} voids at the gateway`],
  );
}

/**
 * R8. Every refund sent (refunded or voided) has one Client Activity row and its receipt e-mail
 * once; a refund that failed has neither.
 */
export async function refundsRecordedOnce(scene: Scene): Promise<Check> {
  const wrong = await rows<{
    act: string;
    reference: string;
    status: string;
    activities: number;
    mails: number;
  }>(
    scene.pool,
    `select * from (
       select c.client_act_id as act, r.reference, r.status,
          (select count(*)::int from client_activities a where a.refund_id = r.id) as activities,
          (select count(*)::int from outbox_messages o where o.dedupe_key = 'refund:' || r.id::text) as mails
       from refunds r join clients c on c.id = r.client_id) x
     where (status in ('refunded', 'voided') and (activities <> 1 or mails <> 1))
        or (status not in ('refunded', 'voided') and (activities <> 0 or mails <> 0))
     order by act`,
  );
  const [count] = await rows<{ n: number }>(
    scene.pool,
    `select count(*)::int as n from refunds where status in ('refunded', 'voided')`,
  );
  return check(
    'R8. every refund sent has one Client Activity row and its receipt e-mail once',
    wrong.map(
      (r) =>
        `${r.act}: ${r.status} refund ${r.reference} has ${r.activities} activity rows, ${r.mails} e-mails`,
    ),
    [`${count?.n ?? 0} refunds sent`],
  );
}
