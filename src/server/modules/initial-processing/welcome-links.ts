import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { WELCOME_LINK_DAYS, welcomeLinkMessages } from '../../../domain/initial-processing';
import type { Mailer } from '../../adapters/mailer';
import type { Database } from '../../db/client';
import { clients, physicians, sampleSubmissions, welcomeLinks } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { randomToken, sha256Hex } from '../../lib/secrets';

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
  const [row] = await db
    .select({
      clientId: welcomeLinks.clientId,
      expiresAt: welcomeLinks.expiresAt,
      clientACTId: clients.clientActId,
      firstName: clients.firstName,
    })
    .from(welcomeLinks)
    .innerJoin(clients, eq(clients.id, welcomeLinks.clientId))
    .where(
      and(
        eq(welcomeLinks.tokenHash, sha256Hex(token)),
        isNull(welcomeLinks.usedAt),
        gt(welcomeLinks.expiresAt, now),
      ),
    )
    .limit(1);
  if (!row) throw unusable();
  return row;
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
    const [client] = await tx
      .update(clients)
      .set({ passwordHash, updatedAt: now })
      .where(eq(clients.id, used.clientId))
      .returning({ id: clients.id, actId: clients.clientActId, lastName: clients.lastName });
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
  const [row] = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(
      and(
        eq(clients.id, clientId),
        isNull(clients.passwordHash),
        registeredBy === undefined
          ? undefined
          : sql`(select s.physician_id from sample_submissions s where s.client_id = ${clients.id}
               order by s.created_at limit 1) = ${registeredBy}`,
        sql`exists (select 1 from welcome_links w where w.client_id = ${clients.id})`,
        sql`not exists (select 1 from welcome_links w where w.client_id = ${clients.id} and w.used_at is not null)`,
      ),
    )
    .limit(1);
  return row !== undefined;
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
  const [client] = await tx.select().from(clients).where(eq(clients.id, input.clientId)).limit(1);
  if (!client) throw new Error('the client whose welcome link is replaced is gone');
  const [registeredBy] = await tx
    .select({ lastName: physicians.lastName })
    .from(sampleSubmissions)
    .innerJoin(physicians, eq(physicians.id, sampleSubmissions.physicianId))
    .where(eq(sampleSubmissions.clientId, input.clientId))
    .orderBy(asc(sampleSubmissions.createdAt))
    .limit(1);
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
