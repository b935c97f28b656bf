import { z } from 'zod';

/**
 * A form's unsent answers, kept on the server for the person filling it in (issue 24, point 1):
 * an idle sign-out, a reload or another computer loses nothing. Never card or bank data and never
 * a signature: those are the act of paying and of signing, done again after a return.
 */

/** The forms that keep a draft, by the name in `/api/pay/drafts/:form`. */
export const draftFormNames = ['consent', 'client-information'] as const;
export type DraftFormName = (typeof draftFormNames)[number];
export const draftFormNameSchema = z.enum(draftFormNames);

/** A draft's JSON, at most this long: a consent's answers are about 1 KB, Client Information's less. */
export const DRAFT_MAX_BYTES = 16 * 1024;
/** A draft not saved again for this long is deleted (and one is deleted when its form is submitted). */
export const DRAFT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export const draftMessages = {
  refusedField: 'A draft never keeps card or bank details or a signature.',
  tooLarge: 'The draft is too large to keep.',
} as const;

/**
 * Keys a draft refuses at any depth: the new card's and account's fields, the gateway's token and
 * the drawn signature (the number fields themselves are refused for every call, app.ts).
 */
const REFUSED_KEY =
  /^(card|ach|token|signature|agree|cvv2?|cvc|card_?code|expiration\w*|exp_?(month|year)|routing\w*)$/i;
// A drawn signature travels as a data URL.
const DATA_URL = /^data:/i;

/** The key or value a draft may not keep, as a path (`payment.card`), or null. */
export function refusedDraftPart(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return DATA_URL.test(value.trim()) ? path || '(draft)' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = refusedDraftPart(item, `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const where = path ? `${path}.${key}` : key;
      if (REFUSED_KEY.test(key)) return where;
      const found = refusedDraftPart(item, where);
      if (found) return found;
    }
  }
  return null;
}

/** A draft as sent and as answered: a JSON object the form alone understands. */
export const formDraftSchema = z.record(z.string().max(100), z.unknown()).superRefine((draft, context) => {
  const refused = refusedDraftPart(draft);
  if (refused) context.addIssue({ code: 'custom', path: [refused], message: draftMessages.refusedField });
});
export type FormDraft = z.infer<typeof formDraftSchema>;

export const formDraftResponseSchema = z.object({
  draft: z.record(z.string(), z.unknown()).nullable().describe('The saved answers, or null when none'),
  savedAt: z.string().nullable().describe('When they were last saved (ISO 8601), or null'),
});
export type FormDraftResponse = z.infer<typeof formDraftResponseSchema>;
