import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  DRAFT_MAX_BYTES,
  draftFormNameSchema,
  formDraftResponseSchema,
  formDraftSchema,
} from '../../../domain/form-drafts';
import type { AppDeps } from '../../app-deps';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { type DraftOwner, deleteFormDraft, readFormDraft, saveFormDraft } from './form-drafts';

const params = z.object({ form: draftFormNameSchema });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 413: errorBodySchema };

/**
 * A form's unsent answers, on the server for whoever is signed in (issue 24): the client's own,
 * or a physician's for the client they act for (no client chosen: 404). Saved as the person
 * types, read when the form opens, deleted when it is submitted or 7 days after the last save.
 */
export const formDraftRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock, documentsKey } = deps;
  const ownerOf = async (request: FastifyRequest): Promise<DraftOwner> => {
    const session = sessionOf(request, 'client', 'physician');
    const clientId = await resolveClientAccess(db, session);
    return { clientId, physicianId: session.role === 'physician' ? session.physicianId : null };
  };

  app.get(
    '/drafts/:form',
    {
      config: { audit: 'read-form-draft' },
      schema: {
        summary: "The signed-in person's unsent answers of a form, or null",
        tags: ['forms'],
        params,
        response: { 200: formDraftResponseSchema, ...errors },
      },
    },
    async (request) => {
      const found = await readFormDraft(db, documentsKey, request.params.form, await ownerOf(request));
      return { draft: found?.draft ?? null, savedAt: found?.savedAt.toISOString() ?? null };
    },
  );

  app.put(
    '/drafts/:form',
    {
      config: { audit: 'change-form-draft' },
      bodyLimit: DRAFT_MAX_BYTES,
      schema: {
        summary: "Keeps the signed-in person's unsent answers of a form (never card data or a signature)",
        description: `At most ${DRAFT_MAX_BYTES / 1024} KB of JSON; a card's or account's fields, a token or a signature are refused (400).`,
        tags: ['forms'],
        params,
        body: formDraftSchema,
        response: { 200: z.object({ savedAt: z.string() }), ...errors },
      },
    },
    async (request) => {
      const now = clock.now();
      const owner = await ownerOf(request);
      await saveFormDraft(db, documentsKey, request.params.form, owner, request.body, now);
      return { savedAt: now.toISOString() };
    },
  );

  app.delete(
    '/drafts/:form',
    {
      config: { audit: 'change-form-draft' },
      schema: {
        summary: "Discards the signed-in person's unsent answers of a form",
        tags: ['forms'],
        params,
        response: { 200: z.object({ deleted: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      await deleteFormDraft(db, request.params.form, await ownerOf(request));
      return { deleted: true as const };
    },
  );
};
