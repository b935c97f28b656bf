import type { ErrorCode } from '../../domain/errors';

/** An error that becomes a 4xx answer `{ error, code, fields }` in the one error handler. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function notFound(): HttpError {
  return new HttpError(404, 'NOT_FOUND', 'Not found');
}

export function unauthenticated(message = 'Please sign in.'): HttpError {
  return new HttpError(401, 'UNAUTHENTICATED', message);
}

export function tooManyRequests(retryAfterSeconds: number, message: string): HttpError {
  return new HttpError(429, 'RATE_LIMITED', message, undefined, { 'retry-after': String(retryAfterSeconds) });
}
