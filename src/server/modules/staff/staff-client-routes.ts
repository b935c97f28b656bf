import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLIENT_INFORMATION_UPDATED, todayFor } from '../../../domain/client';
import { errorBodySchema } from '../../../domain/errors';
import {
  auditQuerySchema,
  auditResponseSchema,
  clientSearchQuerySchema,
  clientSearchResponseSchema,
  staffClientQuerySchema,
} from '../../../domain/staff';
import {
  staffClientResponseSchema,
  staffUpdateClientRequestSchema,
  staffUpdateClientResponseSchema,
} from '../../../domain/staff-client';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { documentOwner, readDocument, replyWithDocument } from '../../lib/document-store';
import { notFound } from '../../lib/http-error';
import { noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { type StaffSession, sessionOf } from '../../plugins/sessions';
import { searchClients } from '../clients/client-directory';
import { findClientIdByAnyId } from '../clients/client-repository';
import { announceContactChanges, contactChanges } from '../clients/contact-changes';
import { replaceWelcomeLink, welcomeStillPending } from '../initial-processing/welcome-links';
import { listAuditEvents, staffClientRecord, staffUpdateClient } from './staff-client-repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** Staff may look up any client: by record id or Client ID; unknown is 404. */
async function resolveStaffClient(db: Database, session: StaffSession, id: string): Promise<string> {
  const clientId = await findClientIdByAnyId(db, id);
  if (!clientId) throw notFound();
  noteResolvedClient(session, clientId);
  return clientId;
}

/** The back office's reads of clients (a whole staff session, either level); audited by the scope. */
export const staffClientRoutes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, clock, documentsKey, mailer, config },
) => {
  app.get(
    '/clients',
    {
      config: { audit: 'search-clients' },
      schema: {
        summary: 'Searches clients by Client ID, name, e-mail or date of birth (MM/DD/YYYY or YYYY-MM-DD)',
        tags: ['staff'],
        querystring: clientSearchQuerySchema,
        response: { 200: clientSearchResponseSchema, ...errors },
      },
    },
    async (request) => {
      const found = await searchClients(db, request.query.q);
      noteShownClients(
        sessionOf(request, 'staff'),
        found.map((c) => c.id),
      );
      return { clients: found };
    },
  );

  app.get(
    '/client',
    {
      config: { audit: 'read-client' },
      schema: {
        summary:
          "A client's record for the back office: profile, physician, forms and documents, payment display data, storage, vials, activity",
        tags: ['staff'],
        querystring: staffClientQuerySchema,
        response: { 200: staffClientResponseSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveStaffClient(db, sessionOf(request, 'staff'), request.query.id);
      const record = await staffClientRecord(db, clientId, todayFor(clock.now()));
      if (!record) throw notFound();
      return record;
    },
  );

  app.post(
    '/update_client',
    {
      config: { audit: 'change-client' },
      schema: {
        summary:
          "Staff correct a client's profile (the Client Information fields, the client's own rules); each changed field is kept with who and when; a changed e-mail address or phone number is e-mailed to the old and the new address",
        tags: ['staff'],
        body: staffUpdateClientRequestSchema(() => todayFor(clock.now())),
        response: { 200: staffUpdateClientResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const { clientId: anyId, ...info } = request.body;
      const clientId = await resolveStaffClient(db, session, anyId);
      const now = clock.now();
      const changed = await staffUpdateClient(
        db,
        { clientId, staffId: session.staffId, info, today: todayFor(now), now },
        async (tx, before) => {
          const changes = contactChanges(before, info);
          // A new client's corrected address gets the welcome link; the one sent before stops working.
          if (changes.some((c) => c.channel === 'email') && (await welcomeStillPending(tx, clientId))) {
            await replaceWelcomeLink(tx, { mailer, publicUrl: config.publicUrl }, { clientId, now });
          }
          await announceContactChanges(tx, mailer, {
            client: { firstName: before.firstName, clientActId: before.clientACTId },
            before,
            changes,
            by: { role: 'staff' },
            contactUrl: config.contactUrl,
            now,
          });
        },
      );
      if (!changed) throw notFound();
      mailer.kick();
      return { success: true as const, message: CLIENT_INFORMATION_UPDATED, changed };
    },
  );

  app.get(
    '/documents/:id',
    {
      config: { audit: 'read-document' },
      schema: {
        summary:
          "One of a client's documents (signed agreement, lab report), decrypted, for staff: a PDF inline, to preview in the browser (a link may still save it)",
        tags: ['staff'],
        params: z.object({ id: z.string().max(64) }),
        response: {
          200: z.instanceof(Buffer).describe('The document itself (PDF or PNG)'),
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request, 'staff');
      const documentId = request.params.id.toLowerCase();
      if (!UUID.test(documentId)) throw notFound();
      const owner = await documentOwner(db, documentId);
      if (!owner) throw notFound();
      const clientId = await resolveStaffClient(db, session, owner);
      const document = await readDocument(db, documentsKey, clientId, documentId);
      return replyWithDocument(
        reply,
        document,
        document?.contentType === 'application/pdf' ? 'inline' : 'attachment',
      );
    },
  );

  app.get(
    '/audit',
    {
      config: { audit: 'read-audit' },
      schema: {
        summary: "A client's audit trail: who read or changed their data, when, from where",
        tags: ['staff'],
        querystring: auditQuerySchema,
        response: { 200: auditResponseSchema, ...errors },
      },
    },
    async (request) => {
      const clientId = await resolveStaffClient(db, sessionOf(request, 'staff'), request.query.clientId);
      return { events: await listAuditEvents(db, { clientId }) };
    },
  );

  app.post(
    '/keepalive',
    {
      config: { audit: null },
      schema: {
        summary: 'The staff member is active in the page: keeps the session from idling out',
        tags: ['staff'],
        response: { 200: z.object({ ok: z.literal(true) }), 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async () => ({ ok: true as const }),
  );
};
