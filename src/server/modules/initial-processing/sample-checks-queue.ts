import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayFor } from '../../../domain/client';
import { isoToUsDate } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import { tissueLabels } from '../../../domain/initial-processing';
import { formatUsd } from '../../../domain/money';
import {
  staffQueueMessages as m,
  type RecordCheckRequest,
  type RecordCheckResponse,
  recordCheckRequestSchema,
  recordCheckResponseSchema,
  type SampleAwaitingCheck,
  sampleChecksResponseSchema,
} from '../../../domain/staff-queues';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import { noteAuditAmount, noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { recordActivity } from '../clients/client-activities';
import { clientContact, markClientCompleted } from '../clients/client-directory';
import type { StaffQueue } from '../staff/queues/queue';
import { readCheckEntry, refuseOtherCheck } from '../staff/queues/recorded-check';
import { sampleAndClient, sampleFacts } from './sample-rows';
import { sampleSubmissions } from './schema';

/** New samples whose physician chose a check in the shipment, still unpaid: oldest first. */
export async function samplesAwaitingCheck(db: Database): Promise<SampleAwaitingCheck[]> {
  const samples = await db
    .select()
    .from(sampleSubmissions)
    .where(eq(sampleSubmissions.status, 'awaiting_check'))
    .orderBy(asc(sampleSubmissions.completedAt), asc(sampleSubmissions.createdAt))
    .limit(500);
  return (await sampleFacts(db, samples)).map(([sample, facts]) => ({
    ...facts,
    amountDueCents: sample.totalCents,
    billingName: sample.billingName,
    billingEmail: sample.billingEmail,
  }));
}

type SampleRow = typeof sampleSubmissions.$inferSelect;

function answerOf(sample: SampleRow, clientActId: string): RecordCheckResponse {
  return {
    success: true,
    message: m.checkRecorded,
    sampleId: sample.id,
    clientActId,
    checkNumber: sample.checkNumber ?? '',
    checkAmountCents: sample.checkAmountCents ?? 0,
    checkDate: sample.checkDate ?? '',
    recordedAt: (sample.checkRecordedAt ?? new Date(0)).toISOString(),
  };
}

/**
 * Records the check of a new sample: in one transaction, the sample becomes paid only if it is
 * still awaiting its check (the conditional update decides between two staff members), the
 * client's initial processing is marked paid (their consent opens), the payment goes on Client
 * Activity and the client is e-mailed. The same staff member sending the same check again (a
 * double click) gets the same answer; anyone else is told who recorded it.
 */
export async function recordCheck(
  deps: Pick<AppDeps, 'db' | 'clock' | 'mailer'>,
  staffId: string,
  body: RecordCheckRequest,
  onClient: (clientId: string) => void,
): Promise<RecordCheckResponse> {
  const { db, clock, mailer } = deps;
  const now = clock.now();
  const found = await sampleAndClient(db, body.sampleId, clientContact);
  if (found?.sample.paymentKind !== 'check') throw notFound();
  onClient(found.client.id);
  const entered = readCheckEntry(body, found.sample.totalCents, now);
  const { checkNumber, checkAmountCents, checkDate } = entered;

  const recorded = await db.transaction(async (tx) => {
    const [sample] = await tx
      .update(sampleSubmissions)
      .set({
        status: 'paid',
        checkNumber,
        checkAmountCents,
        checkDate,
        checkRecordedBy: staffId,
        checkRecordedAt: now,
      })
      .where(and(eq(sampleSubmissions.id, body.sampleId), eq(sampleSubmissions.status, 'awaiting_check')))
      .returning();
    if (!sample) return null;
    const client = found.client;
    await markClientCompleted(tx, client.id, 'initialProcessingFormCompleted', now);
    const tissue = tissueLabels[sample.tissue];
    await recordActivity(tx, {
      clientId: client.id,
      type: 'Initial Processing',
      closeDate: todayFor(now),
      purchasedPlanName: `Initial sample processing, ${tissue} (${formatUsd(checkAmountCents)} by check no. ${checkNumber})`,
      stageName: 'Closed Won',
      amountCents: checkAmountCents,
    });
    await mailer.enqueue(
      tx,
      {
        to: client.email,
        subject: 'Client Portal: we received the payment for your initial processing',
        text: [
          `Dear ${client.firstName},`,
          `We received check no. ${checkNumber} of ${formatUsd(checkAmountCents)}, dated ${isoToUsDate(checkDate)}, for the initial processing of your ${tissue.toLowerCase()} sample (Client ID ${client.clientActId}).`,
          'Your initial processing is paid. Please sign in to the Client Portal and sign the consent agreement under Forms and Other Documents.',
        ].join('\n\n'),
      },
      { dedupeKey: `sample:${sample.id}:check-recorded` },
    );
    return sample;
  });
  if (recorded) {
    mailer.kick();
    return answerOf(recorded, found.client.clientActId);
  }

  // Someone got there first (or this is the same click again).
  const [current] = await db.select().from(sampleSubmissions).where(eq(sampleSubmissions.id, body.sampleId));
  if (current?.status !== 'paid' || !current.checkRecordedAt) {
    throw new HttpError('ALREADY_COMPLETED', m.sampleGone);
  }
  await refuseOtherCheck(
    db,
    { ...current, recordedBy: current.checkRecordedBy, recordedAt: current.checkRecordedAt },
    staffId,
    entered,
  );
  return answerOf(current, found.client.clientActId);
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** The queue of new samples paid by check (either staff level); audited by the scope. */
export const sampleCheckRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/sample_checks',
    {
      config: { audit: 'read-queue' },
      schema: {
        summary: 'New samples sent with a check in the shipment, waiting for the check: oldest first',
        tags: ['staff'],
        response: { 200: sampleChecksResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const samples = await samplesAwaitingCheck(deps.db);
      noteShownClients(
        sessionOf(request, 'staff'),
        samples.map((s) => s.clientId),
      );
      return { samples };
    },
  );

  app.post(
    '/record_check',
    {
      config: { audit: 'record-check' },
      schema: {
        summary:
          "Records a new sample's check (number, amount, date): initial processing paid, the client's consent opens, the client is e-mailed",
        description:
          'Once per sample: the same staff member sending the same check again gets the same answer; anyone else gets 409 with who recorded it.',
        tags: ['staff'],
        body: recordCheckRequestSchema,
        response: { 200: recordCheckResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const recorded = await recordCheck(deps, session.staffId, request.body, (clientId) =>
        noteResolvedClient(session, clientId),
      );
      noteAuditAmount(request, recorded.checkAmountCents);
      return recorded;
    },
  );
};

/** The queue's entry on the staff home page (its count) and its routes. */
export const sampleChecksQueue: StaffQueue = {
  key: 'checks',
  title: 'New Samples Paid by Check',
  count: async (db) => (await samplesAwaitingCheck(db)).length,
  routes: sampleCheckRoutes,
};
