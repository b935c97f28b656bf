import { type AnyColumn, and, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { AuditEvent, AuditSearchQuery } from '../../domain/staff';
import type { Database } from '../db/client';
import { auditEvents } from '../db/system-schema';
import { likePattern } from './like-pattern';

/**
 * Reading the audit trail (the platform owns its table): rows newest first, of one client or
 * (admins) matching a search. Who the actor and the client are is told by their owners, as SQL
 * the reader passes in, so this file reads no other owner's table.
 */
export interface AuditTrailLabels {
  /** The actor as staff read them (a Client ID, a Physician ID, an e-mail), from the row's role and id. */
  actor(role: AnyColumn, id: AnyColumn): SQL<string>;
  /** The Client ID of the row's client, null for none. */
  clientActId(clientId: AnyColumn): SQL<string | null>;
}

export type AuditTrailFilter = { clientId: string } | { search: AuditSearchQuery };

const DAY_MS = 24 * 60 * 60 * 1000;

/** Each row with its client's internal id (never sent), for the audit row of the read itself. */
export async function readAuditTrail(
  db: Database,
  filter: AuditTrailFilter,
  labels: AuditTrailLabels,
  limit: number,
): Promise<Array<AuditEvent & { clientId: string | null }>> {
  const actor = labels.actor(auditEvents.actorRole, auditEvents.actorId);
  const clientActId = labels.clientActId(auditEvents.clientId);
  let where: SQL | undefined;
  if ('clientId' in filter) where = eq(auditEvents.clientId, filter.clientId);
  else {
    const { q, clientId, actor: actorText, action, from, to } = filter.search;
    where = and(
      q
        ? or(
            sql`${clientActId} ilike ${likePattern(q)}`,
            ilike(auditEvents.action, likePattern(q)),
            sql`${actor} ilike ${likePattern(q)}`,
          )
        : undefined,
      clientId ? sql`lower(${clientActId}) = ${clientId.toLowerCase()}` : undefined,
      actorText ? sql`${actor} ilike ${likePattern(actorText)}` : undefined,
      action ? eq(auditEvents.action, action) : undefined,
      from ? gte(auditEvents.at, new Date(`${from}T00:00:00Z`)) : undefined,
      to ? lt(auditEvents.at, new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS)) : undefined,
    );
  }
  const rows = await db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      actorRole: auditEvents.actorRole,
      actor,
      clientACTId: clientActId,
      clientId: auditEvents.clientId,
      action: auditEvents.action,
      route: auditEvents.route,
      documentId: auditEvents.documentId,
      amountCents: auditEvents.amountCents,
      ip: auditEvents.ip,
    })
    .from(auditEvents)
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, at: r.at.toISOString(), clientACTId: r.clientACTId ?? null }));
}
