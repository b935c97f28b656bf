import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type ErrorBody, type ErrorCode, errorStatus } from '../../domain/errors';
import { errorSummary, isConnectionLost } from '../lib/failures';
import { HttpError } from '../lib/http-error';

const RETRY_AFTER_SECONDS = 2;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route whose spec gives one sentence for a body it cannot use (the shipping quote's
     * "Please enter shipping details"): the answer's `error`, chosen from the fields in error,
     * which keep their own messages.
     */
    invalidSummary?: (fields: Readonly<Record<string, string>>) => string;
  }
}

/** The framework's own refusals that keep their status, each with the code that has it. */
const FRAMEWORK_CODES: Readonly<Record<number, ErrorCode>> = {
  404: 'NOT_FOUND',
  412: 'PRECONDITION_FAILED',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
};

/**
 * Every error answers `{ error, code, fields? }` with its code's status (`errorStatus`): an
 * HttpError as it says, a validation failure with its fields, the framework's own refusals, a
 * lost database as SERVICE_UNAVAILABLE, anything else as INTERNAL with a request id. The error
 * itself is never logged: its message may hold a query's parameters (personal data).
 */
export function errorHandlerPlugin(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (body: ErrorBody) =>
      reply.code(errorStatus[body.code]).header('cache-control', 'no-store').send(body);
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return send({
        error: error.message,
        code: error.code,
        ...(error.fields ? { fields: error.fields } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.split('/')[1] || '_';
        if (!(key in fields)) fields[key] = issue.message ?? 'Invalid value';
      }
      const first = Object.values(fields)[0] ?? 'The request is not valid.';
      const summary = request.routeOptions.config?.invalidSummary?.(fields) ?? first;
      return send({ error: summary, code: 'VALIDATION', fields });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return send({ error: 'The request is too large.', code: 'PAYLOAD_TOO_LARGE' });
    if (status >= 400 && status < 500) {
      return send({ error: 'The request could not be read.', code: FRAMEWORK_CODES[status] ?? 'VALIDATION' });
    }
    const route = request.routeOptions.url ?? request.url.split('?')[0];
    const { type, errorCode } = errorSummary(error);
    if (isConnectionLost(error)) {
      request.log.warn({ route, errorType: type, errorCode }, 'database connection lost');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return send({
        error: 'The service is briefly unavailable. Please try again in a moment.',
        code: 'SERVICE_UNAVAILABLE',
        requestId: request.id,
      });
    }
    request.log.error({ route, errorType: type, errorCode }, 'request failed');
    return send({
      error: 'Something went wrong. Please try again.',
      code: 'INTERNAL',
      requestId: request.id,
    });
  });
}
