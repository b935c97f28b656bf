import type pg from 'pg';
import { todayFor } from '../../domain/client-basics';
import { addDays, addMonths } from '../../domain/dates';
import { formatUsd } from '../../domain/money';
import type { SimulatedPayer } from './billing-invariants';
import { cardFeeCents } from './billing-newborns';
import { rows } from './fault-database';
import type { Check } from './invariants';

/**
 * What must hold of the newborn finance agreements after the billing simulation
 * (./billing-newborns.ts), read from the tables: the agreement and its deposit, the installments
 * against the agreement's schedule, each charge and decline, the late charges and the reminders.
 * Ledger, gateway, Client Activity and receipts agreeing to the cent is check B4's, with the
 * renewals'. The rules are spec 3 section 9's and issue 21's, written out here: the deposit at
 * signing with the 3% card fee, the installments monthly from a month after it by standard
 * amortisation, a soft decline tried again on days 3, 7 and 14, one $50 late charge on a payment
 * unpaid 30 days after its date, a reminder 3 days before each.
 */

const LATE_CHARGE_CENTS = 5_000;
const LATE_AFTER_DAYS = 30;
const REMINDER_DAYS_AHEAD = 3;
const RETRY_DAYS = [0, 3, 7, 14];

interface AgreementRow {
  id: string;
  client_id: string;
  annual_banking_fee_cents: number;
  bio_insurance_fee_cents: number;
  down_payment_cents: number;
  initial_processing_fee_cents: number;
  interest_rate_basis_points: number;
  installments: number;
  total_financed_cents: number;
  late_charge_cents: number;
  signed_at: Date | null;
  deposit_payment_id: string | null;
  deposit_total_cents: number | null;
}

interface InstallmentRow {
  id: string;
  agreement_id: string;
  number: number;
  due_date: string;
  payment_cents: number;
  interest_cents: number;
  principal_cents: number;
  balance_cents: number;
  status: string;
  tries: number;
  late_charge_cents: number;
  paid_on: string | null;
  payment_id: string | null;
  paid_total_cents: number | null;
}

interface NewbornPayment {
  id: string;
  client_id: string;
  idempotency_key: string;
  purpose: string;
  status: string;
  method_kind: string;
  amount_cents: number;
  fee_cents: number;
  total_cents: number;
  created_at: Date;
}

interface NewbornMail {
  dedupe_key: string;
  text_body: string;
  created_at: Date;
}

/** The schedule by standard amortisation: the monthly payment P·r / (1 − (1 + r)^−n), each month's interest on the balance, the last payment what is left. */
export function expectedSchedule(
  financedCents: number,
  rateBasisPoints: number,
  count: number,
  depositOn: string,
) {
  const r = rateBasisPoints / 10_000 / 12;
  const monthly =
    r === 0 ? Math.round(financedCents / count) : Math.round((financedCents * r) / (1 - (1 + r) ** -count));
  let balance = financedCents;
  return Array.from({ length: count }, (_, i) => {
    const interest = Math.round((balance * rateBasisPoints) / 120_000);
    const principal = i === count - 1 ? balance : monthly - interest;
    balance -= principal;
    return {
      number: i + 1,
      dueDate: addMonths(depositOn, i + 1),
      payment: principal + interest,
      interest,
      principal,
      balance,
    };
  });
}

const feeOn = (kind: string, cents: number) => (kind === 'card' ? cardFeeCents(cents) : 0);

/**
 * The installments whose late charge or reminder is not what their date says, after a step: the
 * late charge once unpaid 30 days after the date (not before, and never on one paid before then);
 * the reminder from 3 days before the date on (not before; one paid off early may have none).
 */
export async function installmentDrift(
  pool: pg.Pool,
  payers: SimulatedPayer[],
  asOf: string,
): Promise<string[]> {
  const wrong = await rows<{
    act: string;
    number: number;
    due_date: string;
    status: string;
    late: number;
    paid_on: string | null;
    reminded: boolean;
  }>(
    pool,
    `select * from (
       select c.client_act_id as act, i.number, i.due_date::text, i.status, i.late_charge_cents as late,
          i.paid_on::text, i.due_date as due, i.paid_on as paid,
          exists (select 1 from outbox_messages o
                  where o.dedupe_key = 'newborn-installment:' || i.id || ':reminder') as reminded
       from newborn_installments i join clients c on c.id = i.client_id
       where i.client_id = any($1::uuid[])) i
     where (i.late > 0 and (i.due + $3::int > $2::date or i.paid < i.due + $3::int))
       or (i.late = 0 and i.status <> 'paid' and i.due + $3::int <= $2::date)
       or (i.reminded and i.due - $4::int > $2::date)
       or (not i.reminded and i.due - $4::int <= $2::date and (i.paid is null or i.paid >= i.due - $4::int))`,
    [payers.filter((p) => p.newborn).map((p) => p.id), asOf, LATE_AFTER_DAYS, REMINDER_DAYS_AHEAD],
  );
  return wrong.map(
    (w) =>
      `after the run to ${asOf}: ${w.act} installment ${w.number} due ${w.due_date} ${w.status} (paid ${w.paid_on ?? 'never'}), late charge ${w.late} cents, ${w.reminded ? 'reminded' : 'not reminded'}`,
  );
}

function check(name: string, problems: string[], notes: string[] = []): Check {
  return { name, ok: problems.length === 0, details: [...problems, ...notes] };
}

export async function newbornChecks(
  pool: pg.Pool,
  payers: SimulatedPayer[],
  window: { last: string },
): Promise<{ checks: Check[]; figures: Record<string, number> }> {
  const newborns = payers.filter((p) => p.newborn);
  const ids = newborns.map((p) => p.id);
  const agreements = await rows<AgreementRow>(
    pool,
    `select id, client_id, annual_banking_fee_cents, bio_insurance_fee_cents, down_payment_cents,
        initial_processing_fee_cents, interest_rate_basis_points, installments, total_financed_cents,
        late_charge_cents, signed_at, deposit_payment_id, deposit_total_cents
     from newborn_agreements where client_id = any($1::uuid[])`,
    [ids],
  );
  const installments = await rows<InstallmentRow>(
    pool,
    `select id, agreement_id, number, due_date::text, payment_cents, interest_cents, principal_cents,
        balance_cents, status, tries, late_charge_cents, paid_on::text, payment_id, paid_total_cents
     from newborn_installments where client_id = any($1::uuid[]) order by agreement_id, number`,
    [ids],
  );
  const payments = await rows<NewbornPayment>(
    pool,
    `select id, client_id, idempotency_key, purpose, status, method_kind, amount_cents, fee_cents,
        total_cents, created_at
     from payments where client_id = any($1::uuid[]) and purpose in ('newborn_deposit', 'newborn_installment')`,
    [ids],
  );
  const mails = await rows<NewbornMail>(
    pool,
    `select o.dedupe_key, o.text_body, o.created_at from outbox_messages o
     join clients c on lower(c.email) = lower(o.recipient)
     where c.id = any($1::uuid[]) and (o.dedupe_key like 'newborn-%')`,
    [ids],
  );
  const { last } = window;
  const mailsOf = (key: string) => mails.filter((m) => m.dedupe_key === key);
  const paymentById = new Map(payments.map((p) => [p.id, p]));
  const runTries = new Map<string, NewbornPayment[]>();
  for (const p of payments) {
    const [prefix, installmentId] = p.idempotency_key.split(':');
    if (prefix !== 'newborn-installment' || !installmentId) continue;
    runTries.set(installmentId, [...(runTries.get(installmentId) ?? []), p]);
  }
  const dayOf = (p: NewbornPayment) => p.idempotency_key.split(':')[2] ?? '';

  // B7. The agreement, signed once, and its deposit.
  const depositProblems: string[] = [];
  // B8. The schedule and each charge; B9 the late charges; B10 the reminders.
  const scheduleProblems: string[] = [];
  const lateProblems: string[] = [];
  const reminderProblems: string[] = [];
  let lateCharges = 0;
  let reminders = 0;
  for (const payer of newborns) {
    const course = payer.newborn;
    if (!course) continue;
    const who = `${payer.actId} (${payer.kind})`;
    const mine = agreements.filter((a) => a.client_id === payer.id);
    const signed = course.signings.some((s) => s.status === 200);
    if (mine.length !== (course.link ? 1 : 0)) {
      depositProblems.push(
        `${who}: ${mine.length} agreements, the link ${course.link ? 'sent' : 'not sent'}`,
      );
    }
    // A declined deposit answers 402; of two signings at once, one signs and the other is refused (409).
    for (const s of course.signings) {
      if (!(s.card === 'declining' ? [402] : [200, 409]).includes(s.status as number)) {
        depositProblems.push(`${who}: signing with the ${s.card} card answered ${s.status}`);
      }
    }
    if (course.signings.filter((s) => s.status === 200).length > 1) {
      depositProblems.push(`${who}: signed ${course.signings.filter((s) => s.status === 200).length} times`);
    }
    const agreement = mine[0];
    if (!agreement) continue;
    const f = course.figures;
    const asSent =
      agreement.down_payment_cents === f.downPaymentCents &&
      agreement.total_financed_cents === f.totalFinancedCents &&
      agreement.interest_rate_basis_points === f.interestRateBasisPoints &&
      agreement.installments === f.installments &&
      agreement.annual_banking_fee_cents === f.annualBankingFeeCents &&
      agreement.bio_insurance_fee_cents === f.bioInsuranceFeeCents &&
      agreement.initial_processing_fee_cents === f.initialProcessingFeeCents;
    if (!asSent) depositProblems.push(`${who}: the agreement's figures are not those staff sent`);
    const deposits = payments.filter((p) => p.client_id === payer.id && p.purpose === 'newborn_deposit');
    const approved = deposits.filter((p) => p.status === 'approved');
    const declined = deposits.filter((p) => p.status === 'declined');
    const declinedSignings = course.signings.filter((s) => s.card === 'declining').length;
    const deposit = f.downPaymentCents;
    const depositTotal = deposit + cardFeeCents(deposit);
    if ((agreement.signed_at !== null) !== signed || approved.length !== (signed ? 1 : 0)) {
      depositProblems.push(
        `${who}: signed ${agreement.signed_at ? 'yes' : 'no'} (answered ${course.signings.map((s) => s.status).join(', ') || 'never'}), ${approved.length} deposits approved`,
      );
    }
    if (declined.length !== declinedSignings) {
      depositProblems.push(
        `${who}: ${declined.length} deposits declined for ${declinedSignings} signings with the declining card`,
      );
    }
    const [charged] = approved;
    if (charged) {
      if (
        charged.amount_cents !== deposit ||
        charged.total_cents !== depositTotal ||
        agreement.deposit_total_cents !== depositTotal ||
        agreement.deposit_payment_id !== charged.id
      ) {
        depositProblems.push(
          `${who}: the deposit charged ${charged.amount_cents} + ${charged.fee_cents} cents (the agreement keeps ${agreement.deposit_total_cents}); expected ${deposit} + 3%, ${depositTotal}`,
        );
      }
      if (mailsOf(`newborn-agreement:${agreement.id}`).length !== 1) {
        depositProblems.push(
          `${who}: the signed agreement was e-mailed ${mailsOf(`newborn-agreement:${agreement.id}`).length} times`,
        );
      }
    }
    const rowsOfAgreement = installments.filter((i) => i.agreement_id === agreement.id);
    if (!agreement.signed_at) {
      if (rowsOfAgreement.length > 0)
        scheduleProblems.push(`${who}: unsigned, with ${rowsOfAgreement.length} installments`);
      continue;
    }
    const schedule = expectedSchedule(
      f.totalFinancedCents,
      f.interestRateBasisPoints,
      f.installments,
      todayFor(new Date(agreement.signed_at)),
    );
    const shown = rowsOfAgreement
      .map(
        (i) =>
          `${i.number} ${i.due_date} ${i.payment_cents} ${i.interest_cents} ${i.principal_cents} ${i.balance_cents}`,
      )
      .join('; ');
    const expected = schedule
      .map((i) => `${i.number} ${i.dueDate} ${i.payment} ${i.interest} ${i.principal} ${i.balance}`)
      .join('; ');
    if (shown !== expected)
      scheduleProblems.push(`${who}: the installments are ${shown}; the schedule ${expected}`);

    for (const row of rowsOfAgreement) {
      const at = `${who} installment ${row.number} due ${row.due_date}`;
      const tries = runTries.get(row.id) ?? [];
      const page = row.payment_id ? paymentById.get(row.payment_id) : undefined;
      const byPage = page && !page.idempotency_key.startsWith('newborn-installment:') ? page : undefined;
      const approvedTries = tries.filter((p) => p.status === 'approved');
      const paidTimes = approvedTries.length + (byPage?.status === 'approved' ? 1 : 0);
      if ((row.status === 'paid') !== (paidTimes === 1) || paidTimes > 1) {
        scheduleProblems.push(`${at}: ${row.status}, paid by ${paidTimes} approved charges`);
      }
      const lateDay = addDays(row.due_date, LATE_AFTER_DAYS);
      for (const p of tries) {
        const day = dayOf(p);
        const amount = row.payment_cents + (day >= lateDay ? LATE_CHARGE_CENTS : 0);
        const fee = feeOn(p.method_kind, amount);
        if (day < row.due_date) scheduleProblems.push(`${at}: tried on ${day}, before its date`);
        if (p.amount_cents !== amount || p.fee_cents !== fee || p.total_cents !== amount + fee) {
          scheduleProblems.push(
            `${at}: the try of ${day} charged ${p.amount_cents} + ${p.fee_cents}; expected ${amount} + ${fee}`,
          );
        }
        if (p.status === 'approved' && (row.paid_total_cents !== p.total_cents || row.payment_id !== p.id)) {
          scheduleProblems.push(
            `${at}: paid ${p.total_cents} by ${day}'s try, the installment keeps ${row.paid_total_cents}`,
          );
        }
      }
      const declines = tries
        .filter((p) => p.status === 'declined')
        .map(dayOf)
        .sort();
      declines.forEach((day, k) => {
        const earliest = k < RETRY_DAYS.length ? addDays(row.due_date, RETRY_DAYS[k] ?? 0) : null;
        if (!earliest || day < earliest)
          scheduleProblems.push(`${at}: decline ${k + 1} on ${day}, before its day`);
      });
      if (declines.length !== row.tries) {
        scheduleProblems.push(`${at}: ${declines.length} declines, the installment counts ${row.tries}`);
      }

      // B9: one late charge, only once 30 days late, with its e-mail.
      const lateMails = mailsOf(`newborn-installment:${row.id}:late`).length;
      const shouldBeLate = lateDay <= last && (row.paid_on === null || row.paid_on >= lateDay);
      if (row.late_charge_cents > 0) lateCharges += 1;
      if (
        row.late_charge_cents !== (shouldBeLate ? LATE_CHARGE_CENTS : 0) ||
        lateMails !== (shouldBeLate ? 1 : 0) ||
        (shouldBeLate && row.paid_on === null && row.status !== 'late')
      ) {
        lateProblems.push(
          `${at}: ${row.status}, paid on ${row.paid_on ?? 'never'}, late charge ${row.late_charge_cents} cents, ${lateMails} late e-mails (late from ${lateDay})`,
        );
      }

      // B10: the reminder, once, 3 days ahead, naming the charge to come, before the first try.
      const reminderDay = addDays(row.due_date, -REMINDER_DAYS_AHEAD);
      const sent = mailsOf(`newborn-installment:${row.id}:reminder`);
      reminders += sent.length;
      const required = reminderDay <= last && (row.paid_on === null || row.paid_on >= reminderDay);
      const allowed = required || (reminderDay <= last && row.paid_on !== null) ? 1 : 0;
      const named = formatUsd(row.payment_cents + cardFeeCents(row.payment_cents));
      if (sent.length > allowed || (required && sent.length !== 1)) {
        reminderProblems.push(`${at}: ${sent.length} reminders (paid on ${row.paid_on ?? 'never'})`);
      } else if (sent[0] && !sent[0].text_body.includes(`charge ${named}`)) {
        reminderProblems.push(`${at}: the reminder does not name ${named}`);
      }
      const firstTry = tries.map((p) => p.created_at.getTime()).sort()[0];
      if (sent[0] && firstTry !== undefined && sent[0].created_at.getTime() > firstTry) {
        reminderProblems.push(`${at}: reminded after its first try`);
      }
    }
  }

  // The page's payments: what they settled, installment by installment, adds up to the charge.
  const pagePayments = payments.filter(
    (p) => p.purpose === 'newborn_installment' && p.idempotency_key.startsWith('newborn-payment:'),
  );
  for (const p of pagePayments) {
    const covered = installments.filter((i) => i.payment_id === p.id);
    const who = `payment ${p.idempotency_key} (${p.status})`;
    if (p.status !== 'approved') {
      if (covered.length > 0) scheduleProblems.push(`${who}: ${covered.length} installments hold it`);
      continue;
    }
    const owed = covered.reduce(
      (sum, i) =>
        sum +
        (i.paid_on !== null && i.due_date > i.paid_on
          ? i.principal_cents
          : i.payment_cents + i.late_charge_cents),
      0,
    );
    const kept = covered.reduce((sum, i) => sum + (i.paid_total_cents ?? 0), 0);
    const fee = feeOn(p.method_kind, owed);
    if (covered.length === 0 || p.amount_cents !== owed || p.fee_cents !== fee || kept !== p.total_cents) {
      scheduleProblems.push(
        `${who}: charged ${p.amount_cents} + ${p.fee_cents} for installments ${covered.map((i) => i.number).join(', ')} owing ${owed} + ${fee}, which keep ${kept}`,
      );
    }
  }

  const installmentTries = payments.filter((p) => runTries.has(p.idempotency_key.split(':')[1] ?? ''));
  const figures = {
    agreementsSigned: agreements.filter((a) => a.signed_at).length,
    installmentCharges: installmentTries.filter((p) => p.status === 'approved').length,
    installmentDeclines: installmentTries.filter((p) => p.status === 'declined').length,
    lateCharges,
    reminders,
    pagePayments: pagePayments.filter((p) => p.status === 'approved').length,
  };
  return {
    checks: [
      check(
        'B7. each newborn agreement signed once, its deposit charged once at signing (the deposit and 3% by card); a declined deposit signs nothing',
        depositProblems,
        [`${figures.agreementsSigned} agreements signed`],
      ),
      check(
        "B8. the installments are the agreement's schedule to the cent, each charged at most once and never before its date, a decline retried on days 3, 7 and 14",
        scheduleProblems,
        [
          `${installments.length} installments, ${figures.installmentCharges} charged by the run, ${figures.installmentDeclines} declines, ${figures.pagePayments} payments on the agreement's page`,
        ],
      ),
      check(
        'B9. one $50 late charge, only on an installment unpaid 30 days after its date, e-mailed once',
        lateProblems,
        [`${lateCharges} late charges`],
      ),
      check(
        'B10. each installment reminded once, 3 days before its date and before its charge, naming the amount',
        reminderProblems,
        [`${reminders} reminders`],
      ),
    ],
    figures,
  };
}
