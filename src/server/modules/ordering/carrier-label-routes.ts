import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import type { AppDeps } from '../../app-deps';
import { readDocument, replyWithDocument } from '../../lib/document-store';
import { noteResolvedClient } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';

type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * Staff GET of a shipped order's FedEx label, shown in the browser to print. The order's client
 * goes into the audit line; an unknown order and one without a label answer the same 404.
 */
export function labelDocumentRoute(
  app: RouteApp,
  deps: Pick<AppDeps, 'db' | 'documentsKey'>,
  route: {
    url: string;
    summary: string;
    labelOf: (orderId: string) => Promise<{ clientId: string; documentId: string }>;
  },
) {
  app.get(
    route.url,
    {
      config: { audit: 'read-order' as const },
      schema: {
        summary: route.summary,
        tags: ['staff queues'],
        params: z.object({ id: z.uuid() }),
        response: {
          200: z.instanceof(Buffer).describe('The label (PDF)'),
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request, 'staff');
      const { clientId, documentId } = await route.labelOf(request.params.id);
      noteResolvedClient(session, clientId);
      const document = await readDocument(deps.db, deps.documentsKey, clientId, documentId);
      return replyWithDocument(reply, document, 'inline');
    },
  );
}
