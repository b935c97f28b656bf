import type { ClientInformationUpdate } from '../../../domain/client';
import type { Mailer } from '../../adapters/mailer';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/http-error';
import type { ClientSession, PhysicianSession } from '../../plugins/sessions';
import { replaceWelcomeLink, welcomeStillPending } from '../initial-processing/welcome-links';
import { findPhysician } from '../physicians/physician-repository';
import { lockClientContact, updateClientInformation } from './client-repository';
import {
  announceContactChanges,
  type ChangedBy,
  type ContactChange,
  contactChanges,
  physicianContactRefusal,
} from './contact-changes';

interface Deps {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  config: { publicUrl: string; contactUrl: string };
}

/**
 * A physician changes what the client's care needs, not how the client signs in: a change of the
 * e-mail address or phone number is refused, except the registering physician's correction of the
 * e-mail before the new client has used the welcome link. Returns whether the save is that correction.
 */
async function physicianCorrectsWelcomeAddress(
  tx: Database,
  session: PhysicianSession,
  clientId: string,
  changes: ContactChange[],
): Promise<boolean> {
  if (changes.length === 0) return false;
  if (
    changes.every((c) => c.channel === 'email') &&
    (await welcomeStillPending(tx, clientId, session.physicianId))
  ) {
    return true;
  }
  const refusal = physicianContactRefusal(changes, { email: 'email', phone: 'phone' });
  if (refusal) throw refusal;
  return false;
}

/**
 * Saves the Client Information form for the client or a physician acting for them, with the rules
 * of the client's sign-in and recovery channels: who may change them, a notice to the old and the
 * new address of every change, and a fresh welcome link after a physician's correction.
 */
export async function saveClientInformation(
  { db, clock, mailer, config }: Deps,
  session: ClientSession | PhysicianSession,
  clientId: string,
  info: ClientInformationUpdate,
) {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const before = await lockClientContact(tx, clientId);
    if (!before) throw notFound();
    const changes = contactChanges(before, info);
    let by: ChangedBy = { role: 'client' };
    let welcomeCorrection = false;
    if (session.role === 'physician') {
      welcomeCorrection = await physicianCorrectsWelcomeAddress(tx, session, clientId, changes);
      const physician = welcomeCorrection ? await findPhysician(tx, session.physicianId) : undefined;
      by = { role: 'physician', name: `Dr. ${physician?.firstName ?? ''} ${physician?.lastName ?? ''}` };
    }
    await updateClientInformation(tx, clientId, info, now);
    if (welcomeCorrection) {
      await replaceWelcomeLink(tx, { mailer, publicUrl: config.publicUrl }, { clientId, now });
    }
    await announceContactChanges(tx, mailer, {
      client: before,
      before,
      changes,
      by,
      contactUrl: config.contactUrl,
      now,
    });
  });
  mailer.kick();
}
