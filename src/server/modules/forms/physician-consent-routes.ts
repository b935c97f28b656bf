import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayFor } from '../../../domain/client';
import {
  formSubmissionResponseSchema,
  getPhysicianConsentResponseSchema,
  sendPhysicianConsentDataRequestSchema,
} from '../../../domain/consent-form';
import { isoToUsDate } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import type { AppDeps } from '../../app-deps';
import { formSubmissions } from '../../db/schema';
import { notFound } from '../../lib/http-error';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { withPaymentAttempt } from '../payments/payment-attempts';
import { paymentInfoOf } from '../payments/payment-methods';
import { overdueFees } from '../payments/payment-service';
import { findPhysician } from '../physicians/physician-repository';
import { submitConsent } from './consent-service';
import { CONSENT_BODY_LIMIT, signerFacts } from './form-routes';
import { signerOf } from './signed-record';

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

/**
 * The physician variant of the client consent (spec 2; a physician scope): for the client the
 * physician acts for in this session, signing in the clinic. No client chosen, or one that is not
 * the physician's, is the same 404 as an unknown client.
 */
export const physicianConsentRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock } = deps;
  const actingFor = async (request: Parameters<typeof sessionOf>[0]) => {
    const session = sessionOf(request, 'physician');
    return { session, clientId: await resolveClientAccess(db, session) };
  };

  app.get(
    '/get_PhysicianConsent',
    {
      config: { audit: 'read-client' },
      schema: {
        summary:
          "The consent of the client the physician acts for: its state, the client's details and the client's payment methods",
        tags: ['forms', 'physician'],
        response: { 200: getPhysicianConsentResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const { session, clientId } = await actingFor(request);
      const today = todayFor(clock.now());
      const [{ client }, physician, overdue, [signed]] = await Promise.all([
        signerOf({ ...deps, log: request.log }, clientId),
        findPhysician(db, session.physicianId),
        overdueFees(db, clientId, clock.now()),
        db
          .select()
          .from(formSubmissions)
          .where(
            and(
              eq(formSubmissions.clientId, clientId),
              eq(formSubmissions.form, 'consent'),
              eq(formSubmissions.status, 'completed'),
            ),
          )
          .limit(1),
      ]);
      if (!physician) throw notFound();
      return {
        initialProcessingFormCompleted: client.initialProcessingFormCompleted,
        completed: client.clientConsentFormCompleted,
        signedAt: signed?.completedAt?.toISOString() ?? null,
        documentId: signed?.pdfDocumentId ?? null,
        clientACTId: client.clientActId,
        client: {
          FirstName: client.firstName,
          LastName: client.lastName,
          Dob: isoToUsDate(client.dateOfBirth),
          Email: client.email,
          PhoneNumber: client.phone,
          Address: client.street,
          City: client.city,
          State: client.state,
          zipcode: client.zip,
          Country: client.country,
          Enrollment_Date: isoToUsDate(client.enrollmentDate ?? today),
        },
        physician: { PhysicianId: physician.physicianActId, PhysicianLastName: physician.lastName },
        pay_info: await paymentInfoOf(db, clientId, overdue),
      };
    },
  );

  app.post(
    '/send_PhysicianConsentData',
    {
      config: { audit: 'change-client' },
      bodyLimit: CONSENT_BODY_LIMIT,
      schema: {
        summary:
          'Submits the consent of the client the physician acts for, signed by the client in the clinic, and saves the client details; nothing is charged',
        description:
          "Needs an Idempotency-Key header. The client's details are saved on the client's record with the signing. The annual storage is the client's: the client's saved card or account, a new one (kept on the client's file when save_card / save_ach is set) or Check. The signed PDF is e-mailed to the client, and the physician is told.",
        tags: ['forms', 'physician'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: sendPhysicianConsentDataRequestSchema(() => todayFor(clock.now())),
        response: { 200: formSubmissionResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { session, clientId } = await actingFor(request);
      const signer = signerFacts(request, clientId);
      // A new card or account goes to the gateway to be kept on file: a payment attempt.
      return withPaymentAttempt(deps, request.body.token ? signer : null, (gateway) =>
        submitConsent({ ...deps, gateway, log: request.log, documentsKey: deps.documentsKey }, signer, {
          variant: 'physician',
          body: request.body,
          physicianId: session.physicianId,
        }),
      );
    },
  );
};
