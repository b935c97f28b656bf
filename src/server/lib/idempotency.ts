import { containsCardNumber } from '../../domain/card-number-text';
import { HttpError } from './http-error';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/** The Idempotency-Key every call that may charge or sign carries (DESIGN.md section 9). */
export function idempotencyKeyOf(headers: Record<string, unknown>): string {
  const key = headers['idempotency-key'];
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new HttpError(
      'VALIDATION',
      'Each submission needs an Idempotency-Key header (8 to 100 letters, digits, - or _).',
    );
  }
  // The key is kept with the order it made: a card number in it would be stored. A run of digits
  // glued to letters counts too (the portal's own keys are UUIDs: no run longer than 12), and so do
  // groups joined by underscores.
  if (
    containsCardNumber(key.replaceAll('_', '-')) ||
    (key.match(/\d{13,}/g) ?? []).some(containsCardNumber)
  ) {
    throw new HttpError(
      'FORBIDDEN_FIELD',
      'The Idempotency-Key header must not contain a card number. Please send a random key.',
    );
  }
  return key;
}
