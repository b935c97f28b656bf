import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import { renderSVG } from 'uqr';
import {
  type StaffLevel,
  type StaffMember,
  type StaffNextStep,
  staffMessages,
  staffPolicy,
} from '../../../domain/staff';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { openText, sealText } from '../../lib/sealed-text';
import { hashSecret } from '../../lib/secrets';
import type { SignInKind } from '../auth/auth-service';
import { staffAccounts, staffRecoveryCodes } from './schema';

export type StaffRow = typeof staffAccounts.$inferSelect;

/** Staff sign in by e-mail; a disabled account is as unknown as one that never existed. */
export const staffKind: SignInKind = {
  portal: 'Back Office',
  loginFailed: staffMessages.loginFailed,
  loginKey: (email) => `staff:${email.trim().toLowerCase()}`,
  async findByActId(db, upperEmail) {
    const [row] = await db
      .select({
        id: staffAccounts.id,
        actId: staffAccounts.email,
        lastName: staffAccounts.name,
        email: staffAccounts.email,
        passwordHash: staffAccounts.passwordHash,
      })
      .from(staffAccounts)
      .where(and(sql`upper(${staffAccounts.email}) = ${upperEmail}`, isNull(staffAccounts.disabledAt)))
      .limit(1);
    return row;
  },
};

export async function findStaff(db: Database, staffId: string): Promise<StaffRow | null> {
  const [row] = await db.select().from(staffAccounts).where(eq(staffAccounts.id, staffId)).limit(1);
  return row ?? null;
}

export function staffMemberOf(row: StaffRow): StaffMember {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    level: row.level,
    enrolled: row.totpSecretSealed !== null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
  };
}

export const invalidCode = () =>
  new HttpError('INVALID_SIGN_IN_CODE', staffMessages.codeInvalid, { code: staffMessages.codeInvalid });
export const invalidRecoveryCode = () =>
  new HttpError('INVALID_SIGN_IN_CODE', staffMessages.recoveryCodeInvalid, {
    code: staffMessages.recoveryCodeInvalid,
  });

/**
 * The time step of a TOTP code valid at `now` (one 30-second step either side, for clocks a
 * little apart) and later than `afterTimeStep`; null otherwise. A used step never passes again.
 */
export async function totpTimeStep(
  secret: string,
  code: string,
  now: Date,
  afterTimeStep: number | null,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: 30,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * Checks a TOTP code of an enrolled account and spends its time step: of two requests with the
 * same code, one passes. Returns whether it passed.
 */
export async function spendTotpCode(
  db: Database,
  key: Buffer,
  account: StaffRow,
  code: string,
  now: Date,
): Promise<boolean> {
  if (!account.totpSecretSealed) return false;
  const step = await totpTimeStep(
    openText(key, account.totpSecretSealed),
    code,
    now,
    account.lastTotpTimeStep,
  );
  if (step === null) return false;
  const spent = await db
    .update(staffAccounts)
    .set({ lastTotpTimeStep: step })
    .where(
      and(
        eq(staffAccounts.id, account.id),
        or(isNull(staffAccounts.lastTotpTimeStep), sql`${staffAccounts.lastTotpTimeStep} < ${step}`),
      ),
    )
    .returning({ id: staffAccounts.id });
  return spent.length === 1;
}

/** The secret offered to a member not yet enrolled (the same one until a code confirms it). */
export async function enrolmentOffer(db: Database, key: Buffer, account: StaffRow) {
  let secret: string;
  if (account.pendingTotpSecretSealed) {
    secret = openText(key, account.pendingTotpSecretSealed);
  } else {
    secret = generateSecret();
    await db
      .update(staffAccounts)
      .set({ pendingTotpSecretSealed: sealText(key, secret) })
      .where(and(eq(staffAccounts.id, account.id), isNull(staffAccounts.totpSecretSealed)));
  }
  const otpauthUri = generateURI({ issuer: staffPolicy.totpIssuer, label: account.email, secret });
  return { secret, otpauthUri, qrSvg: renderSVG(otpauthUri) };
}

// Recovery codes: 12 characters of an alphabet without look-alikes (60 bits), shown in groups of 4.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  const chars = Array.from({ length: 12 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8)].map((group) => group.join('')).join('-');
}

/** A recovery code's keyed hash: the database alone is not enough to try codes offline. */
export function recoveryCodeHash(secret: Buffer, code: string): string {
  const normalized = code.toLowerCase().replace(/[^a-z0-9]/g, '');
  return createHmac('sha256', secret).update(`staff-recovery:${normalized}`).digest('hex');
}

/**
 * Confirms enrolment with a code of the offered secret: the secret becomes the account's, its
 * step is spent, and ten new recovery codes replace any old ones. Returns the codes (their only
 * showing), or null when the code does not match.
 */
export async function completeEnrolment(
  db: Database,
  keys: { documentsKey: Buffer; linkSecret: Buffer },
  account: StaffRow,
  code: string,
  now: Date,
): Promise<string[] | null> {
  if (account.totpSecretSealed || !account.pendingTotpSecretSealed) return null;
  const pending = account.pendingTotpSecretSealed;
  const step = await totpTimeStep(openText(keys.documentsKey, pending), code, now, null);
  if (step === null) return null;
  const codes = Array.from({ length: staffPolicy.recoveryCodeCount }, newRecoveryCode);
  const enrolled = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(staffAccounts)
      .set({ totpSecretSealed: pending, pendingTotpSecretSealed: null, lastTotpTimeStep: step })
      .where(and(eq(staffAccounts.id, account.id), isNull(staffAccounts.totpSecretSealed)))
      .returning({ id: staffAccounts.id });
    if (!row) return false;
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, account.id));
    await tx.insert(staffRecoveryCodes).values(
      codes.map((c) => ({
        staffId: account.id,
        codeHash: recoveryCodeHash(keys.linkSecret, c),
        createdAt: now,
      })),
    );
    return true;
  });
  return enrolled ? codes : null;
}

/** Spends one unused recovery code of the account; whether it was one. */
export async function spendRecoveryCode(
  db: Database,
  linkSecret: Buffer,
  staffId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const spent = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffRecoveryCodes.staffId, staffId),
        eq(staffRecoveryCodes.codeHash, recoveryCodeHash(linkSecret, code)),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return spent.length === 1;
}

/** A random initial password (128 bits), handed to the new member once by the admin. */
export function initialPassword(): string {
  return randomBytes(16).toString('base64url');
}

/** Creates an account; null when the e-mail (whatever its case) is taken. */
export async function createStaff(
  db: Database,
  input: { email: string; name: string; level: StaffLevel; createdBy: string; now: Date },
): Promise<{ row: StaffRow; password: string } | null> {
  const password = initialPassword();
  const [row] = await db
    .insert(staffAccounts)
    .values({
      email: input.email,
      name: input.name,
      level: input.level,
      passwordHash: await hashSecret(password),
      mustChangePassword: true,
      createdBy: input.createdBy,
      createdAt: input.now,
    })
    .onConflictDoNothing()
    .returning();
  return row ? { row, password } : null;
}

/** What the half session does next: the own password (created by an admin), enrolment, or the code. */
export function nextStepOf(staff: StaffRow): StaffNextStep {
  if (staff.mustChangePassword) return 'password';
  return staff.totpSecretSealed ? 'totp' : 'enrol';
}

/** The names of these staff members, by id (an id of no one is absent). */
export async function staffNames(
  db: Database | Transaction,
  staffIds: readonly (string | null)[],
): Promise<Map<string, string>> {
  const ids = [...new Set(staffIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: staffAccounts.id, name: staffAccounts.name })
    .from(staffAccounts)
    .where(inArray(staffAccounts.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A staff member's name, as a queue tells who did something first; "another staff member" for no one. */
export async function staffMemberName(db: Database | Transaction, staffId: string | null): Promise<string> {
  return (await staffNames(db, [staffId])).get(staffId ?? '') ?? 'another staff member';
}
