import type pg from 'pg';
import { addDays } from '../../domain/dates';
import { formatUsd } from '../../domain/money';
import { rows } from './fault-database';
import type { Check } from './invariants';
import type { AgreementFigures, SimulatedClient } from './portal-client';

/**
 * What must hold after the billing simulation (./billing-simulation.ts), read from the tables as
 * an auditor would: the years, the notices, the ledger, the sandbox gateway's record, Client
 * Activity and the e-mail outbox. Amounts and days are the spec's, written out here.
 */

/** The payers of the mix: how each pays, and what the client does when billing asks. */
export type PayerKind =
  | 'card'
  | 'ach'
  | 'declining card'
  | 'short ACH'
  | 'expiring card'
  | 'no method'
  | 'plan buyer'
  | 'leap day'
  | 'check'
  | 'newborn'
  | 'newborn declined deposit'
  | 'newborn declining card';

/** A check staff recorded on the storage check queue for one of the client's years, and its answer. */
export interface CheckSent {
  feeId: string;
  yearNumber: number | null;
  checkNumber: string;
  amountCents: number;
  /** As typed: MM/DD/YYYY. */
  checkDate: string;
  /** The first day of the step it was recorded in. */
  day: string;
  /** The first check of a year, the same check typed again, another check for a year already paid, a check for a year the client was paying online at that moment. */
  why: 'first' | 'same again' | 'another' | 'racing a card' | 'racing autopay';
  status: number | 'no answer';
}

/** What the main contact of a newborn finance agreement did, and what each step answered. */
export interface NewbornCourse {
  figures: AgreementFigures;
  /** The first simulated day on which staff send the link. */
  sendOn: string;
  /** The day the main contact signs: the real day, the one the portal's clock dates the signing. */
  signOn: string;
  /** The link token of the e-mailed link, once sent. */
  link: string | null;
  /** Each signing: the card given and the answer (a declined deposit answers 402). */
  signings: { card: 'approved' | 'declining'; status: number | 'no answer' }[];
  /** The day the declining card was given for the installments, and the day (if ever) it was replaced and the overdue paid. */
  switchOn: string | null;
  switchedOn: string | null;
  fixOn: string | null;
  fixedOn: string | null;
  /** Signs, and pays off, in two tabs at once. */
  twice: boolean;
  /** The day the balance is paid off early (if ever), and the day it was. */
  payoffOn: string | null;
  paidOffOn: string | null;
  /** The page's payments that answered, with the total the button named. */
  payments: { pay: 'overdue' | 'payoff'; expectedTotalCents: number; status: number | 'no answer' }[];
}

export interface SimulatedPayer extends SimulatedClient {
  kind: PayerKind;
  /** 1980-01-01, or for a newborn a day of the last year. */
  bornOn: string;
  bankedOn: string;
  /** Paid-until when the simulation starts: an anniversary of the banked date. */
  paidUntil: string;
  /** Saves a new card when a year is overdue or retrying, or when told the card expires. */
  fixes: boolean;
  cardExpiry: { month: number; year: number } | null;
  /** The first day of the step in which the client saved the new card. */
  fixedOn: string | null;
  planBoughtOn: string | null;
  /** Paid-until the plan bought gives: five years on from the date already paid. */
  planPaidUntil: string | null;
  /** The checks staff recorded for the client's years. */
  checks: CheckSent[];
  /** A check payer who answered a year's invoice with a card too (the year's id): its check and its charge meet on the charge day. */
  cardAddedFor: string | null;
  newborn: NewbornCourse | null;
}

/** spec 2 and the price book as shipped: $350.00 by card or check, $339.81 by ACH. */
const CARD_OR_CHECK_CENTS = 35_000;
const ACH_CENTS = 33_981;
const NOTICE_SUBJECT = 'Your annual storage renews soon';
const EXPIRY_WARNING = 'expires before your next annual storage payment';

const leapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The n-th anniversary: the same day, and 29 February on 28 February in a common year. */
export function anniversary(bankedOn: string, n: number): string {
  const year = Number(bankedOn.slice(0, 4)) + n;
  const monthDay = bankedOn.slice(5);
  return `${year}-${monthDay === '02-29' && !leapYear(year) ? '02-28' : monthDay}`;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The last day an expiring card is good: the end of its expiry month. */
export function expiryEnd(expiry: { month: number; year: number }): string {
  const next =
    expiry.month === 12
      ? `${expiry.year + 1}-01-01`
      : `${expiry.year}-${String(expiry.month + 1).padStart(2, '0')}-01`;
  return addDays(next, -1);
}

/**
 * The clients whose paid-until is not the end of the last year paid (or the start's paid-until,
 * or the plan's), as the tables stand after a step.
 */
export async function paidUntilDrift(
  pool: pg.Pool,
  payers: SimulatedPayer[],
  asOf: string,
): Promise<string[]> {
  const drift = await rows<{ act: string; paid_until: string; expected: string }>(
    pool,
    `select c.client_act_id as act, c.annual_storage_paid_until::text as paid_until,
        greatest(x.floor::date, max(f.covers_until) filter (where f.status in ('paid', 'waived')))::text
          as expected
     from unnest($1::uuid[], $2::text[]) as x(id, floor)
     join clients c on c.id = x.id
     left join annual_storage_fees f on f.client_id = c.id
     group by c.id, c.client_act_id, c.annual_storage_paid_until, x.floor
     having c.annual_storage_paid_until is distinct from
       greatest(x.floor::date, max(f.covers_until) filter (where f.status in ('paid', 'waived')))`,
    [payers.map((p) => p.id), payers.map((p) => p.planPaidUntil ?? p.paidUntil)],
  );
  return drift.map(
    (d) => `after the run to ${asOf}: ${d.act} paid until ${d.paid_until}, expected ${d.expected}`,
  );
}

/**
 * The years of clients paying by check (no method ever on file) whose state is not what their
 * charge day says, after a step: overdue from 14 days after it while unpaid, never before.
 */
export async function overdueDrift(pool: pg.Pool, payers: SimulatedPayer[], asOf: string): Promise<string[]> {
  const ids = payers.filter((p) => p.kind === 'check').map((p) => p.id);
  const wrong = await rows<{ act: string; year_number: number; status: string; charge_on: string }>(
    pool,
    `select c.client_act_id as act, f.year_number, f.status, f.charge_on::text
     from annual_storage_fees f join clients c on c.id = f.client_id
     where f.client_id = any($1::uuid[]) and (
       (f.status = 'overdue' and f.charge_on + 14 > $2::date)
       or (f.status = 'noticed' and f.charge_on + 14 <= $2::date))`,
    [ids, asOf],
  );
  return wrong.map(
    (w) =>
      `after the run to ${asOf}: ${w.act} year ${w.year_number} ${w.status}, its charge day ${w.charge_on}`,
  );
}

interface YearRow {
  id: string;
  client_id: string;
  year_number: number | null;
  due_date: string;
  covers_until: string | null;
  status: string;
  notice_on: string | null;
  charge_on: string | null;
  method_kind: string | null;
  tries: number;
  amount_cents: number;
  ach_amount_cents: number | null;
  payment_id: string | null;
  paid_at: string | null;
  check_number: string | null;
  check_amount_cents: number | null;
  check_recorded_at: string | null;
}

interface PaymentRow {
  id: string;
  client_id: string;
  /** The paid order's own operation (its charge is another, keyed `<order key>:charge`). */
  order_operation_id: string | null;
  idempotency_key: string;
  purpose: string;
  status: string;
  method_kind: string;
  fee_cents: number;
  total_cents: number;
  reference: string | null;
  gateway_transaction_id: string | null;
}

interface GatewayRow {
  reference: string;
  status: string;
  amount_cents: number;
  transaction_id: string;
}

interface Mail {
  dedupe_key: string;
  subject: string;
  text_body: string;
}

interface ActivityRow {
  client_id: string;
  payment_id: string | null;
  type: string;
  purchased_plan_name: string | null;
  amount_cents: number | null;
}

/** Per client: approved in the ledger, approved at the gateway, checks recorded, Client Activity, receipts e-mailed. */
interface MoneyTotals {
  ledger: number;
  gateway: number;
  checks: number;
  activity: number;
  mail: number;
}

/** The dedupe key of the e-mail that receipts an approved payment, by what it paid for. */
function receiptKey(
  p: PaymentRow,
  of: {
    paidYearOf: Map<string, string>;
    planOrderOf: Map<string, string>;
    agreementOfDeposit: Map<string, string>;
    installmentOfPayment: Map<string, string>;
  },
): string {
  switch (p.purpose) {
    case 'annual_storage_renewal':
      return `storage-renewal:${of.paidYearOf.get(p.id)}:paid`;
    case 'storage_plan':
      return `storage-plan:${of.planOrderOf.get(p.id)}`;
    case 'newborn_deposit':
      return `newborn-agreement:${of.agreementOfDeposit.get(p.id)}`;
    case 'newborn_installment':
      // The run's charge of one installment, or a payment on the agreement's page (one or more).
      return p.idempotency_key.startsWith('newborn-installment:')
        ? `newborn-installment:${of.installmentOfPayment.get(p.id)}:paid`
        : `newborn-payment:${p.order_operation_id}`;
    default:
      return `payment:${p.id}`;
  }
}

function check(name: string, problems: string[], notes: string[] = []): Check {
  return { name, ok: problems.length === 0, details: [...problems, ...notes] };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}

/** The bank's remit-to details in demo mode, as the README lists them (REMIT_TO_PAYEE, REMIT_TO_ADDRESS). */
const REMIT_TO_PAYEE = 'Stem Cell Bank';
const REMIT_TO_STREET = '1450 Brickell Avenue, Suite 1900';

/** What check B6 holds, from the years, the clients' checks as staff recorded them, the renewals' tries, Client Activity and the e-mails. */
function checkPaidYearProblems(input: {
  years: YearRow[];
  payers: SimulatedPayer[];
  renewalTries: Map<string, PaymentRow[]>;
  activities: ActivityRow[];
  mailByKey: Map<string, Mail[]>;
  last: string;
}): string[] {
  const { years, renewalTries, mailByKey, last } = input;
  const problems: string[] = [];
  const payerOf = new Map(input.payers.map((p) => [p.id, p]));
  const checkActivities = input.activities.filter((a) => !a.payment_id);
  const matched = new Set<ActivityRow>();
  for (const year of years) {
    const payer = payerOf.get(year.client_id);
    const who = `${payer?.actId ?? year.client_id} (${payer?.kind}) year ${year.year_number} due ${year.due_date}`;
    const sent = payer?.checks.filter((c) => c.feeId === year.id) ?? [];
    const charged = (renewalTries.get(year.id) ?? []).filter((p) => p.status === 'approved').length;
    if (year.check_recorded_at) {
      const recorded = sent.filter(
        (c) => c.status === 200 && (c.why === 'first' || c.why.startsWith('racing')),
      );
      if (year.status !== 'paid' || year.payment_id || charged > 0) {
        problems.push(
          `${who}: check no. ${year.check_number} recorded, and the year is ${year.status} with ${year.payment_id ? 'a payment' : 'no payment'} and ${charged} approved renewals`,
        );
      }
      if (recorded.length !== 1 || recorded[0]?.checkNumber !== year.check_number) {
        problems.push(
          `${who}: holds check no. ${year.check_number}; staff were answered 200 for ${recorded.map((c) => c.checkNumber).join(', ') || 'none'}`,
        );
      }
      if (year.check_amount_cents !== CARD_OR_CHECK_CENTS || year.amount_cents !== CARD_OR_CHECK_CENTS) {
        problems.push(
          `${who}: a check of ${year.check_amount_cents} cents for a year of ${year.amount_cents}`,
        );
      }
      const rowsOfCheck = checkActivities.filter(
        (a) =>
          a.client_id === year.client_id &&
          a.type === 'Annual Storage Fee' &&
          a.purchased_plan_name?.includes(`check no. ${year.check_number}`),
      );
      for (const a of rowsOfCheck) matched.add(a);
      if (rowsOfCheck.length !== 1 || rowsOfCheck[0]?.amount_cents !== year.check_amount_cents) {
        problems.push(
          `${who}: Client Activity ${rowsOfCheck.map((a) => a.amount_cents).join(', ') || 'none'} for check no. ${year.check_number}`,
        );
      }
    } else if (sent.some((c) => c.status === 200)) {
      problems.push(`${who}: a check was answered 200, and the year holds none (${year.status})`);
    }
    for (const c of sent) {
      const expected = c.why === 'another' ? [409] : c.why.startsWith('racing') ? [200, 409] : [200];
      if (!expected.includes(c.status as number)) {
        problems.push(`${who}: check no. ${c.checkNumber} (${c.why}) on ${c.day} answered ${c.status}`);
      }
    }
    if (year.status === 'overdue' && (year.paid_at || year.check_recorded_at || year.payment_id)) {
      problems.push(`${who}: overdue, yet paid (${year.paid_at}, check ${year.check_number})`);
    }
    if (payer?.kind === 'check' || payer?.kind === 'no method') {
      const unpaid = !['paid', 'covered', 'waived'].includes(year.status);
      const pastGrace = addDays(year.charge_on ?? year.due_date, 14) <= last;
      if ((year.status === 'overdue') !== (unpaid && pastGrace)) {
        problems.push(
          `${who}: ${year.status} on ${last}, charge day ${year.charge_on}: ${unpaid ? 'unpaid' : 'paid'}`,
        );
      }
    }
    // Noticed without a method on file: the notice is the invoice a check answers.
    if (year.method_kind === 'none' && payer) {
      const notice = mailByKey.get(`storage-renewal:${year.id}:notice`)?.[0]?.text_body ?? '';
      const memo = `${payer.actId} storage year ${year.year_number}`;
      if (
        ![REMIT_TO_PAYEE, REMIT_TO_STREET, memo, formatUsd(CARD_OR_CHECK_CENTS)].every((w) =>
          notice.includes(w),
        )
      ) {
        problems.push(
          `${who}: the invoice does not name the payee, the remit-to address, "${memo}" and $350.00`,
        );
      }
    }
  }
  for (const a of checkActivities) {
    if (!matched.has(a)) {
      problems.push(
        `${a.client_id}: Client Activity "${a.purchased_plan_name}" of ${a.amount_cents} cents with no payment and no check`,
      );
    }
  }
  return problems;
}

export async function billingChecks(
  pool: pg.Pool,
  payers: SimulatedPayer[],
  window: { first: string; last: string; today: string },
): Promise<{ checks: Check[]; figures: Record<string, number> }> {
  const ids = payers.map((p) => p.id);
  const years = await rows<YearRow>(
    pool,
    `select id, client_id, year_number, due_date::text, covers_until::text, status, notice_on::text,
        charge_on::text, method_kind, tries, amount_cents, ach_amount_cents, payment_id, paid_at::text,
        check_number, check_amount_cents, check_recorded_at::text
     from annual_storage_fees where client_id = any($1::uuid[]) order by client_id, due_date`,
    [ids],
  );
  const payments = await rows<PaymentRow>(
    pool,
    `select p.id, p.client_id, p.idempotency_key, p.purpose, p.status, p.method_kind, p.fee_cents,
        p.total_cents, p.reference, p.gateway_transaction_id,
        (select o.id from operations o where o.scope = 'client:' || p.client_id
           and o.idempotency_key = regexp_replace(p.idempotency_key, ':charge$', '')) as order_operation_id
     from payments p where p.client_id = any($1::uuid[])`,
    [ids],
  );
  const gateway = await rows<GatewayRow>(
    pool,
    `select t.reference, t.status, t.amount_cents, t.transaction_id from sandbox_transactions t
     where t.reference = any($1::text[]) or t.customer_ref like 'cust-sim-%'
        or (t.status = 'approved' and not exists (select 1 from payments p where p.reference = t.reference))`,
    [payments.flatMap((p) => (p.reference ? [p.reference] : []))],
  );
  const activities = await rows<ActivityRow>(
    pool,
    `select client_id, payment_id, type, purchased_plan_name, amount_cents from client_activities
     where client_id = any($1::uuid[])`,
    [ids],
  );
  // The newborn agreements' payments, by the fact their receipt is e-mailed for.
  const deposits = await rows<{ id: string; payment_id: string }>(
    pool,
    `select id, deposit_payment_id as payment_id from newborn_agreements
     where client_id = any($1::uuid[]) and deposit_payment_id is not null`,
    [ids],
  );
  const installmentsPaid = await rows<{ id: string; payment_id: string }>(
    pool,
    `select id, payment_id from newborn_installments
     where client_id = any($1::uuid[]) and payment_id is not null`,
    [ids],
  );
  const planOrders = await rows<{ id: string; payment_id: string | null }>(
    pool,
    'select id, payment_id from storage_plan_orders where client_id = any($1::uuid[])',
    [ids],
  );
  const mails = await rows<Mail & { client_id: string }>(
    pool,
    `select o.dedupe_key, o.subject, o.text_body, c.id as client_id
     from outbox_messages o join clients c on lower(c.email) = lower(o.recipient)
     where c.id = any($1::uuid[])`,
    [ids],
  );
  const mailByKey = groupBy(mails, (m) => m.dedupe_key ?? '');
  const yearsByClient = groupBy(years, (y) => y.client_id);
  const yearById = new Map(years.map((y) => [y.id, y]));
  const paymentById = new Map(payments.map((p) => [p.id, p]));
  const renewalTries = groupBy(
    payments.filter((p) => p.purpose === 'annual_storage_renewal'),
    (p) => p.idempotency_key.split(':')[1] ?? '',
  );
  const payerOf = new Map(payers.map((p) => [p.id, p]));
  const act = (clientId: string) => payerOf.get(clientId)?.actId ?? clientId;
  const { first, last } = window;

  // 1. Every client-year is paid exactly once or overdue.
  const yearProblems: string[] = [];
  for (const payer of payers) {
    const mine = yearsByClient.get(payer.id) ?? [];
    const expected: string[] = [];
    let n = 0;
    while (anniversary(payer.bankedOn, n) < payer.paidUntil) n += 1;
    for (
      let due = anniversary(payer.bankedOn, n);
      addDays(due, -30) <= last;
      due = anniversary(payer.bankedOn, n)
    ) {
      expected.push(due);
      // A plan bought between a notice and its due date covers that year and the next five.
      if (payer.planBoughtOn && due > payer.planBoughtOn) break;
      n += 1;
    }
    const dues = mine.map((y) => y.due_date);
    if (dues.join() !== expected.join()) {
      yearProblems.push(
        `${payer.actId} (${payer.kind}): years due ${dues.join(', ')}; expected ${expected.join(', ')}`,
      );
    }
    for (const year of mine) {
      const who = `${payer.actId} (${payer.kind}) year ${year.year_number} due ${year.due_date}`;
      const approvedRenewals = (renewalTries.get(year.id) ?? []).filter((p) => p.status === 'approved');
      const other = year.payment_id ? paymentById.get(year.payment_id) : undefined;
      const approvedOther =
        other && other.purpose !== 'annual_storage_renewal' && other.status === 'approved' ? 1 : 0;
      // A check recorded on the queue pays a year as a charge would, and writes no ledger row.
      const byCheck = year.check_recorded_at ? 1 : 0;
      const paidTimes = approvedRenewals.length + approvedOther + byCheck;
      if (year.status === 'paid' && (paidTimes !== 1 || (!byCheck && other?.status !== 'approved'))) {
        yearProblems.push(
          `${who}: paid by ${paidTimes} approved charges and checks (its payment ${other?.status ?? 'none'}${byCheck ? `, check no. ${year.check_number}` : ''})`,
        );
      }
      if (year.status !== 'paid' && paidTimes > 0) {
        yearProblems.push(`${who}: ${year.status}, yet ${paidTimes} approved charges and checks`);
      }
      const chargeOn = year.charge_on ?? year.due_date;
      const closed = addDays(chargeOn, 14) < last;
      const coveredByPlan = payer.planBoughtOn !== null && year.due_date > payer.planBoughtOn;
      const allowed = coveredByPlan
        ? ['covered']
        : closed
          ? ['paid', 'overdue']
          : ['noticed', 'retrying', 'overdue', 'paid'];
      if (!allowed.includes(year.status)) {
        yearProblems.push(
          `${who}: ${year.status} on ${last} (charge day ${chargeOn}); expected ${allowed.join(' or ')}`,
        );
      }
    }
    if (payer.planBoughtOn) {
      const [row] = await rows<{ paid_until: string }>(
        pool,
        'select annual_storage_paid_until::text as paid_until from clients where id = $1',
        [payer.id],
      );
      if (row?.paid_until !== payer.planPaidUntil) {
        yearProblems.push(
          `${payer.actId}: the 5-year plan left storage paid until ${row?.paid_until}, expected ${payer.planPaidUntil}`,
        );
      }
    }
  }
  const leapDues = payers
    .filter((p) => p.kind === 'leap day')
    .flatMap((p) => (yearsByClient.get(p.id) ?? []).map((y) => y.due_date.slice(5)));

  // 2. Every notice sent exactly once, 15 to 45 days ahead of its charge, naming the amount.
  const noticeProblems: string[] = [];
  for (const year of years) {
    const who = `${act(year.client_id)} year ${year.year_number} due ${year.due_date}`;
    const notices = mailByKey.get(`storage-renewal:${year.id}:notice`) ?? [];
    if (notices.length !== 1 || notices[0]?.subject !== NOTICE_SUBJECT) {
      noticeProblems.push(`${who}: ${notices.length} notices (${notices.map((m) => m.subject).join('; ')})`);
    }
    if (!year.notice_on || !year.charge_on) {
      noticeProblems.push(`${who}: notice day ${year.notice_on}, charge day ${year.charge_on}`);
      continue;
    }
    const ahead = daysBetween(year.notice_on, year.charge_on);
    if (ahead < 15 || ahead > 45) noticeProblems.push(`${who}: noticed ${ahead} days before its charge`);
    const noticeDay = addDays(year.due_date, -30) < first ? first : addDays(year.due_date, -30);
    if (year.notice_on !== noticeDay)
      noticeProblems.push(`${who}: noticed on ${year.notice_on}, expected ${noticeDay}`);
    const chargeDay =
      daysBetween(year.notice_on, year.due_date) >= 15 ? year.due_date : addDays(year.notice_on, 15);
    if (year.charge_on !== chargeDay)
      noticeProblems.push(`${who}: charge day ${year.charge_on}, expected ${chargeDay}`);
    const amount = year.method_kind === 'ach' ? ACH_CENTS : CARD_OR_CHECK_CENTS;
    if (notices[0] && !notices[0].text_body.includes(`The amount is ${formatUsd(amount)}.`)) {
      noticeProblems.push(
        `${who}: the notice does not name ${formatUsd(amount)} (paid by ${year.method_kind})`,
      );
    }
  }
  const noticeMails = mails.filter((m) => m.subject === NOTICE_SUBJECT).length;
  if (noticeMails !== years.length) {
    noticeProblems.push(`${noticeMails} notice e-mails for ${years.length} years`);
  }

  // 3. No charge without a notice: each try after its notice, on the charge day or a retry day.
  const chargeProblems: string[] = [];
  const offSchedule: string[] = [];
  for (const [feeId, tries] of renewalTries) {
    const year = yearById.get(feeId);
    for (const p of tries) {
      const day = p.idempotency_key.split(':')[2] ?? '';
      const who = `${act(p.client_id)} renewal try ${p.idempotency_key} (${p.status})`;
      if (!year?.notice_on || !year.charge_on) {
        chargeProblems.push(`${who}: no year noticed for it`);
        continue;
      }
      if ((mailByKey.get(`storage-renewal:${year.id}:notice`) ?? []).length !== 1) {
        chargeProblems.push(`${who}: its year has no notice e-mail`);
      }
      if (day < year.charge_on || daysBetween(year.notice_on, day) < 15) {
        chargeProblems.push(
          `${who}: tried on ${day}, noticed ${year.notice_on}, charge day ${year.charge_on}`,
        );
      }
      const expected = p.method_kind === 'ach' ? ACH_CENTS : CARD_OR_CHECK_CENTS;
      if (p.total_cents !== expected || p.fee_cents !== 0) {
        chargeProblems.push(
          `${who}: ${p.total_cents} cents (fee ${p.fee_cents}) by ${p.method_kind}; expected ${expected}`,
        );
      }
    }
    // The k-th decline never comes before its day (the charge day, then days 3, 7 and 14 after it);
    // a try cut short by a kill is not a decline, and moves the next one a day on.
    const declinedDays = tries
      .filter((p) => p.status === 'declined')
      .map((p) => p.idempotency_key.split(':')[2] ?? '')
      .sort();
    if (year?.charge_on) {
      const chargeOn = year.charge_on;
      for (const [k, day] of declinedDays.entries()) {
        const earliest = addDays(chargeOn, [0, 3, 7, 14][k] ?? Number.POSITIVE_INFINITY);
        const who = `${act(year.client_id)} year ${year.year_number} (charge day ${chargeOn})`;
        if (k > 3) chargeProblems.push(`${who}: declined a ${k + 1}th time, on ${day}`);
        else if (day < earliest)
          chargeProblems.push(`${who}: decline ${k + 1} on ${day}, before ${earliest}`);
        else if (day !== earliest) offSchedule.push(`${who}: decline ${k + 1} on ${day}, not ${earliest}`);
      }
    }
    const declined = declinedDays.length;
    if (year && declined !== year.tries) {
      chargeProblems.push(
        `${act(year.client_id)} year ${year.year_number}: ${declined} declined tries, the year counts ${year.tries}`,
      );
    }
  }

  // 4. Ledger, sandbox gateway, Client Activity and e-mails agree to the cent.
  const moneyProblems: string[] = [];
  const gatewayByRef = groupBy(gateway, (t) => t.reference);
  const activityByPayment = groupBy(
    activities.filter((a) => a.payment_id),
    (a) => a.payment_id ?? '',
  );
  const agreementOfDeposit = new Map(deposits.map((d) => [d.payment_id, d.id]));
  const installmentOfPayment = new Map(installmentsPaid.map((i) => [i.payment_id, i.id]));
  const planOrderOf = new Map(
    planOrders.flatMap((o) => (o.payment_id ? [[o.payment_id, o.id] as const] : [])),
  );
  const paidYearOf = new Map(years.flatMap((y) => (y.payment_id ? [[y.payment_id, y.id] as const] : [])));
  const totals = new Map<string, MoneyTotals>();
  const totalsOf = (clientId: string) => {
    const sums = totals.get(clientId) ?? { ledger: 0, gateway: 0, checks: 0, activity: 0, mail: 0 };
    totals.set(clientId, sums);
    return sums;
  };
  for (const p of payments) {
    const who = `${act(p.client_id)} ${p.purpose} ${p.idempotency_key} (${p.status})`;
    const charges = gatewayByRef.get(p.reference ?? '') ?? [];
    const approvedAtGateway = charges.filter((t) => t.status === 'approved');
    if (p.status !== 'approved') {
      if (approvedAtGateway.length > 0) moneyProblems.push(`${who}: approved at the gateway`);
      continue;
    }
    const sums = totalsOf(p.client_id);
    sums.ledger += p.total_cents;
    for (const t of approvedAtGateway) sums.gateway += t.amount_cents;
    if (approvedAtGateway.length !== 1 || approvedAtGateway[0]?.transaction_id !== p.gateway_transaction_id) {
      moneyProblems.push(`${who}: ${approvedAtGateway.length} approved charges at the gateway`);
    } else if (approvedAtGateway[0]?.amount_cents !== p.total_cents) {
      moneyProblems.push(
        `${who}: the gateway charged ${approvedAtGateway[0]?.amount_cents}, the ledger ${p.total_cents}`,
      );
    }
    const rowsOfActivity = activityByPayment.get(p.id) ?? [];
    for (const a of rowsOfActivity) sums.activity += a.amount_cents ?? 0;
    if (rowsOfActivity.length !== 1 || rowsOfActivity[0]?.amount_cents !== p.total_cents) {
      moneyProblems.push(
        `${who}: Client Activity ${rowsOfActivity.map((a) => a.amount_cents).join(', ') || 'none'} for ${p.total_cents}`,
      );
    }
    const key = receiptKey(p, {
      paidYearOf,
      planOrderOf,
      agreementOfDeposit,
      installmentOfPayment,
    });
    const receipts = mailByKey.get(key) ?? [];
    if (receipts.length === 1 && receipts[0]?.text_body.includes(formatUsd(p.total_cents))) {
      sums.mail += p.total_cents;
    } else {
      moneyProblems.push(
        `${who}: ${receipts.length} e-mails ${key}${receipts.length === 1 ? ` not naming ${formatUsd(p.total_cents)}` : ''}`,
      );
    }
  }
  // A year paid by check: no ledger row and nothing at the gateway; its Client Activity row (no
  // payment) and its receipt e-mail name the check's amount.
  for (const year of years) {
    if (!year.check_recorded_at) continue;
    const sums = totalsOf(year.client_id);
    const cents = year.check_amount_cents ?? 0;
    sums.checks += cents;
    const receipts = mailByKey.get(`storage-renewal:${year.id}:paid`) ?? [];
    if (receipts.length === 1 && receipts[0]?.text_body.includes(formatUsd(cents))) sums.mail += cents;
    else {
      moneyProblems.push(
        `${act(year.client_id)} year ${year.year_number} paid by check no. ${year.check_number}: ${receipts.length} receipt e-mails naming ${formatUsd(cents)}`,
      );
    }
  }
  for (const a of activities) if (!a.payment_id) totalsOf(a.client_id).activity += a.amount_cents ?? 0;
  const known = new Set(payments.map((p) => p.reference));
  for (const t of gateway) {
    if (t.status === 'approved' && !known.has(t.reference)) {
      moneyProblems.push(
        `the gateway approved ${t.amount_cents} cents (${t.reference}) the ledger does not know`,
      );
    }
  }
  let agreeing = 0;
  for (const [clientId, s] of totals) {
    const received = s.ledger + s.checks;
    if (s.ledger === s.gateway && received === s.activity && s.activity === s.mail) agreeing += 1;
    else
      moneyProblems.push(
        `${act(clientId)}: ledger ${s.ledger}, gateway ${s.gateway}, checks ${s.checks}, activity ${s.activity}, e-mails ${s.mail} cents`,
      );
  }

  // 5. Each decline and each year overdue e-mailed the client; a card expiring before its charge named in the notice.
  const mailProblems: string[] = [];
  for (const year of years) {
    const who = `${act(year.client_id)} year ${year.year_number} due ${year.due_date}`;
    for (let t = 1; t <= year.tries; t += 1) {
      if ((mailByKey.get(`storage-renewal:${year.id}:unpaid:${t}`) ?? []).length !== 1) {
        mailProblems.push(`${who}: no e-mail for declined try ${t}`);
      }
    }
    if (
      year.status === 'overdue' &&
      year.tries === 0 &&
      !mailByKey.has(`storage-renewal:${year.id}:unpaid:0`)
    ) {
      mailProblems.push(`${who}: overdue without a method, and no e-mail said so`);
    }
    const payer = payerOf.get(year.client_id);
    const notice = mailByKey.get(`storage-renewal:${year.id}:notice`)?.[0];
    if (!payer || !notice || !year.notice_on || !year.charge_on) continue;
    const stillExpiring = payer.cardExpiry && (!payer.fixedOn || payer.fixedOn > year.notice_on);
    const warned = notice.text_body.includes(EXPIRY_WARNING);
    const shouldWarn = Boolean(
      stillExpiring && payer.cardExpiry && year.charge_on > expiryEnd(payer.cardExpiry),
    );
    if (warned !== shouldWarn) {
      mailProblems.push(
        `${who} (${payer.kind}): the notice ${warned ? 'warns' : 'does not warn'} that the card expires`,
      );
    }
  }

  // 6. Checks: a year paid by check is paid once; the years of clients without a method are overdue exactly when unpaid.
  const checkProblems = checkPaidYearProblems({ years, payers, renewalTries, activities, mailByKey, last });

  const renewalPayments = payments.filter((p) => p.purpose === 'annual_storage_renewal');
  const figures = {
    clients: payers.length,
    notices: years.length,
    charges: renewalPayments.filter((p) => p.status === 'approved').length,
    declines: renewalPayments.filter((p) => p.status === 'declined').length,
    overdue: years.filter((y) => y.status === 'overdue').length,
    covered: years.filter((y) => y.status === 'covered').length,
    paidOnline: payments.filter((p) => p.purpose === 'annual_storage_overdue' && p.status === 'approved')
      .length,
    paidByCheck: years.filter((y) => y.check_recorded_at).length,
  };
  const checksSent = payers.flatMap((p) => p.checks);
  return {
    checks: [
      check('B1. every client-year is paid exactly once or overdue, on its anniversary', yearProblems, [
        `${years.length} years of ${payers.length} clients`,
        `leap-day clients due on ${[...new Set(leapDues)].sort().join(', ')}`,
      ]),
      check(
        'B2. every notice sent once, 15 to 45 days before its charge, naming the amount',
        noticeProblems,
        [`${noticeMails} notices`],
      ),
      check(
        'B3. no charge without a notice; a soft decline retried on days 3, 7 and 14, never earlier',
        chargeProblems,
        [
          `${renewalPayments.length} renewal tries`,
          `${offSchedule.length} declines late after a cut try`,
          ...offSchedule.slice(0, 4),
        ],
      ),
      check('B4. ledger, sandbox gateway, Client Activity and e-mails agree to the cent', moneyProblems, [
        `${agreeing} clients' charges agree`,
      ]),
      check('B5. each decline and overdue year e-mailed; expiring cards named in the notice', mailProblems),
      check(
        'B6. a year paid by check is paid once (no charge beside it, a check again refused or answered the same), its invoice names the remit-to and memo; a year without a method is overdue exactly when unpaid 14 days after its charge day',
        checkProblems,
        [
          `${figures.paidByCheck} years paid by check`,
          ...(['first', 'same again', 'another', 'racing a card', 'racing autopay'] as const).map(
            (why) =>
              `${why}: ${checksSent
                .filter((c) => c.why === why)
                .map((c) => c.status)
                .join(', ')}`,
          ),
        ],
      ),
    ],
    figures,
  };
}
