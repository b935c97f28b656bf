import type { Database } from '../../db/client';
import { notFound } from '../../lib/http-error';
import { noteResolvedClient } from '../../plugins/audit';
import type { Session } from '../../plugins/sessions';
import { findClientIdByAnyId, physicianActsFor } from './client-repository';

/**
 * The client a request may act on. A client is only ever itself; a physician may name a client
 * linked to them, and without a name acts for the client chosen for the session. Anything else,
 * existing or not, is the same 404.
 */
export async function resolveClientAccess(
  db: Database,
  session: Session,
  requestedId?: string,
): Promise<string> {
  const clientId = await resolve(db, session, requestedId);
  // The audit hook of the scope records the answer against this client.
  noteResolvedClient(session, clientId);
  return clientId;
}

/** The client a staff member names by any of its ids (Client ID or record id), or 404; noted for the audit row. */
export async function resolveStaffClientAccess(
  db: Database,
  session: Session,
  anyId: string,
): Promise<string> {
  const clientId = await findClientIdByAnyId(db, anyId);
  if (!clientId) throw notFound();
  noteResolvedClient(session, clientId);
  return clientId;
}

async function resolve(db: Database, session: Session, requestedId?: string): Promise<string> {
  const named = requestedId === undefined || requestedId === '' ? null : requestedId;
  if (session.role === 'client') {
    if (named === null || named.toLowerCase() === session.clientId) return session.clientId;
    const target = await findClientIdByAnyId(db, named);
    if (target === session.clientId) return target;
    throw notFound();
  }
  if (session.role !== 'physician') throw notFound();
  const target = named === null ? session.actingForClientId : await findClientIdByAnyId(db, named);
  if (target && (await physicianActsFor(db, session.physicianId, target))) return target;
  throw notFound();
}
