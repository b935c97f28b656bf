import { addDays, isoToUsDate } from '../../domain/dates';
import type { CheckSent, SimulatedPayer } from './billing-invariants';
import {
  type Answer,
  describeAnswer,
  recordStorageCheck,
  type SimulatedClient,
  savePaymentMethod,
  storageChecksQueue,
  tokenizeCard,
} from './portal-client';

/**
 * The checks of the billing simulation (issue 21): clients paying by check get the year's notice
 * as an invoice, and staff record the check on the storage check queue when it arrives, as they
 * read the queue. Each check-paying client pays its first years, some on time (before the year is
 * overdue, 14 days after its charge day) and some late (once it is overdue), and stops paying at a
 * year drawn for it: that year and the later ones go overdue and stay so. Staff also type a
 * recorded check again now and then (the same check: answered as the first time; another check
 * for the year: refused); a check arrives for a year that a client without a method is paying
 * online at that very moment; and a third of the check payers answer one invoice with a card as
 * well, so that their check arrives on the day the run charges that card (in each race only one of
 * the two may pay the year).
 */

export interface OpenYear {
  id: string;
  client_id: string;
  year_number: number | null;
  status: string;
  tries: number;
  charge_on: string;
  due_date: string;
}

interface QueueRow {
  feeId: string;
  clientId: string;
  yearNumber: number | null;
  amountDueCents: number;
  overdue: boolean;
}

/** A number in [0, 1) drawn from the seed and a key: the same for the same client and year, whatever the order of the steps. */
export function drawn(seed: number, key: string): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d) >>> 0;
  h ^= h >>> 12;
  return (h >>> 0) / 4_294_967_296;
}

/** How a check-paying client pays a year: on time, late, or not at all (from its first unpaid year on). */
export function checkPlan(seed: number, payer: SimulatedPayer, yearNumber: number | null) {
  const n = yearNumber ?? 0;
  const stopsAt = 1 + Math.floor(drawn(seed, `${payer.actId}:stops`) * 4);
  if (n >= stopsAt) return { pays: 'never' as const, offset: 0 };
  const u = drawn(seed, `${payer.actId}:${n}`);
  return { pays: u < 0.75 ? ('on time' as const) : ('late' as const), offset: Math.floor(u * 100) % 20 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Action = Promise<{ payer: SimulatedPayer; what: string; answer: Answer }>;

/**
 * A third of the check payers, once (from today on, as the portal's pages are used), answer a
 * year's invoice with a card too, through the invoice's link, before its charge day: the card is
 * charged on that day, and their check arrives on that day as well.
 */
function wantsAutopayToo(
  seed: number,
  payer: SimulatedPayer,
  year: OpenYear,
  step: { day: string; asOf: string; today: string },
): boolean {
  return (
    payer.cardAddedFor === null &&
    step.day >= step.today &&
    year.status === 'noticed' &&
    year.charge_on > addDays(step.asOf, 8) &&
    drawn(seed, `${payer.actId}:autopay`) < 0.34
  );
}

/** The client saves a card as the method on file (nothing is overdue: nothing is charged now). */
async function addCard(baseUrl: string, payer: SimulatedPayer, asOf: string, key: string) {
  const card = { number: '4111111111111111', expiryMonth: 12, expiryYear: Number(asOf.slice(0, 4)) + 6 };
  const token = await tokenizeCard(baseUrl, payer, card);
  const answer = await savePaymentMethod(baseUrl, payer, token, key, card);
  if (answer.cut || answer.status !== 200) payer.cardAddedFor = null;
  return { payer, what: "answers the invoice with a card, charged on the year's charge day", answer };
}

interface WantedCheck {
  payer: SimulatedPayer;
  feeId: string;
  why: CheckSent['why'];
  again?: CheckSent;
}

/** The checks staff record during one step (its first day `day`, its last `asOf`). */
export async function checkActions(
  baseUrl: string,
  staff: SimulatedClient,
  payers: SimulatedPayer[],
  open: OpenYear[],
  step: {
    day: string;
    asOf: string;
    today: string;
    seed: number;
    tag: string;
    nextCheckNumber: () => string;
  },
): Promise<Action[]> {
  const { day, asOf, seed } = step;
  const wanted: WantedCheck[] = [];
  const actions: Action[] = [];
  const byClient = new Map<string, OpenYear[]>();
  for (const year of open) byClient.set(year.client_id, [...(byClient.get(year.client_id) ?? []), year]);
  for (const payer of payers) {
    const years = (byClient.get(payer.id) ?? []).sort((x, y) => x.due_date.localeCompare(y.due_date));
    if (payer.kind === 'check') {
      // Years are paid in order: the oldest open one, once (a check refused is not sent again).
      const year = years[0];
      const racing = year && payer.cardAddedFor === year.id;
      if (year && !racing && wantsAutopayToo(seed, payer, year, step)) {
        payer.cardAddedFor = year.id;
        actions.push(addCard(baseUrl, payer, asOf, `${step.tag}-card-${payer.actId}`));
      } else if (racing) {
        const sent = payer.checks.some((c) => c.feeId === year.id);
        if (!sent && day <= year.charge_on && year.charge_on <= asOf) {
          wanted.push({ payer, feeId: year.id, why: 'racing autopay' });
        }
      } else if (year && !payer.checks.some((c) => c.feeId === year.id && c.why === 'first')) {
        const plan = checkPlan(seed, payer, year.year_number);
        const onTime =
          plan.pays === 'on time' &&
          year.status === 'noticed' &&
          day >= addDays(year.charge_on, -10 + plan.offset) &&
          asOf < addDays(year.charge_on, 14);
        const late =
          plan.pays !== 'never' &&
          year.status === 'overdue' &&
          day >= addDays(year.charge_on, 24 + plan.offset);
        if (onTime || late) wanted.push({ payer, feeId: year.id, why: 'first' });
      }
      const last = payer.checks.at(-1);
      if (last?.why === 'first' && last.status === 200 && last.day < day) {
        const u = drawn(seed, `${payer.actId}:${last.feeId.slice(0, 8)}:again`);
        if (u < 0.3)
          wanted.push({ payer, feeId: last.feeId, why: u < 0.15 ? 'another' : 'same again', again: last });
      }
    }
    // A client without a method saves a card this step, paying what is overdue: the check for the
    // oldest overdue year arrives the same day.
    if (payer.kind === 'no method' && payer.fixedOn === day) {
      const oldest = years.find((y) => y.status === 'overdue');
      if (oldest && drawn(seed, `${payer.actId}:${oldest.due_date}:race`) < 0.5) {
        wanted.push({ payer, feeId: oldest.id, why: 'racing a card' });
      }
    }
  }
  if (wanted.length === 0) return actions;
  // Staff open the queue, and record each check they hold against the row it pays.
  const queue = await storageChecksQueue(baseUrl, staff);
  if (queue.cut || queue.status !== 200) {
    throw new Error(`the storage check queue answered ${describeAnswer(queue)}`);
  }
  const listed = new Map(((queue.body?.years ?? []) as QueueRow[]).map((row) => [row.feeId, row]));
  const checkDate = isoToUsDate(day < step.today ? day : step.today);
  for (const want of wanted) {
    const row = listed.get(want.feeId);
    const again = want.again;
    // A year paid is off the queue: a check typed again is for the year it was recorded for.
    if (!again && !row) continue;
    const sent: CheckSent = {
      feeId: want.feeId,
      yearNumber: row?.yearNumber ?? again?.yearNumber ?? null,
      checkNumber: want.why === 'same again' && again ? again.checkNumber : step.nextCheckNumber(),
      amountCents: row?.amountDueCents ?? again?.amountCents ?? 0,
      checkDate: want.why === 'same again' && again ? again.checkDate : checkDate,
      day,
      why: want.why,
      status: 'no answer',
    };
    want.payer.checks.push(sent);
    actions.push(
      (async () => {
        // The check meets the card at a moment drawn for it: before, during or after its payment.
        if (want.why.startsWith('racing')) {
          await sleep(Math.floor(drawn(seed, `${want.payer.actId}:${day}:delay`) * 1_500));
        }
        const answer = await recordStorageCheck(baseUrl, staff, {
          feeId: sent.feeId,
          checkNumber: sent.checkNumber,
          checkAmount: (sent.amountCents / 100).toFixed(2),
          checkDate: sent.checkDate,
        });
        sent.status = answer.cut ? 'no answer' : answer.status;
        return { payer: want.payer, what: `staff record a check (${want.why})`, answer };
      })(),
    );
  }
  return actions;
}
