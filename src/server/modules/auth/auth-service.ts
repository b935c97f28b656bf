import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { authMessages, authPolicy, type OtpRequest, type UpdatePasswordRequest } from '../../../domain/auth';
import type { Mailer } from '../../adapters/mailer';
import type { Database } from '../../db/client';
import { clients, loginFailures, passwordResetCodes } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import { dummySecretHash, hashSecret, sixDigitCode, verifySecret } from '../../lib/secrets';

interface Deps {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  log: { warn(obj: object, msg: string): void };
}

export interface SignedInClient {
  id: string;
  clientActId: string;
  lastName: string;
}

const invalidCredentials = () => new HttpError(401, 'INVALID_CREDENTIALS', authMessages.loginFailed);

/**
 * Checks a Client ID and password. Unknown IDs, wrong passwords and locked accounts all answer
 * the same, after the same amount of hashing work.
 */
export async function signIn(
  { db, clock, mailer, log }: Deps,
  username: string,
  password: string,
): Promise<SignedInClient> {
  const loginKey = username.trim().toUpperCase();
  const now = clock.now();
  const [client] = await db
    .select({
      id: clients.id,
      clientActId: clients.clientActId,
      lastName: clients.lastName,
      email: clients.email,
      passwordHash: clients.passwordHash,
    })
    .from(clients)
    .where(sql`upper(${clients.clientActId}) = ${loginKey}`)
    .limit(1);
  const [failure] = await db
    .select()
    .from(loginFailures)
    .where(eq(loginFailures.loginKey, loginKey))
    .limit(1);
  const locked = failure?.lockedUntil != null && failure.lockedUntil > now;

  const passwordMatches = await verifySecret(client?.passwordHash ?? (await dummySecretHash()), password);
  if (client && passwordMatches && !locked) {
    await db.delete(loginFailures).where(eq(loginFailures.loginKey, loginKey));
    return { id: client.id, clientActId: client.clientActId, lastName: client.lastName };
  }
  if (locked) throw invalidCredentials();

  const [counted] = await db
    .insert(loginFailures)
    .values({ loginKey, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: loginFailures.loginKey,
      set: { failures: sql`${loginFailures.failures} + 1`, lastFailureAt: now },
    })
    .returning({ failures: loginFailures.failures });
  if (counted && counted.failures >= authPolicy.lockoutFailures) {
    await db
      .update(loginFailures)
      .set({ failures: 0, lockedUntil: new Date(now.getTime() + authPolicy.lockoutMs) })
      .where(eq(loginFailures.loginKey, loginKey));
    if (client) {
      await mailer
        .send({
          to: client.email,
          subject: 'Client Portal: sign-in locked for 15 minutes',
          text: [
            'There were 10 unsuccessful attempts to sign in to your Client Portal account, so sign-in is paused for 15 minutes.',
            'If this was not you, please reset your password with the Forgot Your Password link and contact us.',
          ].join('\n\n'),
        })
        .catch((error: unknown) => log.warn({ err: error }, 'lock notification not sent'));
    }
  }
  throw invalidCredentials();
}

async function findClientByDetails(db: Database, details: OtpRequest) {
  const [client] = await db
    .select({ id: clients.id, email: clients.email, clientActId: clients.clientActId })
    .from(clients)
    .where(
      and(
        sql`lower(${clients.email}) = lower(${details.email})`,
        sql`lower(${clients.firstName}) = lower(${details.firstName})`,
        eq(clients.dateOfBirth, details.dateOfBirth),
      ),
    )
    .limit(1);
  return client;
}

/** Stands for "no client" in the queries both paths of recovery run, so a miss does the same work. */
const NO_ONE = '00000000-0000-0000-0000-000000000000';

/**
 * Sends a one-time code to the address of record when the details match a client. The answer
 * is the same either way and never carries the code; and it takes as long: a match, a match over
 * the hourly limit and a miss all run the same queries and hash one code. The e-mail is sent
 * after the answer, not awaited.
 */
export async function requestPasswordCode(
  { db, clock, mailer, log }: Deps,
  details: OtpRequest,
): Promise<void> {
  const now = clock.now();
  const client = await findClientByDetails(db, details);
  const hourAgo = new Date(now.getTime() - 60 * 60 * 1000);
  const [recent] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(passwordResetCodes)
    .where(
      and(eq(passwordResetCodes.clientId, client?.id ?? NO_ONE), gt(passwordResetCodes.createdAt, hourAgo)),
    );
  const code = sixDigitCode();
  const codeHash = await hashSecret(code);
  const recipient = client && (recent?.count ?? 0) < authPolicy.otpPerHourPerAccount ? client : null;
  // Only the newest code is valid: the older ones are retired in the same statement. For no one
  // it changes nothing, in the same time.
  const codeOwner = recipient?.id ?? NO_ONE;
  await db.execute(sql`
    with retired as (
      update password_reset_codes set used_at = ${now.toISOString()}
      where client_id = ${codeOwner}::uuid and used_at is null
    )
    insert into password_reset_codes (client_id, code_hash, created_at, expires_at)
    select id, ${codeHash}::text, ${now.toISOString()}::timestamptz,
      ${new Date(now.getTime() + authPolicy.otpValidityMs).toISOString()}::timestamptz
    from clients where id = ${codeOwner}::uuid`);
  if (!recipient) return;
  mailer
    .send({
      to: recipient.email,
      subject: 'Client Portal: your one time password',
      text: [
        `Your one time password is ${code}`,
        'Enter it on the password recovery page with your new password. It is valid for 10 minutes and can be used once.',
        'If you did not ask to reset your password, you can ignore this e-mail; your password has not changed.',
      ].join('\n\n'),
    })
    .catch((error: unknown) => log.warn({ err: error }, 'one time password e-mail not sent'));
}

const invalidCode = () =>
  new HttpError(400, 'INVALID_CODE', authMessages.otpInvalid, { OneTimePassword: authMessages.otpInvalid });

/**
 * Checks the code (5 tries, 10 minutes, once) and sets the new password; returns the client id.
 * Unknown details, a used, expired or exhausted code and a wrong code all run the same queries and
 * the same hashing (one code verified, one new password hashed), so the time of the answer does
 * not tell whether the details matched a client.
 */
export async function resetPassword(
  { db, clock, mailer, log }: Deps,
  request: UpdatePasswordRequest,
): Promise<string> {
  const now = clock.now();
  const client = await findClientByDetails(db, request);
  const [latest] = await db
    .select()
    .from(passwordResetCodes)
    .where(eq(passwordResetCodes.clientId, client?.id ?? NO_ONE))
    .orderBy(desc(passwordResetCodes.createdAt))
    .limit(1);
  const usable = latest && !latest.usedAt && latest.expiresAt > now ? latest : null;

  // Count the try before checking it, in one statement, so parallel guesses cannot exceed 5.
  const [tried] = await db
    .update(passwordResetCodes)
    .set({ attempts: sql`${passwordResetCodes.attempts} + 1` })
    .where(
      and(
        eq(passwordResetCodes.id, usable?.id ?? NO_ONE),
        isNull(passwordResetCodes.usedAt),
        lt(passwordResetCodes.attempts, authPolicy.otpMaxTries),
      ),
    )
    .returning({ attempts: passwordResetCodes.attempts });
  const checked = tried && usable ? usable : null;
  const codeMatches = await verifySecret(
    checked?.codeHash ?? (await dummySecretHash()),
    request.OneTimePassword,
  );
  const passwordHash = await hashSecret(request.UpdatedPassword);
  if (!client || !checked || !codeMatches) throw invalidCode();

  const [used] = await db
    .update(passwordResetCodes)
    .set({ usedAt: now })
    .where(and(eq(passwordResetCodes.id, checked.id), isNull(passwordResetCodes.usedAt)))
    .returning({ id: passwordResetCodes.id });
  if (!used) throw invalidCode();

  await db.update(clients).set({ passwordHash, updatedAt: now }).where(eq(clients.id, client.id));
  await db.delete(loginFailures).where(eq(loginFailures.loginKey, client.clientActId.toUpperCase()));
  mailer
    .send({
      to: client.email,
      subject: 'Client Portal: your password was changed',
      text: [
        'The password of your Client Portal account was changed just now, and every signed-in session was signed out.',
        'If you did not do this, please contact us right away.',
      ].join('\n\n'),
    })
    .catch((error: unknown) => log.warn({ err: error }, 'password change notice not sent'));
  return client.id;
}
