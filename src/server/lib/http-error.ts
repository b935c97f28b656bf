import { type ErrorCode, errorStatus } from '../../domain/errors';

/**
 * An error that becomes an answer `{ error, code, fields }` in the one error handler. The throw
 * site names the code; its status is the code's own (`errorStatus` in domain/errors.ts).
 */
export class HttpError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = errorStatus[code];
  }
}

export function notFound(): HttpError {
  return new HttpError('NOT_FOUND', 'Not found');
}

export function unauthenticated(message = 'Please sign in.'): HttpError {
  return new HttpError('UNAUTHENTICATED', message);
}

export function tooManyRequests(retryAfterSeconds: number, message: string): HttpError {
  return new HttpError('RATE_LIMITED', message, undefined, { 'retry-after': String(retryAfterSeconds) });
}
