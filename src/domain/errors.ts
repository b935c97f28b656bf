import { z } from 'zod';

/**
 * Every error code shared by server and web, with the one HTTP status it is answered with. A
 * throw site names only the code; the server's error handler reads the status from here.
 */
export const errorStatus = {
  // The request as sent cannot be accepted.
  /** A field, header or body that does not pass its rules (the failing fields named). */
  VALIDATION: 400,
  /** A card or bank account number (or a CVV) sent where the portal never takes one. */
  FORBIDDEN_FIELD: 400,
  /** The one-time password of a password recovery is wrong, used or expired. */
  INVALID_CODE: 400,
  /** The details given to find a client for a public payment match no one. */
  VERIFICATION_FAILED: 400,

  // Who is asking.
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  /** A staff sign-in's authenticator or recovery code is wrong (the half session may end). */
  INVALID_SIGN_IN_CODE: 401,
  FORBIDDEN_ORIGIN: 403,
  /** A change only someone else may make (a physician changing the client's e-mail or phone). */
  CHANGE_NOT_PERMITTED: 403,
  SECOND_APPROVAL_REQUIRED: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,

  PAYMENT_DECLINED: 402,

  // The request is sound, but what it acts on does not allow it now.
  /** The same Idempotency-Key is still running, or its first run was cut short: try again. */
  IDEMPOTENCY_CONFLICT: 409,
  /** The same Idempotency-Key was already used for a different request. */
  IDEMPOTENCY_KEY_REUSED: 422,
  AMOUNT_CHANGED: 409,
  ALREADY_COMPLETED: 409,
  INITIAL_PROCESSING_REQUIRED: 409,
  /** Vials are ordered only once the client consent is signed. */
  CONSENT_REQUIRED: 409,
  /**
   * A rule of the agreement holds a vial release now: three months after the Enrollment Date, or
   * annual storage overdue with no method on file to pay it with the order. The message names
   * the rule and, where it has one, the day it clears.
   */
  RELEASE_NOT_READY: 409,
  AGREEMENT_CHANGED: 409,
  /**
   * The record's state does not allow the action now: not shipped yet, no ACT VIP price to
   * charge or approve, a White Glove charge standing for another option, a method on file the
   * gateway no longer holds.
   */
  NOT_ALLOWED_NOW: 409,
  /** A payment staff asked to settle is still being worked on, or the gateway cannot tell yet. */
  PAYMENT_IN_PROGRESS: 409,
  /** The carrier cannot ship this: a country it does not serve, a date it does not deliver on. */
  CANNOT_SHIP: 422,
  ADDRESS_NOT_VERIFIED: 422,

  // The framework's own refusals (its status kept, each with its code).
  PAYLOAD_TOO_LARGE: 413,
  /** A body of a content type the portal does not parse. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A file request's precondition (If-Match, If-Unmodified-Since) that does not hold. */
  PRECONDITION_FAILED: 412,
  /** A file request's byte range outside the file. */
  RANGE_NOT_SATISFIABLE: 416,

  // The portal or a service it needs.
  /** A charge was sent and its outcome is not known yet: it is being checked, nothing is done twice. */
  PAYMENT_PENDING: 503,
  GATEWAY_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  CARRIER_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

/** True for a code this version knows (a stored or received code may be older). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorStatus, code);
}

/** Every 4xx/5xx body: a message for people, a code for programs, and the failing fields. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.enum(errorCodes),
  fields: z.record(z.string(), z.string()).optional(),
  requestId: z.string().optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The first message per field of a failed zod parse, keyed by the field's top-level name. */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '_');
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

/** In a refinement: each named field that is empty gets its message. */
export function requireEach<T extends object>(
  body: T,
  ctx: z.RefinementCtx,
  messages: Partial<Record<keyof T & string, string>>,
) {
  for (const [field, message] of Object.entries(messages) as [keyof T & string, string][]) {
    if (!body[field]) ctx.addIssue({ code: 'custom', path: [field], message });
  }
}
