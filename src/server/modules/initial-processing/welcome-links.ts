import { and, eq, gt, isNull } from 'drizzle-orm';
import { WELCOME_LINK_DAYS, welcomeLinkMessages } from '../../../domain/initial-processing';
import type { Database } from '../../db/client';
import { clients, welcomeLinks } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { randomToken, sha256Hex } from '../../lib/secrets';

const LIFETIME_MS = WELCOME_LINK_DAYS * 24 * 60 * 60 * 1000;

/**
 * A new client's welcome link: a random token, of which only the SHA-256 is kept; the token
 * itself goes into the e-mail and nowhere else. Valid 7 days, once.
 */
export async function createWelcomeLink(tx: Transaction, clientId: string, now: Date): Promise<string> {
  const token = randomToken();
  await tx.insert(welcomeLinks).values({
    clientId,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now.getTime() + LIFETIME_MS),
    createdAt: now,
  });
  return token;
}

const unusable = () => new HttpError(404, 'NOT_FOUND', welcomeLinkMessages.unusable);

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
