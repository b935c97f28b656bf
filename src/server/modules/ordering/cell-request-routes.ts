import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cellRequestIdSchema,
  cellRequestListQuerySchema,
  cellRequestListSchema,
  cellRequestSchema,
  sendCellRequestResponseSchema,
  sendCellRequestSchema,
} from '../../../domain/cell-request';
import {
  cellRequestObjectionSchema,
  objectionTokenSchema,
  objectionViewSchema,
} from '../../../domain/cell-request-objection';
import { todayFor } from '../../../domain/client';
import { errorBodySchema } from '../../../domain/errors';
import { releaseReadinessQuerySchema, releaseReadinessSchema } from '../../../domain/release-readiness';
import { deliveryConfirmationSchema, deliveryLinkViewSchema } from '../../../domain/shipment';
import type { AppDeps } from '../../app-deps';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { cancelCellRequest, cancellationView } from './cell-request-cancellation';
import { objectionOfLink, objectToCellRequest } from './cell-request-objection';
import {
  approveCellRequest,
  cellRequestView,
  findCellRequest,
  listCellRequests,
  sendCellRequest,
} from './cell-request-service';
import { placeOrderFor } from './order-for-client';
import { releaseReadinessOf } from './release-readiness';
import { confirmDelivery, deliveryOfLink } from './vial-shipping';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  402: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/**
 * The Stem Cell Request Form's order (send_CellRequest, the client's own), the requests of a
 * client (the client, or the physician acting for them) and the physician's approval.
 */
export const cellRequestRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/send_CellRequest',
    {
      config: { audit: 'change-order' },
      schema: {
        summary: 'Orders vials shipped to a clinic: pre-paid vials first, the rest charged the server amount',
        description:
          "A client for themselves, or a physician for a client they act for (Client_id, or the session's client; another answers 404), paid by the client's method on file or the physician's own (PaidBy). Needs an Idempotency-Key header. The server prices the order from the price book in force (vials, CPP, a fresh carrier quote, the card fee by card); a shown total that differs answers 409 and nothing is charged. A decline leaves nothing ordered. A physician's request e-mails the client a link to object within two business days; it ships only after that.",
        tags: ['ordering'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: sendCellRequestSchema,
        response: { 200: sendCellRequestResponseSchema, ...errors },
      },
    },
    async (request) => placeOrderFor(deps, request, request.body, sendCellRequest),
  );

  app.get(
    '/get_CellRequest',
    {
      config: { audit: 'read-order' },
      schema: {
        summary: "One of the client's vial requests: what was ordered and paid, and its timeline",
        tags: ['ordering'],
        querystring: cellRequestIdSchema.extend(cellRequestListQuerySchema.shape),
        response: { 200: cellRequestSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(
        deps.db,
        sessionOf(request, 'client', 'physician'),
        request.query.Client_id,
      );
      return findCellRequest(deps.db, clientId, request.query.id, deps.clock.now());
    },
  );

  app.post(
    '/cancel_CellRequest',
    {
      config: { roles: ['client'], audit: 'change-order' },
      schema: {
        summary: "Cancels one of the client's vial requests, by the cancellation policy",
        description:
          "Client only; needs an Idempotency-Key header. Up to 2:00 PM Eastern two business days before the delivery date: everything refunded, pre-paid vials given back. Later and before shipping: the replacement fee kept for each paid vial (its card fee in proportion), pre-paid vials forfeited. Shipped: 409. A repeat answers what the first did; another client's request answers 404.",
        tags: ['ordering'],
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: cellRequestIdSchema,
        response: { 200: cellRequestSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(deps.db, sessionOf(request, 'client'), undefined);
      idempotencyKeyOf(request.headers);
      const { row } = await cancelCellRequest(
        { ...deps, log: request.log },
        { clientId, id: request.body.id, staffId: null, reason: null },
      );
      return {
        ...cellRequestView(row),
        cancellation: await cancellationView(deps.db, row, deps.clock.now()),
      };
    },
  );

  app.get(
    '/get_ReleaseReadiness',
    {
      config: { audit: 'read-order' },
      schema: {
        summary: "The client's release checklist: each item done, or what it waits for and the day it clears",
        description:
          "Consent, screening within its window, annual storage, cells banked and ready (42 days after banking), three months since the Enrollment Date, the practitioner's approval and the address. With `id`, the checklist of that request. The client, or the physician acting for them; another client's id or request answers 404.",
        tags: ['ordering'],
        querystring: releaseReadinessQuerySchema,
        response: { 200: releaseReadinessSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(
        deps.db,
        sessionOf(request, 'client', 'physician'),
        request.query.Client_id,
      );
      return releaseReadinessOf(deps.db, {
        clientId,
        today: todayFor(deps.clock.now()),
        requestId: request.query.id,
      });
    },
  );

  app.get(
    '/get_CellRequests',
    {
      config: { audit: 'read-order' },
      schema: {
        summary: "The client's vial requests, newest first",
        tags: ['ordering'],
        querystring: cellRequestListQuerySchema,
        response: { 200: cellRequestListSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(
        deps.db,
        sessionOf(request, 'client', 'physician'),
        request.query.Client_id,
      );
      return listCellRequests(deps.db, clientId);
    },
  );

  app.post(
    '/set_CellRequestApproval',
    {
      config: { roles: ['physician'], audit: 'change-order' },
      schema: {
        summary: "The physician approves a vial request of one of the physician's clients",
        description: 'Physician only; a request of a client the physician is not linked to answers 404.',
        tags: ['ordering'],
        body: cellRequestIdSchema,
        response: { 200: cellRequestSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'physician');
      const approved = await approveCellRequest(deps, session.physicianId, request.body.id);
      noteResolvedClient(session, approved.clientId);
      return approved.request;
    },
  );
};

/** The clinic's delivery confirmation: public, the signed link e-mailed at delivery is its only key. */
export const deliveryConfirmationRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/get_DeliveryConfirmation',
    {
      config: { audit: null },
      schema: {
        summary: "The clinic's delivery confirmation link: the package delivered, and the answer if given",
        description:
          'Public: the signed link e-mailed to the clinic at delivery is the only key. A forged or expired link answers 404.',
        tags: ['ordering'],
        querystring: z.object({ token: z.string().min(1).max(400) }),
        response: { 200: deliveryLinkViewSchema, ...errors },
      },
    },
    async (request) => deliveryOfLink(deps, request.query.token),
  );

  app.post(
    '/confirm_Delivery',
    {
      config: { audit: null },
      schema: {
        summary:
          'The clinic confirms the cells arrived frozen, or says what was wrong (once; a repeat answers the first)',
        tags: ['ordering'],
        body: deliveryConfirmationSchema,
        response: { 200: deliveryLinkViewSchema, ...errors },
      },
    },
    async (request) => confirmDelivery(deps, request.body),
  );
};

/**
 * The client's objection to a vial request their physician placed: public, the signed link e-mailed
 * at placement is the only key.
 */
export const cellRequestObjectionRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/get_CellRequestObjection',
    {
      config: { audit: 'read-order' },
      schema: {
        summary:
          "A physician's vial request as the client's objection link shows it, and whether they may still object",
        description:
          'Public: the signed link e-mailed to the client at placement is the only key. A forged or expired link answers 404.',
        tags: ['ordering'],
        querystring: objectionTokenSchema,
        response: { 200: objectionViewSchema, ...errors },
      },
    },
    async (request) => {
      const { clientId, view } = await objectionOfLink(deps, request.query.token);
      noteShownClients(request, [clientId]);
      return view;
    },
  );

  app.post(
    '/object_CellRequest',
    {
      config: { audit: 'change-order' },
      schema: {
        summary:
          "The client objects to a physician's vial request: cancelled at no cost within two business days",
        description:
          'Within the window: cancelled, everything paid refunded and the pre-paid vials given back, whatever the cancellation cutoff; the physician is e-mailed. After it, or once shipped: 409 with the reason. A second objection answers the first.',
        tags: ['ordering'],
        body: cellRequestObjectionSchema,
        response: { 200: objectionViewSchema, ...errors },
      },
    },
    async (request) => {
      const { clientId, view } = await objectToCellRequest({ ...deps, log: request.log }, request.body);
      noteShownClients(request, [clientId]);
      return view;
    },
  );
};
