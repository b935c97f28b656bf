import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isoDateOf, isoToUsDate } from '../../../../domain/dates';
import { errorBodySchema } from '../../../../domain/errors';
import {
  acceptLabReportRequestSchema,
  type LabReportAwaiting,
  labReportsResponseSchema,
  staffQueueMessages as m,
  type ReviewLabReportResponse,
  rejectLabReportRequestSchema,
  reviewLabReportResponseSchema,
} from '../../../../domain/staff-queues';
import type { AppDeps } from '../../../app-deps';
import type { Database } from '../../../db/client';
import {
  clients,
  documents,
  formSubmissions,
  physicianClients,
  physicians,
  staffAccounts,
} from '../../../db/schema';
import { HttpError, notFound } from '../../../lib/http-error';
import { noteResolvedClient, noteShownClients } from '../../../plugins/audit';
import { sessionOf } from '../../../plugins/sessions';
import type { StaffQueue } from './queue';

/** Screening forms submitted with a lab report that nobody has reviewed yet: oldest first. */
export async function labReportsAwaitingReview(db: Database): Promise<LabReportAwaiting[]> {
  const rows = await db
    .select({
      submission: formSubmissions,
      clientActId: clients.clientActId,
      firstName: clients.firstName,
      lastName: clients.lastName,
      physicianFirst: physicians.firstName,
      physicianLast: physicians.lastName,
      fileName: documents.fileName,
      sizeBytes: documents.sizeBytes,
    })
    .from(formSubmissions)
    .innerJoin(clients, eq(clients.id, formSubmissions.clientId))
    .innerJoin(documents, eq(documents.id, formSubmissions.labReportDocumentId))
    .leftJoin(physicians, eq(physicians.id, formSubmissions.physicianId))
    .where(
      and(
        eq(formSubmissions.form, 'infectious_disease'),
        eq(formSubmissions.status, 'completed'),
        isNotNull(formSubmissions.labReportDocumentId),
        isNull(formSubmissions.labReportReview),
      ),
    )
    .orderBy(asc(formSubmissions.completedAt), asc(formSubmissions.createdAt))
    .limit(500);
  return rows.map((row) => ({
    submissionId: row.submission.id,
    clientId: row.submission.clientId,
    clientActId: row.clientActId,
    clientName: `${row.firstName} ${row.lastName}`,
    submittedAt: (row.submission.completedAt ?? row.submission.createdAt).toISOString(),
    submittedBy: row.physicianLast ? `Dr. ${row.physicianFirst} ${row.physicianLast}` : 'Client',
    documentId: row.submission.labReportDocumentId as string,
    fileName: row.fileName,
    sizeBytes: row.sizeBytes,
  }));
}

type Decision = { outcome: 'accepted' } | { outcome: 'rejected'; reason: string };

/**
 * The physician told of a rejected lab report: the one who submitted the form for the client, else
 * the client's physician of record (the first linked); none when the client has no physician.
 */
async function physicianToTell(db: Database, submittedBy: string | null, clientId: string) {
  const columns = { email: physicians.email, lastName: physicians.lastName };
  if (submittedBy) {
    const [submitter] = await db
      .select(columns)
      .from(physicians)
      .where(eq(physicians.id, submittedBy))
      .limit(1);
    if (submitter) return submitter;
  }
  const [ofRecord] = await db
    .select(columns)
    .from(physicianClients)
    .innerJoin(physicians, eq(physicians.id, physicianClients.physicianId))
    .where(eq(physicianClients.clientId, clientId))
    .orderBy(asc(physicianClients.createdAt), asc(physicians.physicianActId))
    .limit(1);
  return ofRecord ?? null;
}

/**
 * Accepts or rejects an uploaded lab report, once: the conditional update (still completed, not
 * reviewed) decides between two staff members. A rejection keeps the submission as history
 * (status rejected, with the reason), marks the client's screening not done, so the form opens
 * again and shows the reason, and e-mails the client and, when the client has one, their physician
 * (in the decision's transaction, each once); an acceptance e-mails the client. The same staff
 * member sending the same decision again gets the same answer; anyone else is told.
 */
export async function reviewLabReport(
  deps: Pick<AppDeps, 'db' | 'clock' | 'mailer'>,
  staffId: string,
  submissionId: string,
  decision: Decision,
  onClient: (clientId: string) => void,
): Promise<ReviewLabReportResponse> {
  const { db, clock, mailer } = deps;
  const now = clock.now();
  const [found] = await db
    .select({ submission: formSubmissions, client: clients })
    .from(formSubmissions)
    .innerJoin(clients, eq(clients.id, formSubmissions.clientId))
    .where(and(eq(formSubmissions.id, submissionId), eq(formSubmissions.form, 'infectious_disease')))
    .limit(1);
  if (!found?.submission.labReportDocumentId) throw notFound();
  const { client } = found;
  onClient(client.id);
  const reason = decision.outcome === 'rejected' ? decision.reason : null;
  const physician =
    decision.outcome === 'rejected'
      ? await physicianToTell(db, found.submission.physicianId, client.id)
      : null;
  const answer = (reviewedAt: Date): ReviewLabReportResponse => ({
    success: true,
    message: decision.outcome === 'accepted' ? m.labReportAccepted : m.labReportRejected,
    submissionId,
    outcome: decision.outcome,
    reviewedAt: reviewedAt.toISOString(),
  });

  const reviewed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(formSubmissions)
      .set({
        ...(decision.outcome === 'rejected' ? { status: 'rejected' as const } : {}),
        labReportReview: decision.outcome,
        labReportReviewedBy: staffId,
        labReportReviewedAt: now,
        labReportRejectionReason: reason,
      })
      .where(
        and(
          eq(formSubmissions.id, submissionId),
          eq(formSubmissions.status, 'completed'),
          isNull(formSubmissions.labReportReview),
        ),
      )
      .returning();
    if (!row) return null;
    if (decision.outcome === 'rejected') {
      await tx
        .update(clients)
        .set({ infectiousDiseaseFormCompleted: false, updatedAt: now })
        .where(eq(clients.id, client.id));
    }
    await mailer.enqueue(
      tx,
      decision.outcome === 'accepted'
        ? {
            to: client.email,
            subject: 'Client Portal: your lab report was accepted',
            text: [
              `Dear ${client.firstName},`,
              `We reviewed the lab report you sent with your infectious disease screening form (Client ID ${client.clientActId}) and accepted it. Nothing more is needed for the screening.`,
            ].join('\n\n'),
          }
        : {
            to: client.email,
            subject: 'Client Portal: please send your infectious disease screening again',
            text: [
              `Dear ${client.firstName},`,
              `We reviewed the lab report you sent with your infectious disease screening form (Client ID ${client.clientActId}) and could not accept it, for this reason:`,
              reason ?? '',
              'Your screening form is open again: please sign in to the Client Portal and submit it again under Forms and Other Documents.',
            ].join('\n\n'),
          },
      { dedupeKey: `lab-report:${submissionId}:${decision.outcome}` },
    );
    if (physician) {
      await mailer.enqueue(
        tx,
        {
          to: physician.email,
          subject: `Physician Portal: the lab report of ${client.firstName} ${client.lastName} (${client.clientActId}) was not accepted`,
          text: [
            `Dear Dr. ${physician.lastName},`,
            `We reviewed the lab report sent with the infectious disease screening form of ${client.firstName} ${client.lastName} (Client ID ${client.clientActId}) and could not accept it, for this reason:`,
            reason ?? '',
            'The screening form is open again. Your client can submit it again in the Client Portal, or you can submit it for them in the Physician Portal under Client Infectious Disease Form.',
          ].join('\n\n'),
        },
        { dedupeKey: `lab-report:${submissionId}:rejected:physician` },
      );
    }
    return row;
  });
  if (reviewed) {
    mailer.kick();
    return answer(now);
  }

  const [current] = await db.select().from(formSubmissions).where(eq(formSubmissions.id, submissionId));
  if (!current?.labReportReview || !current.labReportReviewedAt) throw notFound();
  const same =
    current.labReportReviewedBy === staffId &&
    current.labReportReview === decision.outcome &&
    (current.labReportRejectionReason ?? null) === reason;
  if (same) return answer(current.labReportReviewedAt);
  const [by] = current.labReportReviewedBy
    ? await db
        .select({ name: staffAccounts.name })
        .from(staffAccounts)
        .where(eq(staffAccounts.id, current.labReportReviewedBy))
    : [];
  throw new HttpError(
    'ALREADY_COMPLETED',
    m.labReportAlreadyReviewed(
      current.labReportReview,
      by?.name ?? 'another staff member',
      isoToUsDate(isoDateOf(current.labReportReviewedAt)),
    ),
  );
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** The queue of uploaded lab reports (either staff level); audited by the scope. */
export const labReportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/lab_reports',
    {
      config: { audit: 'read-queue' },
      schema: {
        summary:
          'Lab reports uploaded with the screening form and not reviewed yet: oldest first (the PDF through GET /api/staff/documents/{id})',
        tags: ['staff'],
        response: { 200: labReportsResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const reports = await labReportsAwaitingReview(deps.db);
      noteShownClients(
        sessionOf(request, 'staff'),
        reports.map((r) => r.clientId),
      );
      return { reports };
    },
  );

  app.post(
    '/accept_lab_report',
    {
      config: { audit: 'review-lab-report' },
      schema: {
        summary: 'Accepts an uploaded lab report; the client is e-mailed',
        description:
          'Once per report: a repeat by the same staff member answers the same; anyone else gets 409.',
        tags: ['staff'],
        body: acceptLabReportRequestSchema,
        response: { 200: reviewLabReportResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      return reviewLabReport(
        deps,
        session.staffId,
        request.body.submissionId,
        { outcome: 'accepted' },
        (id) => noteResolvedClient(session, id),
      );
    },
  );

  app.post(
    '/reject_lab_report',
    {
      config: { audit: 'review-lab-report' },
      schema: {
        summary:
          "Rejects an uploaded lab report with a reason: the client's screening form opens again and shows the reason; the client and, when they have one, their physician are e-mailed",
        description:
          'Once per report: a repeat by the same staff member answers the same; anyone else gets 409.',
        tags: ['staff'],
        body: rejectLabReportRequestSchema,
        response: { 200: reviewLabReportResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      return reviewLabReport(
        deps,
        session.staffId,
        request.body.submissionId,
        { outcome: 'rejected', reason: request.body.reason },
        (id) => noteResolvedClient(session, id),
      );
    },
  );
};

/** The queue's entry on the staff home page (its count) and its routes. */
export const labReportsQueue: StaffQueue = {
  key: 'lab-reports',
  title: 'Lab Reports',
  count: async (db) => (await labReportsAwaitingReview(db)).length,
  routes: labReportRoutes,
};
