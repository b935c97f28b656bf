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
 * Signing is on the real day (the clock is not moved), so the schedule starts a month after today.
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
  const sendOn = addDays(today, between(0, 6));
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
    signOn: addDays(sendOn, between(0, 6)),
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

/** The newborns' steps during one step of the simulation (the first day of the step is `day`). */
export function newbornActions(
  pool: pg.Pool,
  baseUrl: string,
  staff: SimulatedClient,
  payers: SimulatedPayer[],
  day: string,
  tag: string,
): Action[] {
  const actions: Action[] = [];
  const year = Number(day.slice(0, 4));
  for (const payer of payers) {
    const course = payer.newborn;
    if (!course) continue;
    const key = (what: string) => `${tag}-${what}-${payer.actId}`;
    const signed = course.signings.some((s) => s.status === 200);
    if (!course.link && day >= course.sendOn) {
      actions.push(
        (async () => {
          const answer = await sendAgreementLink(baseUrl, staff, payer.actId, course.figures);
          if (!answer.cut && answer.status === 200) course.link = await linkInOutbox(pool, payer);
          return { payer, what: 'staff send the agreement link', answer };
        })(),
      );
    } else if (course.link && !signed && day >= course.signOn) {
      const link = course.link;
      const declining =
        payer.kind === 'newborn declined deposit' && !course.signings.some((s) => s.card === 'declining');
      const deposit = course.figures.downPaymentCents;
      // In two tabs at once, for some: each its own submission (key); one may sign.
      const tabs = course.twice && !declining ? ['a', 'b'] : ['a'];
      for (const tab of tabs) {
        actions.push(
          (async () => {
            const card = await tokenized(
              baseUrl,
              payer,
              declining ? DECLINING_NUMBER : APPROVED_NUMBER,
              year,
            );
            const answer = await signAgreement(
              baseUrl,
              payer,
              link,
              card,
              deposit + cardFeeCents(deposit),
              key(`sign${course.signings.length}${tab}`),
            );
            course.signings.push({ card: declining ? 'declining' : 'approved', status: statusOf(answer) });
            return {
              payer,
              what: declining
                ? 'signs with the declining card'
                : `signs the agreement${tabs.length > 1 ? ' (in two tabs at once)' : ''}`,
              answer,
            };
          })(),
        );
      }
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
