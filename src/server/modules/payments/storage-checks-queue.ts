import { and, asc, count, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayFor } from '../../../domain/client';
import { addYears, isoToUsDate } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import { formatUsd } from '../../../domain/money';
import { renewalMessages } from '../../../domain/storage-billing';
import {
  storageCheckMessages as m,
  type RecordStorageCheckRequest,
  type RecordStorageCheckResponse,
  recordStorageCheckRequestSchema,
  recordStorageCheckResponseSchema,
  type StorageYearAwaitingCheck,
  storageChecksResponseSchema,
  storageYearName,
} from '../../../domain/storage-year-checks';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { storeDocument } from '../../lib/document-store';
import { HttpError, notFound } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { noteAuditAmount, noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { recordActivity } from '../clients/client-activities';
import {
  type ClientContact,
  clientContact,
  clientContacts,
  clientFullName,
} from '../clients/client-directory';
import { extendStoragePaidUntil } from '../clients/client-holdings';
import type { StaffQueue } from '../staff/queues/queue';
import { type CheckRead, readCheckEntry, refuseOtherCheck } from '../staff/queues/recorded-check';
import { renderReceiptPdf } from './receipt-pdf';
import { annualStorageFees } from './schema';

/**
 * Storage years paid by check (issue 21): the years of clients invoiced for lack of a method on
 * file (or paying by check), and every overdue year, that no card or bank payment holds now;
 * oldest due first. Recording the check pays the year as a renewal's charge would (paid-until,
 * Client Activity, a receipt e-mailed), once: the year moves to paid under a guard in the same
 * transaction, so of two staff one records it and the other is told who did, and a payment
 * online that got there first is named. Like the other check queues, a check writes no ledger
 * row (the ledger holds what went through a gateway): its receipt is a document of the client's.
 */

type FeeRow = typeof annualStorageFees.$inferSelect;
type StorageCheckDeps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'documentsKey' | 'config'>;

class LostRace extends Error {}

/** Unpaid, and held by no charge (a renewal's claim, a payment from Payment Information or a link). */
const awaitingCheck = and(
  isNull(annualStorageFees.paidAt),
  isNull(annualStorageFees.claimOperationId),
  isNull(annualStorageFees.paymentId),
  or(
    and(eq(annualStorageFees.status, 'noticed'), inArray(annualStorageFees.methodKind, ['check', 'none'])),
    eq(annualStorageFees.status, 'overdue'),
  ),
);

/** The day storage is paid until once the year is paid (an older row without it: a calendar year). */
const paysUntil = (row: FeeRow) => row.coversUntil ?? addYears(row.dueDate, 1);

export async function storageYearsAwaitingCheck(db: Database): Promise<StorageYearAwaitingCheck[]> {
  const years = await db
    .select()
    .from(annualStorageFees)
    .where(awaitingCheck)
    .orderBy(asc(annualStorageFees.dueDate), asc(annualStorageFees.createdAt))
    .limit(500);
  const clients = await clientContacts(
    db,
    years.map((year) => year.clientId),
  );
  return years.flatMap((year) => {
    const client = clients.get(year.clientId);
    if (!client) return [];
    return [
      {
        feeId: year.id,
        clientId: year.clientId,
        clientActId: client.clientActId,
        clientName: clientFullName(client),
        yearNumber: year.yearNumber,
        dueDate: year.chargeOn ?? year.dueDate,
        overdue: year.status === 'overdue',
        amountDueCents: year.amountCents,
        paidUntil: client.annualStoragePaidUntil,
        paysUntil: paysUntil(year),
      },
    ];
  });
}

function answerOf(row: FeeRow, clientActId: string): RecordStorageCheckResponse {
  return {
    success: true,
    message: m.recorded,
    feeId: row.id,
    clientActId,
    checkNumber: row.checkNumber ?? '',
    checkAmountCents: row.checkAmountCents ?? 0,
    checkDate: row.checkDate ?? '',
    recordedAt: (row.checkRecordedAt ?? new Date(0)).toISOString(),
    paidUntil: paysUntil(row),
  };
}

/** The check's effects once the year is the recorder's: paid-until, Client Activity, the receipt e-mail. */
async function applyStorageCheck(
  tx: Transaction,
  deps: StorageCheckDeps,
  year: FeeRow,
  client: ClientContact,
  check: CheckRead,
) {
  const now = deps.clock.now();
  const until = paysUntil(year);
  const name = storageYearName(year.yearNumber);
  await extendStoragePaidUntil(tx, client.id, until, now);
  await recordActivity(tx, {
    clientId: client.id,
    type: 'Annual Storage Fee',
    closeDate: todayFor(now),
    purchasedPlanName: `Annual Storage (${name}, check no. ${check.checkNumber})`,
    stageName: 'Closed Won',
    amountCents: check.checkAmountCents,
  });
  await deps.mailer.enqueue(
    tx,
    {
      to: client.email,
      subject: renewalMessages.receiptSubject,
      text: [
        `Dear ${client.firstName},`,
        `We received check no. ${check.checkNumber} of ${formatUsd(check.checkAmountCents)}, dated ${isoToUsDate(check.checkDate)}, for your annual storage (${name}, Client ID ${client.clientActId}).`,
        `Your storage is now paid until ${isoToUsDate(until)}.`,
        'The receipt is attached. Thank you.',
        `Questions: ${deps.config.contactUrl}`,
      ].join('\n\n'),
      attachments: year.receiptDocumentId
        ? [{ documentId: year.receiptDocumentId, filename: 'receipt.pdf', contentType: 'application/pdf' }]
        : [],
    },
    // The renewal's receipt key: a year is receipted once, however it was paid.
    { dedupeKey: `storage-renewal:${year.id}:paid` },
  );
}

/** Years are paid in order: paid-until is the end of the last year paid, so no year is skipped. */
async function refuseLaterYear(tx: Transaction, year: FeeRow) {
  const [earlier] = await tx
    .select({ dueDate: annualStorageFees.dueDate })
    .from(annualStorageFees)
    .where(
      and(
        eq(annualStorageFees.clientId, year.clientId),
        lt(annualStorageFees.dueDate, year.dueDate),
        isNull(annualStorageFees.paidAt),
        inArray(annualStorageFees.status, ['noticed', 'retrying', 'overdue']),
      ),
    )
    .orderBy(asc(annualStorageFees.dueDate))
    .limit(1);
  if (earlier) throw new HttpError('NOT_ALLOWED_NOW', m.earlierYearFirst(isoToUsDate(earlier.dueDate)));
}

/** Marks the year paid by the check, if it still awaits one; undefined when someone got there first. */
async function payYearByCheck(
  deps: StorageCheckDeps,
  staffId: string,
  year: FeeRow,
  client: ClientContact,
  check: CheckRead,
): Promise<FeeRow | undefined> {
  const now = deps.clock.now();
  const checkLabel = `Check no. ${check.checkNumber}`;
  // The receipt is rendered before the transaction; it is stored only by the one who records.
  const pdf = await renderReceiptPdf(
    {
      clientName: clientFullName(client),
      clientActId: client.clientActId,
      paidOn: isoToUsDate(check.checkDate),
      description: `Annual Storage (${storageYearName(year.yearNumber)}), paid until ${isoToUsDate(paysUntil(year))}`,
      amountCents: check.checkAmountCents,
      feeCents: 0,
      totalCents: check.checkAmountCents,
      method: checkLabel,
      transactionId: checkLabel,
    },
    now,
  );
  return deps.db
    .transaction(async (tx) => {
      await refuseLaterYear(tx, year);
      const receipt = await storeDocument(tx, deps.documentsKey, {
        clientId: client.id,
        kind: 'receipt',
        fileName: 'receipt.pdf',
        contentType: 'application/pdf',
        content: pdf,
        now,
      });
      const [paid] = await tx
        .update(annualStorageFees)
        .set({
          status: 'paid',
          paidAt: now,
          paidOn: todayFor(now),
          nextTryOn: null,
          recovered: year.tries > 0,
          ...check,
          checkRecordedBy: staffId,
          checkRecordedAt: now,
          receiptDocumentId: receipt.id,
        })
        .where(and(eq(annualStorageFees.id, year.id), awaitingCheck))
        .returning();
      // Someone got there first: the stored receipt is rolled back with this.
      if (!paid) throw new LostRace();
      await applyStorageCheck(tx, deps, paid, client, check);
      return paid;
    })
    .catch((error: unknown) => {
      if (error instanceof LostRace) return undefined;
      throw error;
    });
}

/** Why the year did not take this check: the same check again (answered), another's, a payment online. */
async function refusal(deps: StorageCheckDeps, feeId: string, staffId: string, check: CheckRead) {
  const [current] = await deps.db.select().from(annualStorageFees).where(eq(annualStorageFees.id, feeId));
  if (!current) throw notFound();
  if (current.checkRecordedAt) {
    await refuseOtherCheck(
      deps.db,
      { ...current, recordedBy: current.checkRecordedBy, recordedAt: current.checkRecordedAt },
      staffId,
      check,
    );
    return current;
  }
  if (current.paidAt) {
    throw new HttpError(
      'ALREADY_COMPLETED',
      m.paidOnline(isoToUsDate(current.paidOn ?? todayFor(current.paidAt))),
    );
  }
  if (current.claimOperationId || current.paymentId)
    throw new HttpError('NOT_ALLOWED_NOW', m.paymentUnderWay);
  throw new HttpError('ALREADY_COMPLETED', m.yearGone);
}

export async function recordStorageCheck(
  deps: StorageCheckDeps,
  staffId: string,
  body: RecordStorageCheckRequest,
  onClient: (clientId: string) => void,
): Promise<RecordStorageCheckResponse> {
  const [year] = await deps.db
    .select()
    .from(annualStorageFees)
    .where(eq(annualStorageFees.id, body.feeId))
    .limit(1);
  const client = year ? await clientContact(deps.db, year.clientId) : null;
  if (!year || !client) throw notFound();
  onClient(client.id);
  const check = readCheckEntry(body, year.amountCents, deps.clock.now());
  const paid = await payYearByCheck(deps, staffId, year, client, check);
  if (paid) {
    deps.mailer.kick();
    return answerOf(paid, client.clientActId);
  }
  return answerOf(await refusal(deps, year.id, staffId, check), client.clientActId);
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

const storageCheckRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/storage_checks',
    {
      config: { audit: 'read-queue' },
      schema: {
        summary:
          'Storage years waiting for a check: invoiced for lack of a method (or paid by check), or overdue; oldest due first',
        tags: ['staff queues'],
        response: { 200: storageChecksResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const years = await storageYearsAwaitingCheck(deps.db);
      noteShownClients(
        sessionOf(request, 'staff'),
        years.map((y) => y.clientId),
      );
      return { years };
    },
  );

  app.post(
    '/record_storage_check',
    {
      config: { audit: 'record-storage-check' },
      schema: {
        summary:
          "Records a storage year's check (number, amount, date): the year is paid (paid-until, Client Activity, e-mail with receipt)",
        description:
          'Once per year: the same staff member sending the same check again gets the same answer; anyone else gets 409 with who recorded it, and a year paid by card or bank account meanwhile 409 with when.',
        tags: ['staff queues'],
        body: recordStorageCheckRequestSchema,
        response: { 200: recordStorageCheckResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const recorded = await recordStorageCheck(deps, session.staffId, request.body, (clientId) =>
        noteResolvedClient(session, clientId),
      );
      noteAuditAmount(request, recorded.checkAmountCents);
      return recorded;
    },
  );
};

export const storageChecksQueue: StaffQueue = {
  key: 'storage-checks',
  title: 'Storage Years Paid by Check',
  async count(db) {
    const [row] = await db.select({ n: count() }).from(annualStorageFees).where(awaitingCheck);
    return row?.n ?? 0;
  },
  routes: storageCheckRoutes,
};
