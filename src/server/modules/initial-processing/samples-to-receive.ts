import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayFor } from '../../../domain/client';
import { calendarDateToIso, isoDateOf, isoToUsDate } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import { tissueLabels } from '../../../domain/initial-processing';
import {
  firstYearPaidUntil,
  sampleReceiptMessages as m,
  type ReceiveSampleRequest,
  type ReceiveSampleResponse,
  receiveSampleRequestSchema,
  receiveSampleResponseSchema,
  type SampleToReceive,
  sampleReceiptProblems,
  samplesToReceiveResponseSchema,
} from '../../../domain/storage-year';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';

import { HttpError, notFound } from '../../lib/http-error';
import { noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { recordActivity } from '../clients/client-activities';
import { findClientRow } from '../clients/client-directory';
import { recordBankedDate } from '../clients/client-holdings';
import type { StaffQueue } from '../staff/queues/queue';
import { staffMemberName } from '../staff/staff-accounts';
import { sampleAndClient, sampleFacts } from './sample-rows';
import { sampleSubmissions } from './schema';

/**
 * "Samples to Receive" (issue 21): every new sample, paid by card or awaiting its check, until
 * staff record the tissue's arrival. That date is the client's banked date (their Enrollment Date
 * for billing): the first year of storage is included, so storage is paid until the first
 * anniversary, and the earliest-shipment rule reads it.
 */

type SampleRow = typeof sampleSubmissions.$inferSelect;

export async function samplesToReceive(db: Database): Promise<SampleToReceive[]> {
  const samples = await db
    .select()
    .from(sampleSubmissions)
    .where(
      and(
        inArray(sampleSubmissions.status, ['paid', 'awaiting_check']),
        isNull(sampleSubmissions.receivedOn),
      ),
    )
    .orderBy(asc(sampleSubmissions.shipDate), asc(sampleSubmissions.createdAt))
    .limit(500);
  return (await sampleFacts(db, samples)).map(([sample, facts]) => ({
    ...facts,
    paidBy: sample.paymentKind,
    // A check sample is paid once staff record its check; a card one when it was sent.
    initialProcessingPaid: sample.status === 'paid',
  }));
}

function answerOf(sample: SampleRow, clientActId: string): ReceiveSampleResponse {
  const receivedOn = sample.receivedOn ?? '';
  const paidUntil = firstYearPaidUntil(receivedOn);
  return {
    success: true,
    message: m.received(isoToUsDate(paidUntil)),
    sampleId: sample.id,
    clientActId,
    receivedOn,
    vialsBanked: sample.vialsBanked ?? 0,
    paidUntil,
  };
}

/**
 * Records a sample's arrival once: a conditional update decides between two staff members; the
 * client's banked date and paid-until (the first anniversary) are set with it, a Client Activity
 * row and an e-mail to the client go in the same transaction. The same staff member sending the
 * same entry again (a double click) gets the same answer; anyone else is told who recorded it.
 */
export async function receiveSample(
  deps: Pick<AppDeps, 'db' | 'clock' | 'mailer'>,
  staffId: string,
  body: ReceiveSampleRequest,
  onClient: (clientId: string) => void,
): Promise<ReceiveSampleResponse> {
  const { db, clock, mailer } = deps;
  const now = clock.now();
  const found = await sampleAndClient(db, body.sampleId, findClientRow);
  if (!found || found.sample.status === 'pending') throw notFound();
  onClient(found.client.id);
  const submittedOn = isoDateOf(found.sample.completedAt ?? found.sample.createdAt);
  const problems = sampleReceiptProblems(body, { today: todayFor(now), submittedOn });
  const firstProblem = Object.values(problems)[0];
  if (firstProblem) throw new HttpError('VALIDATION', firstProblem, problems);
  const receivedOn = calendarDateToIso(body.receivedOn) ?? '';
  const vialsBanked = Number(body.vialsBanked.trim());
  const paidUntil = firstYearPaidUntil(receivedOn);

  const recorded = await db.transaction(async (tx) => {
    const [sample] = await tx
      .update(sampleSubmissions)
      .set({ receivedOn, vialsBanked, receivedBy: staffId, receivedRecordedAt: now })
      .where(and(eq(sampleSubmissions.id, body.sampleId), isNull(sampleSubmissions.receivedOn)))
      .returning();
    if (!sample) return null;
    const client = found.client;
    await recordBankedDate(tx, client.id, { bankedDate: receivedOn, paidUntil }, now);
    const tissue = tissueLabels[sample.tissue];
    await recordActivity(tx, {
      clientId: client.id,
      type: 'Sample Received',
      closeDate: receivedOn,
      purchasedPlanName: `${tissue} sample received, ${vialsBanked} vial${vialsBanked === 1 ? '' : 's'} banked; storage paid until ${isoToUsDate(paidUntil)}`,
      stageName: 'Closed Won',
    });
    await mailer.enqueue(
      tx,
      {
        to: client.email,
        subject: 'Client Portal: we received your sample',
        text: [
          `Dear ${client.firstName},`,
          `Your ${tissue.toLowerCase()} sample arrived at the bank on ${isoToUsDate(receivedOn)}, and ${vialsBanked} vial${vialsBanked === 1 ? ' was' : 's were'} banked (Client ID ${client.clientActId}).`,
          `The first year of storage is included: your annual storage is paid until ${isoToUsDate(paidUntil)}. The annual storage fee is charged on each anniversary of this date, and we will write to you before each one.`,
        ].join('\n\n'),
      },
      { dedupeKey: `sample:${sample.id}:received` },
    );
    return sample;
  });
  if (recorded) {
    mailer.kick();
    return answerOf(recorded, found.client.clientActId);
  }

  const [current] = await db.select().from(sampleSubmissions).where(eq(sampleSubmissions.id, body.sampleId));
  if (!current?.receivedOn || !current.receivedRecordedAt)
    throw new HttpError('ALREADY_COMPLETED', m.sampleGone);
  const same =
    current.receivedBy === staffId &&
    current.receivedOn === receivedOn &&
    current.vialsBanked === vialsBanked;
  if (same) return answerOf(current, found.client.clientActId);
  throw new HttpError(
    'ALREADY_COMPLETED',
    m.alreadyReceived(
      await staffMemberName(db, current.receivedBy),
      isoToUsDate(isoDateOf(current.receivedRecordedAt)),
    ),
  );
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** The queue's routes (either staff level); audited by the scope. */
const samplesToReceiveRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/samples_to_receive',
    {
      config: { audit: 'read-queue' },
      schema: {
        summary: 'New samples whose tissue has not arrived yet: earliest ship date first',
        tags: ['staff'],
        response: { 200: samplesToReceiveResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const samples = await samplesToReceive(deps.db);
      noteShownClients(
        sessionOf(request, 'staff'),
        samples.map((s) => s.clientId),
      );
      return { samples };
    },
  );

  app.post(
    '/receive_sample',
    {
      config: { audit: 'receive-sample' },
      schema: {
        summary:
          "Records a sample's arrival (date, vials banked): the client's banked date, storage paid until the first anniversary",
        description:
          'Once per sample: the same staff member sending the same entry again gets the same answer; anyone else gets 409 with who recorded it.',
        tags: ['staff'],
        body: receiveSampleRequestSchema,
        response: { 200: receiveSampleResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      return receiveSample(deps, session.staffId, request.body, (clientId) =>
        noteResolvedClient(session, clientId),
      );
    },
  );
};

/** The queue's entry on the staff home page (its count) and its routes. */
export const samplesToReceiveQueue: StaffQueue = {
  key: 'samples-to-receive',
  title: 'Samples to Receive',
  count: async (db) => (await samplesToReceive(db)).length,
  routes: samplesToReceiveRoutes,
};
