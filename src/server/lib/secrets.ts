import { createHash, randomBytes, randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

// OWASP's Argon2id baseline: 19 MiB, 2 passes, 1 lane. (Algorithm 2 is Argon2id; the enum is a const enum.)
const argon2Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, argon2Options);
}

export async function verifySecret(hashed: string, secret: string): Promise<boolean> {
  try {
    return await verify(hashed, secret);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** A hash to verify against when there is no account, so both answers take as long. */
export function dummySecretHash(): Promise<string> {
  dummyHash ??= hashSecret(randomBytes(16).toString('hex'));
  return dummyHash;
}

/** An opaque random token (256 bits), URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The SHA-256 of a value's JSON: what makes two submissions of a request the same one. */
export function jsonSha256(value: unknown): string {
  return sha256Hex(JSON.stringify(value));
}

/** A 6-digit one-time code from the CSPRNG. */
export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

const commonPasswords = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));

/**
 * True for a password on the common-password list, also when it is one of them dressed up with
 * capitals, trailing digits or symbols ("Password2026!") or a single repeated character.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (commonPasswords.has(lower)) return true;
  if (/^(.)\1*$/.test(password)) return true;
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  if (core.length >= 3 && commonPasswords.has(core)) return true;
  const lettersOnly = lower.replace(/[^a-z]/g, '');
  return (
    lettersOnly.length >= 4 && lettersOnly.length >= lower.length / 2 && commonPasswords.has(lettersOnly)
  );
}
