import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Signed, expiring links for the public payment pages (`?t=`): they name one client (by Client
 * ID, so a link can be made without the database) and one purpose, and cannot be altered
 * without the server's key.
 */

export const LINK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The public payment pages' two variants: the e-mailed link opens /updatepaymentinformation
 * (source tag Email Single Payment Page), the texted one /updatepaymentinfo (SMS Single Payment
 * Page); the same signed token as `npm run payment-link`.
 */
export const PAYMENT_LINK_PATHS = { email: '/updatepaymentinformation', sms: '/updatepaymentinfo' } as const;

/** The signing key: LINK_SECRET, else a key generated once into DATA_DIR (one server, or a shared disk). */
export function linkSecret(dataDir: string, fromEnv: string | undefined): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  const file = path.join(dataDir, 'link-secret.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'utf8');
}

function sign(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

export function createPaymentLinkToken(
  secret: Buffer,
  clientActId: string,
  now: Date,
  lifetimeMs = LINK_LIFETIME_MS,
): string {
  const payload = Buffer.from(
    JSON.stringify({
      c: clientActId.toUpperCase(),
      p: 'payment-info',
      e: Math.floor((now.getTime() + lifetimeMs) / 1000),
    }),
  ).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The Client ID a link names, or null when it is forged, altered, for another purpose or expired. */
export function readPaymentLinkToken(secret: Buffer, token: string, now: Date): string | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      c?: unknown;
      p?: unknown;
      e?: unknown;
    };
    if (claims.p !== 'payment-info' || typeof claims.c !== 'string' || typeof claims.e !== 'number')
      return null;
    if (claims.e * 1000 <= now.getTime()) return null;
    return claims.c;
  } catch {
    return null;
  }
}

/**
 * A link naming one record by its id (never shown otherwise) for one purpose, expiring like the
 * payment links: a newborn finance agreement's (`/newbornfinanceagreement/<token>`, made without
 * the database so `npm run agreement-link` works beside a running server), a delivery's
 * confirmation by the clinic (`/delivery-confirmation/<token>`), a client's objection to a vial
 * request their physician placed (`/object/<token>`), a public payment page's save
 * (`?result=<token>`, so a reload after paying shows what was paid).
 */
export type IdLinkPurpose =
  | 'newborn-agreement'
  | 'delivery-confirmation'
  | 'cell-request-objection'
  | 'payment-result';

export function createIdLinkToken(
  secret: Buffer,
  purpose: IdLinkPurpose,
  id: string,
  now: Date,
  lifetimeMs = LINK_LIFETIME_MS,
): string {
  const payload = Buffer.from(
    JSON.stringify({ a: id, p: purpose, e: Math.floor((now.getTime() + lifetimeMs) / 1000) }),
  ).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id a link names, or null when it is forged, altered, for another purpose or expired. */
export function readIdLinkToken(
  secret: Buffer,
  purpose: IdLinkPurpose,
  token: string,
  now: Date,
): string | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      a?: unknown;
      p?: unknown;
      e?: unknown;
    };
    if (claims.p !== purpose || typeof claims.a !== 'string' || typeof claims.e !== 'number') return null;
    if (!UUID.test(claims.a) || claims.e * 1000 <= now.getTime()) return null;
    return claims.a;
  } catch {
    return null;
  }
}

export const createAgreementLinkToken = (
  secret: Buffer,
  agreementId: string,
  now: Date,
  lifetimeMs?: number,
) => createIdLinkToken(secret, 'newborn-agreement', agreementId, now, lifetimeMs);

export const readAgreementLinkToken = (secret: Buffer, token: string, now: Date) =>
  readIdLinkToken(secret, 'newborn-agreement', token, now);
