import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isoDateOf, isoToUsDate } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import {
  acceptLabReportRequestSchema,
  type LabReportAwaiting,
  labReportsResponseSchema,
  staffQueueMessages as m,
  type ReviewLabReportResponse,
  rejectLabReportRequestSchema,
  reviewLabReportResponseSchema,
} from '../../../domain/staff-queues';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { documentFacts } from '../../lib/document-store';
import { HttpError, notFound } from '../../lib/http-error';
import { noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import {
  clientContact,
  clientContacts,
  clientFullName,
  reopenClientCompletion,
} from '../clients/client-directory';
import { findPhysician, physicianContacts, physicianOfClient } from '../physicians/physician-repository';
import type { StaffQueue } from '../staff/queues/queue';
import { staffMemberName } from '../staff/staff-accounts';
import { formSubmissions } from './schema';

/** Screening forms submitted with a lab report that nobody has reviewed yet: oldest first. */
export async function labReportsAwaitingReview(db: Database): Promise<LabReportAwaiting[]> {
  const submissions = await db
    .select()
    .from(formSubmissions)
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
  const clients = await clientContacts(
    db,
    submissions.map((submission) => submission.clientId),
  );
  const physicians = await physicianContacts(
    db,
    submissions.flatMap((submission) => (submission.physicianId ? [submission.physicianId] : [])),
  );
  const files = await documentFacts(
    db,
    submissions.flatMap((submission) =>
      submission.labReportDocumentId ? [submission.labReportDocumentId] : [],
    ),
  );
  return submissions.flatMap((submission) => {
    const client = clients.get(submission.clientId);
    const file = files.get(submission.labReportDocumentId ?? '');
    if (!client || !file) return [];
    const physician = submission.physicianId ? physicians.get(submission.physicianId) : undefined;
    return [
      {
        submissionId: submission.id,
        clientId: submission.clientId,
        clientActId: client.clientActId,
        clientName: clientFullName(client),
        submittedAt: (submission.completedAt ?? submission.createdAt).toISOString(),
        submittedBy: physician ? `Dr. ${physician.firstName} ${physician.lastName}` : 'Client',
        documentId: submission.labReportDocumentId as string,
        fileName: file.fileName,
        sizeBytes: file.sizeBytes,
      },
    ];
  });
}

type Decision = { outcome: 'accepted' } | { outcome: 'rejected'; reason: string };

/**
 * The physician told of a rejected lab report: the one who submitted the form for the client, else
 * the client's physician of record (the first linked); none when the client has no physician.
 */
async function physicianToTell(db: Database, submittedBy: string | null, clientId: string) {
  const submitter = submittedBy ? await findPhysician(db, submittedBy) : undefined;
  return submitter ?? (await physicianOfClient(db, clientId)) ?? null;
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
  const [submission] = await db
    .select()
    .from(formSubmissions)
    .where(and(eq(formSubmissions.id, submissionId), eq(formSubmissions.form, 'infectious_disease')))
    .limit(1);
  const client = submission ? await clientContact(db, submission.clientId) : null;
  if (!submission?.labReportDocumentId || !client) throw notFound();
  const found = { submission, client };
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
      await reopenClientCompletion(tx, client.id, 'infectiousDiseaseFormCompleted', now);
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
  throw new HttpError(
    'ALREADY_COMPLETED',
    m.labReportAlreadyReviewed(
      current.labReportReview,
      await staffMemberName(db, current.labReportReviewedBy),
      isoToUsDate(isoDateOf(current.labReportReviewedAt)),
    ),
  );
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** The queue of uploaded lab reports (either staff level); audited by the scope. */
export const labReportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const review = (request: FastifyRequest, submissionId: string, decision: Decision) => {
    const session = sessionOf(request, 'staff');
    return reviewLabReport(deps, session.staffId, submissionId, decision, (id) =>
      noteResolvedClient(session, id),
    );
  };

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
    (request) => review(request, request.body.submissionId, { outcome: 'accepted' }),
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
    (request) =>
      review(request, request.body.submissionId, { outcome: 'rejected', reason: request.body.reason }),
  );
};

/** The queue's entry on the staff home page (its count) and its routes. */
export const labReportsQueue: StaffQueue = {
  key: 'lab-reports',
  title: 'Lab Reports',
  count: async (db) => (await labReportsAwaitingReview(db)).length,
  routes: labReportRoutes,
};
