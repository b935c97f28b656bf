import { z } from 'zod';
import { shipmentDateMessages } from './carrier-calendar';
import { calendarDateToIso } from './dates';
import { singleLine } from './text';
import { isUsZip, parseUsPhone, usContactMessages } from './us-contact';

export { usContactMessages };

/** A form's own wording: "enter a phone" when empty, "only numbers" for letters (spec wording differs by form). */
export interface PhoneMessages {
  required: string;
  numeric: string;
}

// Generous for what people type ("+1 (305) 555-0142 " is 18); the digits are checked after.
const TYPED_PHONE_MAX = 40;

function digitsOrIssue(value: string, numeric: string, ctx: z.RefinementCtx<string>) {
  const parsed = parseUsPhone(value);
  if ('digits' in parsed) return parsed.digits;
  ctx.addIssue({
    code: 'custom',
    message: parsed.problem === 'notNumeric' ? numeric : usContactMessages.phoneLength,
  });
  return z.NEVER;
}

/**
 * A US phone number field (DESIGN.md 8.26): typed as people do (spaces, dashes, dots, brackets, a
 * leading +1), answered as its 10 digits. Letters get the form's `numeric` message, a wrong length
 * the shared one.
 */
export function usPhoneField(messages: PhoneMessages) {
  return singleLine(
    z
      .string({ error: messages.required })
      .trim()
      .min(1, messages.required)
      .max(TYPED_PHONE_MAX, usContactMessages.phoneLength),
  ).transform((value, ctx) => digitsOrIssue(value, messages.numeric, ctx));
}

/** A phone number that may be left empty (answered as ''); when given, the same rule as usPhoneField. */
export function optionalUsPhoneField(messages: PhoneMessages) {
  return singleLine(
    z.string({ error: messages.required }).trim().max(TYPED_PHONE_MAX, usContactMessages.phoneLength),
  ).transform((value, ctx) => (value === '' ? '' : digitsOrIssue(value, messages.numeric, ctx)));
}

/** A US ZIP code field (5 digits or ZIP+4), `required` the form's own "enter a zip code" message. */
export function usZipField(required: string) {
  return singleLine(z.string({ error: required }).trim().min(1, required)).refine(
    isUsZip,
    usContactMessages.zipFormat,
  );
}

/** A ZIP code that may be left empty; when given, 5 digits or ZIP+4. */
export function optionalUsZipField(required: string) {
  return singleLine(z.string({ error: required }).trim()).refine(
    (value) => value === '' || isUsZip(value),
    usContactMessages.zipFormat,
  );
}

/** A required one-line text of at most `max` characters; `message` when it is missing. */
export function requiredLine(message: string, max: number) {
  return singleLine(
    z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`),
  );
}

/** A state as its two-letter code, in capitals. */
export function stateCodeField(messages: { required: string; format: string }) {
  return singleLine(
    z
      .string({ error: messages.required })
      .trim()
      .min(1, messages.required)
      .regex(/^[A-Za-z]{2}$/, messages.format),
  ).transform((v) => v.toUpperCase());
}

/**
 * A shipment date as a form sends it (MM/DD/YYYY, or YYYY-MM-DD), as YYYY-MM-DD; `required` when
 * empty (without it, an empty date is not one).
 */
export function shipmentDateField(required?: string) {
  const text = singleLine(z.string({ error: required }).trim().max(10, shipmentDateMessages.invalid));
  return (required ? text.min(1, required) : text).transform((value, ctx) => {
    const iso = calendarDateToIso(value);
    if (iso === null) {
      ctx.addIssue({ code: 'custom', message: shipmentDateMessages.invalid });
      return z.NEVER;
    }
    return iso;
  });
}
