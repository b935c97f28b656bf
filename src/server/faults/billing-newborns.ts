import type pg from 'pg';
import { addDays } from '../../domain/dates';
import type { NewbornCourse, PayerKind, SimulatedPayer } from './billing-invariants';
import { rows } from './fault-database';
import {
  type Answer,
  agreementAccount,
  changeAgreementCard,
  payAgreement,
  type SandboxCard,
  type SimulatedClient,
  sendAgreementLink,
  signAgreement,
  tokenizeCard,
} from './portal-client';

/**
 * The newborn finance agreements of the billing simulation (issue 21): staff send an agreement
 * with its figures, the main contact opens the e-mailed link and signs it with a card (the deposit
 * charged at signing), and the billing run charges the monthly installments. The three kinds:
 *
 * - 'newborn': signs with a card the sandbox approves; a third pay the balance off early; half
 *   sign, and pay off, in two tabs at once (only one of each may charge);
 * - 'newborn declined deposit': first signs with the sandbox card whose charges are declined (the
 *   deposit is refused and nothing is signed), then signs again with an approved card;
 * - 'newborn declining card': signs with an approved card, then gives the declining card for the
 *   installments on the agreement's page; they decline, are retried, go unpaid and take their late
 *   charge; half of them give an approved card again later and pay what is overdue on the page.
 *
 * When they sign: the server processes run on the real clock, and signing dates the deposit and
 * anchors the installments on the day it happens (installment 1 a month after it, its reminder 3
 * days before that), which is always the real day, whatever day the simulation's run has reached.
 * So the main contacts sign on the simulated day that is the real one: in the step whose days hold
 * today, before its run (newbornSignings), when the run's cursor for them is the day before the
 * step, today or earlier, as the daily job's is on a real day (behind it after an outage, never
 * ahead). Every installment date then lies ahead of the run, as for a real signing. Signing on a
 * later simulated day would not be a day a bank can see: a main contact signing "on 4 January"
 * while the portal's clock says 27 November gets installment 1 due 27 December, a date the run
 * had already passed, so it was charged on the next run day with no reminder (seed 21 before this
 * was settled: the 30-day step of the kill ran past today, and the newborns signed a month of
 * simulated days later).
 */

export const NEWBORN_KINDS: PayerKind[] = ['newborn', 'newborn declined deposit', 'newborn declining card'];

export const isNewborn = (kind: PayerKind) => NEWBORN_KINDS.includes(kind);

/** The sandbox's test numbers: one approved, one whose charges are declined (saving it works). */
const APPROVED_NUMBER = '4111111111111111';
const DECLINING_NUMBER = '4000000000000341';
/** The card fee the agreement's terms name (3%), on the deposit the signing button shows. */
const CARD_FEE_BASIS_POINTS = 300;

export const cardFeeCents = (amountCents: number) =>
  Math.floor((amountCents * CARD_FEE_BASIS_POINTS + 5_000) / 10_000);

/** A newborn's agreement as staff send it, and what its main contact will do and when. */
export function planNewborn(
  payer: { actId: string; kind: PayerKind },
  today: string,
  between: (low: number, high: number) => number,
): NewbornCourse {
  // Staff send the link in the days before it is signed (no date of the agreement follows it).
  const sendOn = addDays(today, -between(0, 6));
  const switchOn = payer.kind === 'newborn declining card' ? addDays(today, between(20, 150)) : null;
  const fixes = switchOn !== null && between(0, 1) === 1;
  const paysOff = payer.kind === 'newborn' && between(0, 2) === 0;
  const twice = payer.kind === 'newborn' && between(0, 1) === 1;
  return {
    figures: {
      mainContact: `Parent of ${payer.actId}`,
      patientId: payer.actId,
      annualBankingFeeCents: 35_000,
      bioInsuranceFeeCents: [0, 45_000][between(0, 1)] ?? 0,
      downPaymentCents: [25_000, 25_000, 50_000][between(0, 2)] ?? 25_000,
      initialProcessingFeeCents: 225_000,
      interestRateBasisPoints: [0, 600, 900, 1_200][between(0, 3)] ?? 600,
      installments: between(6, 15),
      totalFinancedCents: between(1_500, 4_500) * 100 + between(0, 99),
    },
    sendOn,
    signOn: today,
    link: null,
    signings: [],
    switchOn,
    switchedOn: null,
    fixOn: fixes && switchOn ? addDays(switchOn, between(60, 150)) : null,
    fixedOn: null,
    twice,
    payoffOn: paysOff ? addDays(today, between(100, 400)) : null,
    paidOffOn: null,
    payments: [],
  };
}

type Action = Promise<{ payer: SimulatedPayer; what: string; answer: Answer }>;
const statusOf = (answer: Answer) => (answer.cut ? ('no answer' as const) : answer.status);

/** The link token of the agreement link e-mailed to the client (the one a browser would open). */
async function linkInOutbox(pool: pg.Pool, payer: SimulatedPayer): Promise<string | null> {
  const [mail] = await rows<{ text_body: string }>(
    pool,
    `select o.text_body from outbox_messages o join clients c on lower(c.email) = lower(o.recipient)
     where c.id = $1 and o.dedupe_key like 'agreement-link:%' order by o.created_at desc limit 1`,
    [payer.id],
  );
  return mail?.text_body.match(/\/newbornfinanceagreement\/(\S+)/)?.[1] ?? null;
}

async function tokenized(baseUrl: string, payer: SimulatedPayer, number: string, year: number) {
  const card: SandboxCard = { number, expiryMonth: 12, expiryYear: year + 6 };
  return { token: await tokenizeCard(baseUrl, payer, card), card };
}

/** What the agreement's page names for a payment: its total with the card fee, or nothing. */
async function namedTotal(baseUrl: string, payer: SimulatedPayer, link: string, pay: 'overdue' | 'payoff') {
  const page = await agreementAccount(baseUrl, payer, link);
  if (page.cut || page.status !== 200) return { page, total: null };
  const amounts = page.body?.[pay] as { totalCents: number } | null | undefined;
  return { page, total: amounts?.totalCents ?? null };
}

type Done = Awaited<Action>;

/** Staff send the agreement with its figures; the link is the one e-mailed. */
async function sendLink(
  pool: pg.Pool,
  baseUrl: string,
  staff: SimulatedClient,
  payer: SimulatedPayer,
  course: NewbornCourse,
): Promise<Done> {
  const answer = await sendAgreementLink(baseUrl, staff, payer.actId, course.figures);
  if (!answer.cut && answer.status === 200) course.link = await linkInOutbox(pool, payer);
  return { payer, what: 'staff send the agreement link', answer };
}

/** Signs with a new card of the kind given, as the signing page does: the deposit and its fee. */
async function signWith(
  baseUrl: string,
  payer: SimulatedPayer,
  course: NewbornCourse,
  link: string,
  card: 'approved' | 'declining',
  key: string,
  inTabs: boolean,
): Promise<Done> {
  const year = Number(course.signOn.slice(0, 4));
  const deposit = course.figures.downPaymentCents;
  const given = await tokenized(
    baseUrl,
    payer,
    card === 'declining' ? DECLINING_NUMBER : APPROVED_NUMBER,
    year,
  );
  const answer = await signAgreement(baseUrl, payer, link, given, deposit + cardFeeCents(deposit), key);
  course.signings.push({ card, status: statusOf(answer) });
  return {
    payer,
    what:
      card === 'declining'
        ? 'signs with the declining card'
        : `signs the agreement${inTabs ? ' (in two tabs at once)' : ''}`,
    answer,
  };
}

/**
 * The signings, in the step whose days hold the signing day (today: see above), awaited before
 * the step's run. The link is sent first when it was not yet. A 'newborn declined deposit' signs
 * with the declining card, is refused, and signs again at once with an approved one; some sign in
 * two tabs at once (each its own submission; one may sign).
 */
export async function newbornSignings(
  pool: pg.Pool,
  baseUrl: string,
  staff: SimulatedClient,
  payers: SimulatedPayer[],
  step: { day: string; asOf: string; tag: string },
): Promise<Done[]> {
  const signing = payers.filter(
    (p) =>
      p.newborn &&
      p.newborn.signings.length === 0 &&
      step.day <= p.newborn.signOn &&
      p.newborn.signOn <= step.asOf,
  );
  const done = await Promise.all(
    signing.map(async (payer): Promise<Done[]> => {
      const course = payer.newborn as NewbornCourse;
      const key = (what: string) => `${step.tag}-${what}-${payer.actId}`;
      const answers: Done[] = [];
      if (!course.link) answers.push(await sendLink(pool, baseUrl, staff, payer, course));
      const link = course.link;
      if (!link) return answers;
      let attempt = 0;
      if (payer.kind === 'newborn declined deposit') {
        answers.push(
          await signWith(baseUrl, payer, course, link, 'declining', key(`sign${attempt}a`), false),
        );
        attempt += 1;
      }
      const tabs = course.twice ? ['a', 'b'] : ['a'];
      answers.push(
        ...(await Promise.all(
          tabs.map((tab) =>
            signWith(baseUrl, payer, course, link, 'approved', key(`sign${attempt}${tab}`), tabs.length > 1),
          ),
        )),
      );
      return answers;
    }),
  );
  return done.flat();
}

/**
 * The newborns' other steps during one step of the simulation (its days `day` to `asOf`), begun
 * beside its run: staff send the link in a step before the signing's, and after the signing the
 * main contact changes the card, pays what is overdue, or pays the balance off.
 */
export function newbornActions(
  pool: pg.Pool,
  baseUrl: string,
  staff: SimulatedClient,
  payers: SimulatedPayer[],
  step: { day: string; asOf: string; tag: string },
): Action[] {
  const { day, asOf, tag } = step;
  const actions: Action[] = [];
  const year = Number(day.slice(0, 4));
  for (const payer of payers) {
    const course = payer.newborn;
    if (!course) continue;
    const key = (what: string) => `${tag}-${what}-${payer.actId}`;
    const signed = course.signings.some((s) => s.status === 200);
    if (!course.link && day >= course.sendOn && asOf < course.signOn) {
      actions.push(sendLink(pool, baseUrl, staff, payer, course));
    } else if (course.link && signed) {
      const link = course.link;
      if (course.switchOn && !course.switchedOn && day >= course.switchOn) {
        course.switchedOn = day;
        actions.push(
          (async () => {
            const card = await tokenized(baseUrl, payer, DECLINING_NUMBER, year);
            const answer = await changeAgreementCard(baseUrl, payer, link, card, key('switch'));
            if (answer.cut || answer.status !== 200) course.switchedOn = null;
            return { payer, what: 'gives the declining card for the installments', answer };
          })(),
        );
      } else if (course.switchedOn && course.fixOn && !course.fixedOn && day >= course.fixOn) {
        course.fixedOn = day;
        actions.push(
          (async () => {
            const card = await tokenized(baseUrl, payer, APPROVED_NUMBER, year);
            const changed = await changeAgreementCard(baseUrl, payer, link, card, key('fix'));
            if (changed.cut || changed.status !== 200) {
              course.fixedOn = null;
              return { payer, what: 'gives an approved card again', answer: changed };
            }
            return payOnPage(baseUrl, payer, course, link, 'overdue', key('pay-overdue'));
          })(),
        );
      } else if (course.payoffOn && !course.paidOffOn && day >= course.payoffOn) {
        course.paidOffOn = day;
        for (const tab of course.twice ? ['a', 'b'] : ['a']) {
          actions.push(payOnPage(baseUrl, payer, course, link, 'payoff', key(`payoff${tab}`)));
        }
      }
    }
  }
  return actions;
}

/**
 * Pays on the agreement's page what its button names: the overdue installments, or the balance.
 * Nothing owed (the run charged it meanwhile) is no payment; a 409 (a late charge or a charge came
 * between the page and the button) is tried again at a later step.
 */
async function payOnPage(
  baseUrl: string,
  payer: SimulatedPayer,
  course: NewbornCourse,
  link: string,
  pay: 'overdue' | 'payoff',
  idempotencyKey: string,
): Promise<{ payer: SimulatedPayer; what: string; answer: Answer }> {
  const what = pay === 'overdue' ? 'pays the overdue installments' : 'pays the balance off early';
  const { page, total } = await namedTotal(baseUrl, payer, link, pay);
  if (total === null) {
    if (page.cut || page.status !== 200) {
      if (pay === 'payoff') course.paidOffOn = null;
      else course.fixedOn = null;
    }
    return { payer, what: `${what} (nothing owed)`, answer: page };
  }
  const answer = await payAgreement(baseUrl, payer, link, pay, total, idempotencyKey);
  course.payments.push({ pay, expectedTotalCents: total, status: statusOf(answer) });
  if (answer.cut || answer.status !== 200) {
    if (pay === 'payoff') course.paidOffOn = null;
    else course.fixedOn = null;
  }
  return { payer, what, answer };
}
