import type { Database } from '../../db/client';
import { notFound } from '../../lib/http-error';
import type { SessionContext } from '../../plugins/sessions';
import { findClientIdByAnyId, physicianActsFor } from './client-repository';

/**
 * The client a request may act on. A client is only ever itself; a physician may name a client
 * linked to them. Anything else, existing or not, is the same 404.
 */
export async function resolveClientAccess(
  db: Database,
  session: SessionContext,
  requestedId?: string,
): Promise<string> {
  if (session.role === 'client' && session.clientId) {
    if (requestedId === undefined || requestedId === '') return session.clientId;
    if (requestedId.toLowerCase() === session.clientId) return session.clientId;
    const target = await findClientIdByAnyId(db, requestedId);
    if (target === session.clientId) return target;
    throw notFound();
  }
  if (session.role === 'physician' && session.physicianId && requestedId) {
    const target = await findClientIdByAnyId(db, requestedId);
    if (target && (await physicianActsFor(db, session.physicianId, target))) return target;
  }
  throw notFound();
}
