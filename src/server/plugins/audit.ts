import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditAction } from '../../domain/staff';
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

// The client each request resolved (resolveClientAccess, or the staff record lookup), by the
// request's session object: one per request, so nothing is shared between requests.
const resolvedClients = new WeakMap<Session, string>();

/** Notes the client a request was allowed to act on, for the audit row of its answer. */
export function noteResolvedClient(session: Session, clientId: string): void {
  resolvedClients.set(session, clientId);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function actorOf(session: Session): { actorRole: 'client' | 'physician' | 'staff'; actorId: string } | null {
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
  /** The onSend hook of a protected scope: one row per audited answer that succeeded. */
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
      const session = request.session;
      if (!action || !session || reply.statusCode >= 400) return;
      const actor = actorOf(session);
      if (!actor) return;
      const params = request.params as { id?: unknown } | undefined;
      const documentId =
        action === 'read-document' && typeof params?.id === 'string' && UUID.test(params.id.toLowerCase())
          ? params.id.toLowerCase()
          : null;
      await db.insert(auditEvents).values({
        at: clock.now(),
        ...actor,
        // A client's own call is about themselves, whatever the route resolved.
        clientId: resolvedClients.get(session) ?? (session.role === 'client' ? session.clientId : null),
        action,
        route: `${request.method} ${request.routeOptions.url ?? ''}`,
        documentId,
        ip: request.ip,
        statusCode: reply.statusCode,
      });
    },
  };
}
