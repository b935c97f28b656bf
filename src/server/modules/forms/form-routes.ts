import { and, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  formDocumentsResponseSchema,
  formSubmissionResponseSchema,
  sendConsentDataRequestSchema,
} from '../../../domain/consent-form';
import { errorBodySchema } from '../../../domain/errors';
import { setDiseaseDataRequestSchema } from '../../../domain/infectious-disease';
import type { AppDeps } from '../../app-deps';
import { notFound } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { userAgentOf } from '../../lib/user-agent';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { findClientRow } from '../clients/client-directory';
import { withPaymentAttempt } from '../payments/payment-attempts';
import { submitConsent } from './consent-service';
import { submitDiseaseForm } from './disease-service';
import { formSubmissions } from './schema';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  402: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/** A drawn signature fits in 200 KB; a lab report of 500 KB is about 680 KB as base64. */
export const CONSENT_BODY_LIMIT = 320 * 1024;
const DISEASE_BODY_LIMIT = 1024 * 1024;

export function signerFacts(request: FastifyRequest, clientId: string) {
  return {
    clientId,
    idempotencyKey: idempotencyKeyOf(request.headers),
    ip: request.ip,
    userAgent: userAgentOf(request),
  };
}

/** The consent agreement and the infectious disease screening (spec 2), for the signed-in client. */
export const formRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps;
  /** The client's own forms (a client scope): a physician has the physician variants. */
  const ownClient = (request: FastifyRequest, requestedId?: string) =>
    resolveClientAccess(db, sessionOf(request, 'client'), requestedId);

  app.get(
    '/get_FormDocuments',
    {
      config: { audit: 'read-client' },
      schema: {
        summary: 'Which forms are completed, with the signed PDFs to download',
        tags: ['forms'],
        response: { 200: formDocumentsResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const clientId = await ownClient(request);
      const record = await findClientRow(db, clientId);
      if (!record) throw notFound();
      const client = {
        initial: record.initialProcessingFormCompleted,
        consent: record.clientConsentFormCompleted,
        disease: record.infectiousDiseaseFormCompleted,
      };
      const rows = await db
        .select()
        .from(formSubmissions)
        .where(and(eq(formSubmissions.clientId, clientId), eq(formSubmissions.status, 'completed')));
      const consent = rows.find((r) => r.form === 'consent');
      const disease = rows.find((r) => r.form === 'infectious_disease');
      // The bank rejected the last lab report: the form is open again, with the reason.
      const [rejected] = disease
        ? []
        : await db
            .select({
              reason: formSubmissions.labReportRejectionReason,
              at: formSubmissions.labReportReviewedAt,
            })
            .from(formSubmissions)
            .where(
              and(
                eq(formSubmissions.clientId, clientId),
                eq(formSubmissions.form, 'infectious_disease'),
                eq(formSubmissions.status, 'rejected'),
              ),
            )
            .orderBy(desc(formSubmissions.labReportReviewedAt))
            .limit(1);
      return {
        initialProcessingFormCompleted: client.initial,
        consent: {
          completed: client.consent,
          signedAt: consent?.completedAt?.toISOString() ?? null,
          documentId: consent?.pdfDocumentId ?? null,
        },
        infectiousDisease: {
          completed: client.disease,
          submissionOption: disease?.submissionOption ?? null,
          submittedAt: disease?.completedAt?.toISOString() ?? null,
          documentId: disease?.pdfDocumentId ?? null,
          labReportId: disease?.labReportDocumentId ?? null,
          rejection:
            !client.disease && rejected?.at
              ? { reason: rejected.reason ?? '', rejectedAt: rejected.at.toISOString() }
              : null,
        },
      };
    },
  );

  app.post(
    '/send_ConsentData',
    {
      config: { audit: 'change-client' },
      bodyLimit: CONSENT_BODY_LIMIT,
      schema: {
        summary: 'Signs the consent agreement: answers, choices and the drawn signature; nothing is charged',
        description:
          'Needs an Idempotency-Key header. A new card or account comes as a gateway token and is kept on file when save_card / save_ach is set. The signed PDF is e-mailed and downloadable.',
        tags: ['forms'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: sendConsentDataRequestSchema,
        response: { 200: formSubmissionResponseSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await ownClient(request, request.body.ClientSFRecordId);
      const signer = signerFacts(request, clientId);
      // A new card or account goes to the gateway to be kept on file: a payment attempt.
      return withPaymentAttempt(deps, request.body.token ? signer : null, (gateway) =>
        submitConsent({ ...deps, gateway, log: request.log, documentsKey: deps.documentsKey }, signer, {
          variant: 'client',
          body: request.body,
        }),
      );
    },
  );

  app.post(
    '/set_DiseaseData',
    {
      config: { audit: 'change-client' },
      bodyLimit: DISEASE_BODY_LIMIT,
      schema: {
        summary:
          'Submits the infectious disease screening: White Glove Labs (charged), a lab report, or a waiver',
        description:
          "Needs an Idempotency-Key header. White Glove Labs is charged the price book's amount (plus the card fee by card); amounts sent that differ get 409 and nothing is charged.",
        tags: ['forms'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: setDiseaseDataRequestSchema,
        response: { 200: formSubmissionResponseSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await ownClient(request, request.body.ClientSFRecordId);
      const signer = signerFacts(request, clientId);
      // White Glove Labs is charged, to the method on file or a new one.
      const charged = request.body.submissionOption === 'White Glove Labs';
      return withPaymentAttempt(deps, charged ? signer : null, (gateway) =>
        submitDiseaseForm({ ...deps, gateway, log: request.log }, signer, request.body),
      );
    },
  );
};
