import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { authMessages, authPolicy, type OtpRequest, type PhysicianOtpRequest } from '../../../domain/auth';
import type { Mailer } from '../../adapters/mailer';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import { dummySecretHash, hashSecret, sixDigitCode, verifySecret } from '../../lib/secrets';
import { findClientByRecoveryDetails, findClientSignIn, setClientPassword } from '../clients/client-accounts';
import {
  findPhysicianByRecoveryDetails,
  findPhysicianSignIn,
  setPhysicianPassword,
} from '../physicians/physician-repository';
import { loginFailures, passwordResetCodes } from './schema';

interface Deps {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  log: { warn(obj: object, msg: string): void };
}

/** Who signed in: the record id, the ID they sign in with, and their last name. */
export interface SignedInAccount {
  id: string;
  actId: string;
  lastName: string;
}

interface AccountRow extends SignedInAccount {
  email: string;
  passwordHash: string | null;
}

/**
 * What differs between signing in (and recovering) as a client and as a physician; the policies
 * (same answers, lockout, one-time codes) are the same code for both.
 */
export interface AccountKind<Details> {
  /** The portal's name in the e-mails. */
  portal: string;
  loginFailed: string;
  /** The login_failures key of an ID as typed: a client's and a physician's never collide. */
  loginKey(actId: string): string;
  findByActId(db: Database, upperActId: string): Promise<AccountRow | undefined>;
  /** The account the recovery details name, if they match one. */
  findByDetails(
    db: Database,
    details: Details,
  ): Promise<(Pick<AccountRow, 'id' | 'actId' | 'email'> & { emailChangedAt?: Date | null }) | undefined>;
  /** The column of password_reset_codes that names the owner (and its SQL name), and the owner's table. */
  codeOwner: {
    column: typeof passwordResetCodes.clientId | typeof passwordResetCodes.physicianId;
    sqlName: 'client_id' | 'physician_id';
    table: 'clients' | 'physicians';
  };
  setPassword(db: Database, id: string, passwordHash: string, now: Date): Promise<void>;
}

export const clientAccounts: AccountKind<OtpRequest> = {
  portal: 'Client Portal',
  loginFailed: authMessages.loginFailed,
  loginKey: (actId) => actId.trim().toUpperCase(),
  findByActId: findClientSignIn,
  findByDetails: findClientByRecoveryDetails,
  codeOwner: { column: passwordResetCodes.clientId, sqlName: 'client_id', table: 'clients' },
  async setPassword(db, id, passwordHash, now) {
    await setClientPassword(db, id, passwordHash, now);
  },
};

export const physicianAccounts: AccountKind<PhysicianOtpRequest> = {
  portal: 'Physician Portal',
  loginFailed: authMessages.physicianLoginFailed,
  loginKey: (actId) => `physician:${actId.trim().toUpperCase()}`,
  findByActId: findPhysicianSignIn,
  findByDetails: findPhysicianByRecoveryDetails,
  codeOwner: { column: passwordResetCodes.physicianId, sqlName: 'physician_id', table: 'physicians' },
  async setPassword(db, id, passwordHash) {
    await setPhysicianPassword(db, id, passwordHash);
  },
};

const invalidCredentials = (message: string) => new HttpError('INVALID_CREDENTIALS', message);

/** What signing in needs of a kind of account (staff accounts have no password recovery here). */
export type SignInKind = Pick<AccountKind<never>, 'portal' | 'loginFailed' | 'loginKey' | 'findByActId'>;

/** Whether sign-in under this key is locked now. */
export async function signInLocked(db: Database, loginKey: string, now: Date): Promise<boolean> {
  const [failure] = await db
    .select()
    .from(loginFailures)
    .where(eq(loginFailures.loginKey, loginKey))
    .limit(1);
  return failure?.lockedUntil != null && failure.lockedUntil > now;
}

/**
 * Counts one failed attempt under the key; the tenth locks it for 15 minutes and tells the
 * account's owner, when there is one. Returns whether this failure locked it.
 */
export async function countSignInFailure(
  deps: Deps,
  kind: Pick<SignInKind, 'portal'>,
  loginKey: string,
  email: string | null,
): Promise<boolean> {
  const { db, clock } = deps;
  const now = clock.now();
  const [counted] = await db
    .insert(loginFailures)
    .values({ loginKey, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: loginFailures.loginKey,
      set: { failures: sql`${loginFailures.failures} + 1`, lastFailureAt: now },
    })
    .returning({ failures: loginFailures.failures });
  if (!counted || counted.failures < authPolicy.lockoutFailures) return false;
  await lockSignIn(deps, kind, loginKey, email);
  return true;
}

/** Locks the key for 15 minutes (its count starts again after) and tells the account's owner. */
async function lockSignIn(
  { db, clock, mailer, log }: Deps,
  kind: Pick<SignInKind, 'portal'>,
  loginKey: string,
  email: string | null,
): Promise<void> {
  const now = clock.now();
  await db
    .update(loginFailures)
    .set({ failures: 0, lockedUntil: new Date(now.getTime() + authPolicy.lockoutMs) })
    .where(eq(loginFailures.loginKey, loginKey));
  if (email) {
    await mailer
      .send({
        to: email,
        subject: `${kind.portal}: sign-in locked for 15 minutes`,
        text: [
          `There were 10 unsuccessful attempts to sign in to your ${kind.portal} account, so sign-in is paused for 15 minutes.`,
          'If this was not you, please reset your password with the Forgot Your Password link and contact us.',
        ].join('\n\n'),
      })
      .catch((error: unknown) => log.warn({ err: error }, 'lock notification not sent'));
  }
}

/**
 * Takes a number for one sign-in attempt before its password is judged, in one statement, so
 * attempts sent at once (in several processes) are counted exactly: while the key is locked
 * nothing is counted and the attempt is not judged; past the lockout's number of failures, it is
 * not judged either. Returns the attempt's number, or null when it must not be judged.
 */
async function claimSignInAttempt(db: Database, loginKey: string, now: Date): Promise<number | null> {
  const [claim] = await db
    .insert(loginFailures)
    .values({ loginKey, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: loginFailures.loginKey,
      set: {
        failures: sql`case when ${loginFailures.lockedUntil} > ${now.toISOString()} then ${loginFailures.failures} else ${loginFailures.failures} + 1 end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: loginFailures.failures, lockedUntil: loginFailures.lockedUntil });
  if (!claim || (claim.lockedUntil != null && claim.lockedUntil > now)) return null;
  return claim.failures <= authPolicy.lockoutFailures ? claim.failures : null;
}

/**
 * Checks an ID and password of one kind of account. Unknown IDs, wrong passwords and locked
 * accounts all answer the same, after the same amount of hashing work. Each attempt is counted
 * before it is judged: however many arrive at once, at most the lockout's number of wrong
 * passwords are judged before the lock, and the one that reaches it locks the key.
 */
export async function signIn(
  deps: Deps,
  kind: SignInKind,
  username: string,
  password: string,
): Promise<SignedInAccount> {
  const { db, clock } = deps;
  const loginKey = kind.loginKey(username);
  const now = clock.now();
  const account = await kind.findByActId(db, username.trim().toUpperCase());
  const attempt = await claimSignInAttempt(db, loginKey, now);

  const passwordMatches = await verifySecret(account?.passwordHash ?? (await dummySecretHash()), password);
  if (attempt === null) throw invalidCredentials(kind.loginFailed);
  if (account && passwordMatches) {
    await db.delete(loginFailures).where(eq(loginFailures.loginKey, loginKey));
    return { id: account.id, actId: account.actId, lastName: account.lastName };
  }
  if (attempt === authPolicy.lockoutFailures) await lockSignIn(deps, kind, loginKey, account?.email ?? null);
  throw invalidCredentials(kind.loginFailed);
}

/** Stands for "no one" in the queries both paths of recovery run, so a miss does the same work. */
const NO_ONE = '00000000-0000-0000-0000-000000000000';

/**
 * Sends a one-time code to the address of record when the details match a client and the address
 * is at least a day old (authPolicy.recoveryAddressMinAgeMs). The answer
 * is the same either way and never carries the code; and it takes as long: a match, a match over
 * the hourly limit and a miss all run the same queries and hash one code. The e-mail is sent
 * after the answer, not awaited.
 */
export async function requestPasswordCode<D>(
  { db, clock, mailer, log }: Deps,
  kind: AccountKind<D>,
  details: D,
): Promise<void> {
  const now = clock.now();
  const client = await kind.findByDetails(db, details);
  const hourAgo = new Date(now.getTime() - 60 * 60 * 1000);
  const [recent] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(passwordResetCodes)
    .where(and(eq(kind.codeOwner.column, client?.id ?? NO_ONE), gt(passwordResetCodes.createdAt, hourAgo)));
  const code = sixDigitCode();
  const codeHash = await hashSecret(code);
  // An address set less than a day ago gets no code: whoever changed it cannot take the account
  // over before the notice at the old address is read. The answer is the same.
  const addressTooNew =
    client?.emailChangedAt != null &&
    now.getTime() - client.emailChangedAt.getTime() < authPolicy.recoveryAddressMinAgeMs;
  const recipient =
    client && !addressTooNew && (recent?.count ?? 0) < authPolicy.otpPerHourPerAccount ? client : null;
  // Only the newest code is valid: the older ones are retired in the same statement. For no one
  // it changes nothing, in the same time.
  const codeOwner = recipient?.id ?? NO_ONE;
  const ownerColumn = sql.identifier(kind.codeOwner.sqlName);
  await db.execute(sql`
    with retired as (
      update password_reset_codes set used_at = ${now.toISOString()}
      where ${ownerColumn} = ${codeOwner}::uuid and used_at is null
    )
    insert into password_reset_codes (${ownerColumn}, code_hash, created_at, expires_at)
    select id, ${codeHash}::text, ${now.toISOString()}::timestamptz,
      ${new Date(now.getTime() + authPolicy.otpValidityMs).toISOString()}::timestamptz
    from ${sql.identifier(kind.codeOwner.table)} where id = ${codeOwner}::uuid`);
  if (!recipient) return;
  mailer
    .send({
      to: recipient.email,
      subject: `${kind.portal}: your one time password`,
      text: [
        `Your one time password is ${code}`,
        'Enter it on the password recovery page with your new password. It is valid for 10 minutes and can be used once.',
        'If you did not ask to reset your password, you can ignore this e-mail; your password has not changed.',
      ].join('\n\n'),
    })
    .catch((error: unknown) => log.warn({ err: error }, 'one time password e-mail not sent'));
}

const invalidCode = () =>
  new HttpError('INVALID_CODE', authMessages.otpInvalid, { OneTimePassword: authMessages.otpInvalid });

/**
 * Checks the code (5 tries, 10 minutes, once) and sets the new password; returns the account id.
 * Unknown details, a used, expired or exhausted code and a wrong code all run the same queries and
 * the same hashing (one code verified, one new password hashed), so the time of the answer does
 * not tell whether the details matched a client.
 */
export async function resetPassword<D>(
  { db, clock, mailer, log }: Deps,
  kind: AccountKind<D>,
  request: D & { OneTimePassword: string; UpdatedPassword: string },
): Promise<string> {
  const now = clock.now();
  const client = await kind.findByDetails(db, request);
  const [latest] = await db
    .select()
    .from(passwordResetCodes)
    .where(eq(kind.codeOwner.column, client?.id ?? NO_ONE))
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

  await kind.setPassword(db, client.id, passwordHash, now);
  await db.delete(loginFailures).where(eq(loginFailures.loginKey, kind.loginKey(client.actId)));
  // Queued before the answer: the notice is in the outbox once the client is told the change is done.
  await mailer
    .send({
      to: client.email,
      subject: `${kind.portal}: your password was changed`,
      text: [
        `The password of your ${kind.portal} account was changed just now, and every signed-in session was signed out.`,
        'If you did not do this, please contact us right away.',
      ].join('\n\n'),
    })
    .catch((error: unknown) => log.warn({ err: error }, 'password change notice not sent'));
  return client.id;
}

/** Forgets the password reset codes that expired before `before` (the clean-up job). */
export async function deleteResetCodesExpiredBefore(db: Database, before: Date): Promise<void> {
  await db.delete(passwordResetCodes).where(lt(passwordResetCodes.expiresAt, before));
}
