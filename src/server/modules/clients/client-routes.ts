import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CLIENT_INFORMATION_UPDATED,
  clientInformationSchema,
  getClientQuerySchema,
  getClientResponseSchema,
  todayFor,
  updateClientResponseSchema,
} from '../../../domain/client';
import { getClientActivityResponseSchema } from '../../../domain/client-activity';
import { errorBodySchema } from '../../../domain/errors';
import type { AppDeps } from '../../app-deps';
import { documentOwner, readDocument, replyWithDocument } from '../../lib/document-store';
import { notFound } from '../../lib/http-error';
import { sessionOf } from '../../plugins/sessions';
import { deleteSubmittedFormDrafts } from '../forms/form-drafts';
import { resolveClientAccess } from './client-access';
import { saveClientInformation } from './client-information';
import { findClientRecord, listClientActivity } from './client-repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A client's record, activity and documents: for the client, or a physician acting for them. */
export const clientRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock, documentsKey } = deps;
  const today = () => todayFor(clock.now());
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

  app.get(
    '/get_Client',
    {
      config: { audit: 'read-client' },
      schema: {
        summary: 'The signed-in client (or a client the physician acts for)',
        tags: ['client'],
        querystring: getClientQuerySchema,
        response: { 200: getClientResponseSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(
        db,
        sessionOf(request, 'client', 'physician'),
        request.query.id,
      );
      const record = await findClientRecord(db, clientId, today());
      if (!record) throw notFound();
      return { result: { listResponse: [record] } };
    },
  );

  app.post(
    '/update_Client',
    {
      config: { audit: 'change-client' },
      schema: {
        summary: "Saves the Client Information form's fields for the signed-in client",
        description:
          "A physician may not change the client's e-mail address or phone number (403), except the registering physician's correction of the e-mail before the client has used the welcome link, which sends a new link. Every change of either is e-mailed to the old and the new address.",
        tags: ['client'],
        querystring: getClientQuerySchema,
        body: clientInformationSchema(today),
        response: { 200: updateClientResponseSchema, 403: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'client', 'physician');
      const clientId = await resolveClientAccess(db, session, request.query.id);
      await saveClientInformation(deps, session, clientId, request.body);
      // Saved: an edit kept as a draft (by the client or their physician) has nothing left to keep.
      await deleteSubmittedFormDrafts(db, 'client-information', clientId);
      const record = await findClientRecord(db, clientId, today());
      if (!record) throw notFound();
      return { success: true as const, message: CLIENT_INFORMATION_UPDATED, client: record };
    },
  );

  app.get(
    '/documents/:id',
    {
      config: { audit: 'read-document' },
      schema: {
        summary:
          "One of the client's documents (signed agreement, lab report), decrypted; the owner or their physician only",
        tags: ['documents'],
        params: z.object({ id: z.string().max(64) }),
        response: {
          200: z.instanceof(Buffer).describe('The document itself (PDF or PNG)'),
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request, 'client', 'physician');
      const documentId = request.params.id.toLowerCase();
      if (!UUID.test(documentId)) throw notFound();
      // Whose document it is, then whether this session may act for them: the same 404 otherwise.
      const owner = await documentOwner(db, documentId);
      if (!owner) throw notFound();
      const clientId = await resolveClientAccess(db, session, owner);
      const document = await readDocument(db, documentsKey, clientId, documentId);
      return replyWithDocument(reply, document);
    },
  );

  app.post(
    '/keepalive',
    {
      config: { audit: null },
      schema: {
        summary: 'The person is active in the page (typing, scrolling): keeps the session from idling out',
        tags: ['session'],
        response: { 200: z.object({ ok: z.literal(true) }), 401: errorBodySchema },
      },
    },
    // The session hook has already refreshed the session; there is nothing else to do.
    async () => ({ ok: true as const }),
  );

  app.get(
    '/get_ClientActivity',
    {
      config: { audit: 'read-activity' },
      schema: {
        summary: "The client's activity records",
        tags: ['client'],
        querystring: getClientQuerySchema,
        response: { 200: getClientActivityResponseSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveClientAccess(
        db,
        sessionOf(request, 'client', 'physician'),
        request.query.id,
      );
      return { result: await listClientActivity(db, clientId) };
    },
  );
};
