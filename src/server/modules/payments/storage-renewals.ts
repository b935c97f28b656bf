import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { addDays, isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { checkInstructions } from '../../../domain/site';
import {
  CHECK_GRACE_DAYS,
  cardExpiresBefore,
  chargeDay,
  checkMemo,
  describeMethodOnFile,
  renewalMessages as m,
  NOTICE_MAX_DAYS,
  nextRenewalYear,
  noticeDay,
  type RenewalMethod,
  renewalAmountCents,
  yearAmountCents,
} from '../../../domain/storage-billing';
import { storageYearName } from '../../../domain/storage-year-checks';
import { type ClientToBill, clientContacts, clientsToBill } from '../clients/client-directory';
import { priceBookOn } from '../prices/price-book-repository';
import { type BatchOrder, batchesOf, placePaidOrdersOnFile } from './paid-order-batch';
import {
  clientMethodsOnFile,
  findMethodsOnFile,
  methodToCharge,
  type PaymentMethodRow,
} from './payment-methods';
import {
  type FeeRow,
  mailDecline,
  paymentLink,
  type RenewalDeps,
  type RenewalItem,
  renewalKey,
  storageRenewalBatch,
} from './renewal-outcomes';
import { annualStorageFees } from './schema';

/**
 * Storage renewals (issue 21, DESIGN 8a), run one billing day at a time:
 *
 * 1. the notice: 30 days before a year falls due, one row per client and storage year
 *    (unique), its amount fixed from the price book in force that day, and its e-mail in the
 *    outbox in the same transaction, so it goes exactly once;
 * 2. the charge: on the charge day the method on file is charged through the paid-order
 *    workflow, keyed by the year's row and the day, the row claimed while it charges so a
 *    second process, a retry or the client's own payment cannot pay it twice;
 * 3. a decline is counted in the transaction that records it: a soft one is tried again on days
 *    3, 7 and 14, a hard one and the last try make the year overdue; each e-mails a signed link.
 */

/** A notice's link works until the year is overdue. */
const NOTICE_LINK_LIFETIME_MS = (NOTICE_MAX_DAYS + CHECK_GRACE_DAYS) * 24 * 60 * 60 * 1000;

/**
 * How many clients a billing day works on at once. One after the other, each notice and charge
 * waits for its own commits to be flushed (and a bank of 10,000 clients due on one day would wait
 * minutes); side by side, their commits share the flushes. Each client's years still go one after
 * the other, and the pool (10 connections by default) keeps room for the requests served meanwhile.
 */
const CLIENTS_AT_ONCE = 8;

async function forEachClient<T>(items: T[], clientOf: (item: T) => string, work: (item: T) => Promise<void>) {
  const byClient = new Map<string, T[]>();
  for (const item of items) byClient.set(clientOf(item), [...(byClient.get(clientOf(item)) ?? []), item]);
  const queue = [...byClient.values()];
  await Promise.all(
    Array.from({ length: Math.min(CLIENTS_AT_ONCE, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        for (const item of next) await work(item);
      }
    }),
  );
}

/** What one billing day did. */
export interface DayCounts {
  notices: number;
  charges: number;
  declines: number;
  retries: number;
  overdue: number;
}

const noCounts = (): DayCounts => ({ notices: 0, charges: 0, declines: 0, retries: 0, overdue: 0 });

/**
 * The notices of a day: each banked client whose next year's notice day has come gets the
 * year's row and its notice, once (the row's unique client and year number).
 */
async function sendNotices(deps: RenewalDeps, day: string, clientActIds: readonly string[] | undefined) {
  const { db } = deps;
  const candidates = await clientsToBill(db, {
    paidUntilBy: addDays(day, NOTICE_MAX_DAYS),
    ...(clientActIds ? { clientActIds } : {}),
  });
  if (candidates.length === 0) return 0;
  // The end of what each candidate's rows already bill: the next year starts there.
  const billed = await db
    .select({
      clientId: annualStorageFees.clientId,
      coversUntil: sql<
        string | null
      >`max(coalesce(${annualStorageFees.coversUntil}, (${annualStorageFees.dueDate} + interval '1 year')::date))::text`,
    })
    .from(annualStorageFees)
    .where(
      inArray(
        annualStorageFees.clientId,
        candidates.map((c) => c.id),
      ),
    )
    .groupBy(annualStorageFees.clientId);
  const billedUntil = new Map(billed.map((b) => [b.clientId, b.coversUntil]));
  const { book } = await priceBookOn(db, day);
  let sent = 0;
  await forEachClient(
    candidates,
    (c) => c.id,
    async (client) => {
      const rowsEnd = billedUntil.get(client.id) ?? null;
      const coveredUntil =
        rowsEnd && rowsEnd > client.annualStoragePaidUntil ? rowsEnd : client.annualStoragePaidUntil;
      const year = nextRenewalYear(client.dateBankedIn, coveredUntil);
      if (noticeDay(year.dueDate) > day) return;
      if (await sendNotice(deps, client, year, day, book)) sent += 1;
    },
  );
  return sent;
}

async function sendNotice(
  deps: RenewalDeps,
  client: ClientToBill,
  year: ReturnType<typeof nextRenewalYear>,
  day: string,
  book: Parameters<typeof renewalAmountCents>[0],
): Promise<boolean> {
  const methods = await findMethodsOnFile(deps.db, client.id);
  const method = methodToCharge(methods, 'card');
  const methodKind: RenewalMethod = method ? method.kind : 'none';
  const chargeOn = chargeDay(year.dueDate, day);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(annualStorageFees)
      .values({
        clientId: client.id,
        yearNumber: year.yearNumber,
        dueDate: year.dueDate,
        coversUntil: year.coversUntil,
        amountCents: renewalAmountCents(book, 'card'),
        achAmountCents: renewalAmountCents(book, 'ach'),
        status: 'noticed',
        noticeOn: day,
        chargeOn,
        methodKind,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return false;
    await deps.mailer.enqueue(
      tx,
      { to: client.email, subject: m.noticeSubject, text: noticeText(deps, client, row, method) },
      { dedupeKey: `storage-renewal:${row.id}:notice` },
    );
    return true;
  });
}

function noticeText(deps: RenewalDeps, client: ClientToBill, row: FeeRow, method: PaymentMethodRow | null) {
  const due = isoToUsDate(row.dueDate);
  const chargeOn = isoToUsDate(row.chargeOn ?? row.dueDate);
  const amount = formatUsd(yearAmountCents(row, method?.kind ?? 'none'));
  const link = paymentLink(deps, client.clientActId, NOTICE_LINK_LIFETIME_MS);
  const lines = [
    `Dear ${client.firstName},`,
    `Your annual storage renews on ${due} (${storageYearName(row.yearNumber)}, storage paid until ${isoToUsDate(row.coversUntil ?? row.dueDate)} once it is paid). The amount is ${amount}.`,
  ];
  if (method) {
    const named = describeMethodOnFile(method);
    lines.push(`We will charge ${amount} to your ${named} on ${chargeOn}. You do not need to do anything.`);
    if (cardExpiresBefore(method, row.chargeOn ?? row.dueDate))
      lines.push(m.expiresBeforeDue(named, row.dueDate));
    lines.push(
      `To change the payment method, sign in to the Client Portal and open Payment Information, or follow this link (for you only, good until the payment is due): ${link}`,
    );
  } else {
    lines.push(
      `No payment method is on file, so this notice is your invoice: ${amount} is due by ${chargeOn}.`,
      `Pay online: add a card or bank account with this link (for you only) and it is charged on ${chargeOn}: ${link}`,
      `Or pay by check. ${checkInstructions(deps.bank, yearAmountCents(row, 'none'), checkMemo(client.clientActId, row.yearNumber))}`,
    );
  }
  lines.push(`Questions, or to stop the renewal: ${deps.contactUrl}`);
  return lines.join('\n\n');
}

/** A year due a charge on this day: a first try whose charge day has come, or a retry whose day has. */
const dueOn = (day: string) =>
  or(
    and(eq(annualStorageFees.status, 'noticed'), lte(annualStorageFees.chargeOn, day)),
    and(eq(annualStorageFees.status, 'retrying'), lte(annualStorageFees.nextTryOn, day)),
  );

/** The open years to act on this day: first tries due, retries due. */
async function openYears(deps: RenewalDeps, day: string, clientIds: readonly string[] | undefined) {
  return deps.db
    .select()
    .from(annualStorageFees)
    .where(
      and(
        dueOn(day),
        isNull(annualStorageFees.claimOperationId),
        isNull(annualStorageFees.paymentId),
        clientIds ? inArray(annualStorageFees.clientId, [...clientIds]) : undefined,
      ),
    )
    .orderBy(annualStorageFees.chargeOn);
}

/** A year nobody can pay automatically (no method, or by check) becomes overdue 14 days after its charge day. */
async function markUnpaidOverdue(deps: RenewalDeps, row: FeeRow): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [after] = await tx
      .update(annualStorageFees)
      .set({ status: 'overdue' })
      .where(
        and(
          eq(annualStorageFees.id, row.id),
          eq(annualStorageFees.status, 'noticed'),
          isNull(annualStorageFees.claimOperationId),
          isNull(annualStorageFees.paymentId),
        ),
      )
      .returning();
    if (!after) return false;
    await mailDecline(tx, deps, after, { nextTry: null, tries: after.tries });
    return true;
  });
}

/** How many years one batch charges (one statement claims them, one records them). */
const RENEWALS_PER_BATCH = 200;

/**
 * The charges of a day: a year that prepaid years (a storage plan) already cover is closed; one
 * nobody can pay automatically waits for its check until it is overdue; the others are charged to
 * the method on file in batches, each year a paid order keyed by the year and the day.
 */
async function chargeDue(deps: RenewalDeps, day: string, clientIds: readonly string[] | undefined) {
  const counts = noCounts();
  const rows = await openYears(deps, day, clientIds);
  if (rows.length === 0) return counts;
  const owners = [...new Set(rows.map((row) => row.clientId))];
  const [contacts, methods] = await Promise.all([
    clientContacts(deps.db, owners),
    clientMethodsOnFile(deps.db, owners),
  ]);
  const covered: string[] = [];
  const unpaid: FeeRow[] = [];
  const orders: BatchOrder<RenewalItem>[] = [];
  for (const row of rows) {
    const client = contacts.get(row.clientId);
    if (!client) continue;
    if (
      row.coversUntil &&
      client.annualStoragePaidUntil &&
      client.annualStoragePaidUntil >= row.coversUntil
    ) {
      covered.push(row.id);
      continue;
    }
    const method = methodToCharge(methods.get(row.clientId) ?? { card: null, ach: null }, row.methodKind);
    if (!method) {
      if (day >= addDays(row.chargeOn ?? row.dueDate, CHECK_GRACE_DAYS)) unpaid.push(row);
      continue;
    }
    orders.push({
      clientId: row.clientId,
      idempotencyKey: renewalKey(row.id, day),
      request: { feeId: row.id, day },
      charge: {
        source: 'Annual Storage Renewal',
        purpose: 'annual_storage_renewal',
        // By card the card-or-check amount, with no further fee; by ACH the maintenance fee.
        amountCents: yearAmountCents(row, method.kind),
        method,
        description: `Annual storage, ${storageYearName(row.yearNumber)}`,
      },
      item: { row },
    });
  }
  if (covered.length > 0) {
    await deps.db
      .update(annualStorageFees)
      .set({ status: 'covered' })
      .where(
        and(
          inArray(annualStorageFees.id, covered),
          inArray(annualStorageFees.status, ['noticed', 'retrying']),
        ),
      );
  }
  await forEachClient(
    unpaid,
    (row) => row.clientId,
    async (row) => {
      if (await markUnpaidOverdue(deps, row)) counts.overdue += 1;
    },
  );
  const kind = storageRenewalBatch(deps, day, dueOn(day));
  for (const batch of batchesOf(orders, RENEWALS_PER_BATCH)) {
    const outcome = await placePaidOrdersOnFile(deps, kind, batch);
    counts.charges += outcome.placed;
    // Each refusal is a try when the year counts it (as giveBack recorded it).
    const refusedIds = outcome.refused.map(({ claim }) => claim.feeId);
    if (refusedIds.length === 0) continue;
    const after = await deps.db
      .select({ id: annualStorageFees.id, tries: annualStorageFees.tries, status: annualStorageFees.status })
      .from(annualStorageFees)
      .where(inArray(annualStorageFees.id, refusedIds));
    for (const { claim } of outcome.refused) {
      const row = after.find((a) => a.id === claim.feeId);
      if (!row || row.tries <= claim.tries) continue;
      counts.declines += 1;
      if (row.status === 'retrying') counts.retries += 1;
      if (row.status === 'overdue') counts.overdue += 1;
    }
  }
  return counts;
}

/** One billing day: its notices, then its charges and retries. */
export async function runBillingDay(
  deps: RenewalDeps,
  day: string,
  scope: { clientIds?: readonly string[]; clientActIds?: readonly string[] } = {},
): Promise<DayCounts> {
  const notices = await sendNotices(deps, day, scope.clientActIds);
  const charged = await chargeDue(deps, day, scope.clientIds);
  deps.mailer.kick();
  return { ...charged, notices };
}
