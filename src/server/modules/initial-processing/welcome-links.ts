import { and, asc, count, eq, gt, isNull } from 'drizzle-orm';
import { WELCOME_LINK_DAYS, welcomeLinkMessages } from '../../../domain/initial-processing';
import type { Mailer } from '../../adapters/mailer';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { randomToken, sha256Hex } from '../../lib/secrets';
import { clientHasNoPassword, setClientPassword } from '../clients/client-accounts';
import { clientContact } from '../clients/client-directory';
import { findPhysician } from '../physicians/physician-repository';
import { sampleSubmissions, welcomeLinks } from './schema';

const LIFETIME_MS = WELCOME_LINK_DAYS * 24 * 60 * 60 * 1000;

/**
 * A new client's welcome link: a random token, of which only the SHA-256 is kept; the token
 * itself goes into the e-mail and nowhere else. Valid 7 days, once.
 */
export async function createWelcomeLink(
  tx: Database | Transaction,
  clientId: string,
  now: Date,
): Promise<string> {
  const token = randomToken();
  await tx.insert(welcomeLinks).values({
    clientId,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now.getTime() + LIFETIME_MS),
    createdAt: now,
  });
  return token;
}

const unusable = () => new HttpError('NOT_FOUND', welcomeLinkMessages.unusable);

/** The client a usable (unused, unexpired) link names; the same 404 for unknown, used and expired. */
export async function readWelcomeLink(db: Database, token: string, now: Date) {
  const [link] = await db
    .select({ clientId: welcomeLinks.clientId, expiresAt: welcomeLinks.expiresAt })
    .from(welcomeLinks)
    .where(
      and(
        eq(welcomeLinks.tokenHash, sha256Hex(token)),
        isNull(welcomeLinks.usedAt),
        gt(welcomeLinks.expiresAt, now),
      ),
    )
    .limit(1);
  const client = link ? await clientContact(db, link.clientId) : null;
  if (!link || !client) throw unusable();
  return { ...link, clientACTId: client.clientActId, firstName: client.firstName };
}

/**
 * Uses the link: marks it used and sets the client's password in one transaction, so two
 * submissions of one link set one password. Returns who signed in.
 */
export async function useWelcomeLink(db: Database, token: string, passwordHash: string, now: Date) {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(welcomeLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(welcomeLinks.tokenHash, sha256Hex(token)),
          isNull(welcomeLinks.usedAt),
          gt(welcomeLinks.expiresAt, now),
        ),
      )
      .returning({ clientId: welcomeLinks.clientId });
    if (!used) throw unusable();
    const client = await setClientPassword(tx, used.clientId, passwordHash, now);
    if (!client) throw unusable();
    return client;
  });
}

/**
 * Whether the client has yet to use their welcome link: a link was sent, none was used, and no
 * password was set any other way. With `registeredBy`, also whether that physician registered the
 * client (the client's first sample form is theirs): until then that physician may correct the
 * e-mail address; after that the address is the client's alone.
 */
export async function welcomeStillPending(
  tx: Database | Transaction,
  clientId: string,
  registeredBy?: string,
): Promise<boolean> {
  if (!(await clientHasNoPassword(tx, clientId))) return false;
  const [links] = await tx
    .select({ sent: count(), used: count(welcomeLinks.usedAt) })
    .from(welcomeLinks)
    .where(eq(welcomeLinks.clientId, clientId));
  if (!links || links.sent === 0 || links.used > 0) return false;
  if (registeredBy === undefined) return true;
  const [firstSample] = await tx
    .select({ physicianId: sampleSubmissions.physicianId })
    .from(sampleSubmissions)
    .where(eq(sampleSubmissions.clientId, clientId))
    .orderBy(asc(sampleSubmissions.createdAt))
    .limit(1);
  return firstSample?.physicianId === registeredBy;
}

/**
 * After a new client's e-mail address was corrected before they used their welcome link: the
 * links sent to the old address stop working, and a new one goes to the corrected address, in
 * the caller's transaction (the mail leaves only if the correction is committed).
 */
export async function replaceWelcomeLink(
  tx: Database | Transaction,
  deps: { mailer: Mailer; publicUrl: string },
  input: { clientId: string; now: Date },
) {
  await tx
    .delete(welcomeLinks)
    .where(and(eq(welcomeLinks.clientId, input.clientId), isNull(welcomeLinks.usedAt)));
  const client = await clientContact(tx, input.clientId);
  if (!client) throw new Error('the client whose welcome link is replaced is gone');
  const [firstSample] = await tx
    .select({ physicianId: sampleSubmissions.physicianId })
    .from(sampleSubmissions)
    .where(eq(sampleSubmissions.clientId, input.clientId))
    .orderBy(asc(sampleSubmissions.createdAt))
    .limit(1);
  const registeredBy = firstSample ? await findPhysician(tx, firstSample.physicianId) : undefined;
  const token = await createWelcomeLink(tx, input.clientId, input.now);
  await deps.mailer.enqueue(tx, {
    to: client.email,
    subject: 'Client Portal: welcome, and your Client ID',
    text: [
      `Dear ${client.firstName},`,
      `${registeredBy ? `Dr. ${registeredBy.lastName}` : 'Your physician'} registered you with the bank, and the e-mail address we have for you was corrected to this one. Your Client ID is ${client.clientActId}.`,
      `Please set your password to sign in to the Client Portal with this link. It can be used once, within ${WELCOME_LINK_DAYS} days; any link we sent before no longer works:`,
      `${deps.publicUrl}/welcome/${token}`,
      'If you did not expect this e-mail, please contact us.',
    ].join('\n\n'),
  });
}
