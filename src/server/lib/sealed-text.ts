import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A short secret (a TOTP seed) sealed at rest the way documents are (document-store.ts):
 * AES-256-GCM under the documents key, stored as `iv.tag.ciphertext` in base64url.
 */
export function sealText(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
}

/** The sealed text, or an error when it was changed or sealed under another key. */
export function openText(key: Buffer, sealed: string): string {
  const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !ciphertext) throw new Error('not a sealed text');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}
