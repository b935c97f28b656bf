import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditAction, AuditEvent } from '../../domain/staff';
import type { Database } from '../db/client';
import { auditEvents } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { Session } from './sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This route reads or changes a client's personal data, payment data or documents: audit it.
     * null: the route touches no client's data. Required in every audited scope.
     */
    audit?: AuditAction | null;
  }
}

// The clients each request showed or acted on (resolveClientAccess, the staff record lookup, a
// list's rows), by the request's session object, or by the request itself on the public pages
// (no session): one per request, so nothing is shared between requests.
const shownClients = new WeakMap<object, string[]>();

/** Notes the client a request was allowed to act on, for the audit row of its answer. */
export function noteResolvedClient(session: Session, clientId: string): void {
  shownClients.set(session, [clientId]);
}

/**
 * Notes every client an answer shows (a list: a search, a queue, the physician's clients; a
 * public page): its audit leaves one row per client, so each client's "who saw my record" is
 * complete. `by` is the request's session, or the request on a public page.
 */
export function noteShownClients(by: Session | FastifyRequest, clientIds: Iterable<string>): void {
  const noted = shownClients.get(by) ?? [];
  for (const id of clientIds) if (!noted.includes(id)) noted.push(id);
  shownClients.set(by, noted);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Actor = { actorRole: AuditEvent['actorRole']; actorId: string };

/**
 * Whoever opened a public page (a signed link, the payment pages' confirmation): no account, so
 * no id; the row's IP and route say the rest.
 */
const PUBLIC_ACTOR: Actor = { actorRole: 'public', actorId: '00000000-0000-0000-0000-000000000000' };

// Rows per INSERT, well under PostgreSQL's 65,535 parameters for a long list.
const ROWS_PER_INSERT = 1000;

function actorOf(session: Session | null): Actor | null {
  if (!session) return PUBLIC_ACTOR;
  switch (session.role) {
    case 'client':
      return { actorRole: 'client', actorId: session.clientId };
    case 'physician':
      return { actorRole: 'physician', actorId: session.physicianId };
    case 'staff':
      return { actorRole: 'staff', actorId: session.staffId };
    default:
      return null;
  }
}

export interface AuditTrail {
  /**
   * The onSend hook of a protected scope, and of the public scope: for each audited answer that
   * succeeded, one row per client it showed (one row naming no client when it showed none).
   */
  record(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/**
 * The append-only trail: who (role and id), which client, what (the route's audit action and its
 * pattern), when, from which IP. Written before the answer leaves, so an answer that was not
 * recorded is not sent. Only ids and the route pattern: never a body, query, code or token.
 */
export function createAuditTrail(db: Database, clock: Clock): AuditTrail {
  return {
    async record(request, reply) {
      const action = request.routeOptions.config?.audit;
      const session = request.session ?? null;
      if (!action || reply.statusCode >= 400) return;
      const actor = actorOf(session);
      if (!actor) return;
      const params = request.params as { id?: unknown } | undefined;
      const documentId =
        action === 'read-document' && typeof params?.id === 'string' && UUID.test(params.id.toLowerCase())
          ? params.id.toLowerCase()
          : null;
      const noted = (session && shownClients.get(session)) ?? shownClients.get(request);
      // A client's own call is about themselves, whatever the route resolved.
      const clientIds = noted?.length ? noted : [session?.role === 'client' ? session.clientId : null];
      const at = clock.now();
      const rows = clientIds.map((clientId) => ({
        at,
        ...actor,
        clientId,
        action,
        route: `${request.method} ${request.routeOptions.url ?? ''}`,
        documentId,
        ip: request.ip,
        statusCode: reply.statusCode,
      }));
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        await db.insert(auditEvents).values(rows.slice(i, i + ROWS_PER_INSERT));
      }
    },
  };
}
