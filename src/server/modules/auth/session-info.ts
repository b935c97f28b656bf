import type { Database } from '../../db/client';
import type { Session } from '../../plugins/sessions';
import { clientContact } from '../clients/client-directory';
import { physicianActsFor } from '../clients/client-repository';
import { findPhysician } from '../physicians/physician-repository';

async function clientName(db: Database, clientId: string) {
  const client = await clientContact(db, clientId);
  return client
    ? { actId: client.clientActId, firstName: client.firstName, lastName: client.lastName }
    : undefined;
}

/**
 * What GET /session answers for a live session; null when its person is gone. `idleTimeoutMs` is
 * the server's (IDLE_SIGN_OUT_SECONDS), so the page signs out and warns when the server would.
 */
export async function describeSession(db: Database, session: Session, idleTimeoutMs: number) {
  if (session.role === 'client') {
    const client = await clientName(db, session.clientId);
    if (!client) return null;
    return {
      signedIn: true as const,
      role: 'client' as const,
      id: session.clientId,
      clientACTId: client.actId,
      clientLastName: client.lastName,
      idleTimeoutMs,
    };
  }
  // A staff session is described by GET /api/staff/session: the portals' session call does not know it.
  if (session.role !== 'physician') return null;
  const physician = await findPhysician(db, session.physicianId);
  if (!physician) return null;
  // Shown only while the client is still linked to the physician, as every client route checks.
  const actingForId =
    session.actingForClientId && (await physicianActsFor(db, session.physicianId, session.actingForClientId))
      ? session.actingForClientId
      : null;
  const acting = actingForId ? await clientName(db, actingForId) : undefined;
  return {
    signedIn: true as const,
    role: 'physician' as const,
    id: session.physicianId,
    physicianACTId: physician.physicianActId,
    physicianLastName: physician.lastName,
    actingFor:
      acting && actingForId
        ? {
            id: actingForId,
            clientACTId: acting.actId,
            name: `${acting.firstName} ${acting.lastName}`,
          }
        : null,
    idleTimeoutMs,
  };
}
