import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayFor } from '../../../domain/client';
import { verificationMessages } from '../../../domain/client-verification';
import { errorBodySchema } from '../../../domain/errors';
import {
  type ClientIdentification,
  physicianDiseaseMessages,
  physicianDiseaseResponseSchema,
  type SetDiseaseDataRequest,
  type SetPhysicianDiseaseDataRequest,
  setPhysicianDiseaseDataRequestSchema,
  verifyPhysicianClientRequestSchema,
  verifyPhysicianClientResponseSchema,
} from '../../../domain/infectious-disease';
import type { AppDeps } from '../../app-deps';
import { HttpError, notFound } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { enforceRateLimits } from '../../lib/rate-limit';
import { userAgentOf } from '../../lib/user-agent';
import { noteResolvedClient } from '../../plugins/audit';
import { type PhysicianSession, sessionOf } from '../../plugins/sessions';
import { findLinkedClientByIdentification } from '../clients/client-repository';
import { withPaymentAttempt } from '../payments/payment-attempts';
import { findPhysician } from '../physicians/physician-repository';
import { submitDiseaseForm } from './disease-service';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** Confirmations per physician: a physician confirms a few clients a day, never hundreds. */
const CONFIRMATIONS_PER_PHYSICIAN = 30;
/** A lab report of 500 KB is about 680 KB as base64. */
const DISEASE_BODY_LIMIT = 1024 * 1024;

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

/** The spec's one answer for a client that is not found among the physician's own, whoever it is. */
function notTheirClient(): HttpError {
  const message = physicianDiseaseMessages.verifyFailed;
  return new HttpError('NOT_FOUND', message, { verify: message });
}

/** The legacy physician body as the screening service reads a submission. */
function asDiseaseSubmission(body: SetPhysicianDiseaseDataRequest): SetDiseaseDataRequest {
  return {
    submissionOption: body.submissionOption,
    agree: true,
    FirstName: body.FirstName,
    LastName: body.LastName,
    Street: body.street,
    City: body.city,
    State: body.state,
    ZipCode: body.ZipCode,
    Country: body.country,
    PaymentMethod: body.submissionOption === 'White Glove Labs' ? 'Credit Card' : undefined,
    update_card: body.update_card,
    update_ach: false,
    save_card: body.save_card,
    save_ach: false,
    token: body.token,
    Credit_Card_Type: body.Credit_Card_Type,
    Month_of_Expiry: body.Month_of_Expiry,
    Year_of_Expiry: body.Year_of_Expiry,
    Credit_Card_Holder_First_Name: body.Credit_Card_Holder_First_Name,
    Credit_Card_Holder_Last_Name: body.Credit_Card_Holder_Last_Name,
    Credit_Card_Biling_Email_Address: body.Credit_Card_Biling_Email_Address,
    Credit_Card_Holder_Country: body.Credit_Card_Holder_Country,
    Credit_Card_Billing_Street: body.Credit_Card_Billing_Street,
    Credit_Card_Billing_City: body.Credit_Card_Billing_City,
    Credit_Card_Billing_State: body.Credit_Card_Billing_State,
    Credit_Card_Billing_Zip_Code: body.Credit_Card_Billing_Zip_Code,
    // The physician's legacy Amount is not a shown total: only the page's own total is checked.
    expectedTotalCents: body.expectedTotalCents,
    lab_report_file: body.lab_report_file,
    lab_report_name: body.lab_report_name,
    WaiverNotice: body.WaiverNotice,
    Signature: body.Signature,
    InfectiousDisease: body.InfectiousDisease,
    termsVersion: body.termsVersion,
  };
}

/**
 * The physician's infectious disease form (spec 2): confirm one of their own clients, then submit
 * the screening for them. The client is found from the identification the physician typed, among
 * their own clients only; the confirmation also makes them the client the session acts for, so the
 * header names the client the form is for.
 */
export const physicianDiseaseRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock, config, sessions } = deps;
  const today = () => todayFor(clock.now());

  /** Counts an identification attempt; a physician cannot walk through Client IDs and names. */
  const countIdentification = (request: FastifyRequest, session: PhysicianSession) =>
    enforceRateLimits(
      db,
      clock.now(),
      [
        { key: `physician-verify:ip:${request.ip}`, limit: config.verifyPerIp, windowMs: FIFTEEN_MINUTES },
        {
          key: `physician-verify:${session.physicianId}`,
          limit: CONFIRMATIONS_PER_PHYSICIAN,
          windowMs: FIFTEEN_MINUTES,
        },
      ],
      verificationMessages.tooMany,
    );

  /** The physician's own client so named, now the one the session acts for; else the spec's 404. */
  async function ownClient(session: PhysicianSession, identification: ClientIdentification) {
    const client = await findLinkedClientByIdentification(db, session.physicianId, identification);
    if (!client) throw notTheirClient();
    // The client confirmed is the one this answer's audit row names.
    noteResolvedClient(session, client.id);
    if (session.actingForClientId !== client.id) await sessions.actFor(session, client.id);
    return client;
  }

  app.post(
    '/set_verifyPhysicianClientData',
    {
      config: { audit: 'read-client' },
      schema: {
        summary:
          "Physician disease form: confirms one of the physician's own clients by Client ID and last name, or by full contact",
        description:
          "Another physician's client and an unknown one get the same 404. A confirmed client becomes the one the session acts for.",
        tags: ['physician'],
        body: verifyPhysicianClientRequestSchema(today),
        response: { 200: verifyPhysicianClientResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'physician');
      await countIdentification(request, session);
      const client = await ownClient(session, request.body);
      const name = `${client.firstName} ${client.lastName}`;
      return {
        verified: true as const,
        message: physicianDiseaseMessages.confirmed,
        ClientId: client.clientActId,
        ClientName: name,
        infectiousDiseaseFormCompleted: client.infectiousDiseaseFormCompleted,
        actingFor: { id: client.id, clientACTId: client.clientActId, name },
      };
    },
  );

  app.post(
    '/set_PhysicianDiseaseData',
    {
      config: { audit: 'change-client' },
      bodyLimit: DISEASE_BODY_LIMIT,
      schema: {
        summary:
          "Physician disease form: submits a client's screening; White Glove Labs is charged to the physician's card",
        description:
          "Needs an Idempotency-Key header. The client is confirmed again from the identification sent, among the physician's own clients. White Glove Labs is charged the price book's amount (plus the card fee by card) to the physician's card on file or a new one, kept on the physician's file with save_card; the legacy Amount is ignored.",
        tags: ['physician'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: setPhysicianDiseaseDataRequestSchema(today),
        response: { 200: physicianDiseaseResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'physician');
      const idempotencyKey = idempotencyKeyOf(request.headers);
      await countIdentification(request, session);
      const client = await ownClient(session, request.body);
      const physician = await findPhysician(db, session.physicianId);
      if (!physician) throw notFound();
      const signer = {
        clientId: client.id,
        idempotencyKey,
        ip: request.ip,
        userAgent: userAgentOf(request),
      };
      const charged = request.body.submissionOption === 'White Glove Labs';
      return withPaymentAttempt(deps, charged ? signer : null, (gateway) =>
        submitDiseaseForm({ ...deps, gateway, log: request.log }, signer, asDiseaseSubmission(request.body), {
          id: physician.id,
          actId: physician.physicianActId,
          firstName: physician.firstName,
          lastName: physician.lastName,
          email: physician.email,
        }),
      );
    },
  );
};
