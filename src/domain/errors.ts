import { z } from 'zod';

/** Error codes shared by server and web; the server maps each to one status in its error handler. */
export const errorCodes = [
  'VALIDATION',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'NOT_FOUND',
  'RATE_LIMITED',
  'INVALID_CODE',
  'PAYLOAD_TOO_LARGE',
  'FORBIDDEN_ORIGIN',
  'FORBIDDEN_FIELD',
  'PAYMENT_DECLINED',
  'IDEMPOTENCY_CONFLICT',
  'VERIFICATION_FAILED',
  'GATEWAY_UNAVAILABLE',
  'AMOUNT_CHANGED',
  'ALREADY_COMPLETED',
  'INITIAL_PROCESSING_REQUIRED',
  'AGREEMENT_CHANGED',
  'PAYMENT_PENDING',
  'SERVICE_UNAVAILABLE',
  'ADDRESS_NOT_VERIFIED',
  'CARRIER_UNAVAILABLE',
  'SECOND_APPROVAL_REQUIRED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

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
