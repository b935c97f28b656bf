import { HttpError } from './http-error';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/** The Idempotency-Key every call that may charge or sign carries (DESIGN.md section 9). */
export function idempotencyKeyOf(headers: Record<string, unknown>): string {
  const key = headers['idempotency-key'];
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new HttpError(
      400,
      'VALIDATION',
      'Each submission needs an Idempotency-Key header (8 to 100 letters, digits, - or _).',
    );
  }
  return key;
}
