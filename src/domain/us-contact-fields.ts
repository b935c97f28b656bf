import { z } from 'zod';
import { shipmentDateMessages } from './carrier-calendar';
import { calendarDateToIso } from './dates';
import { singleLine } from './text';
import { isUnitedStates, isUsZip, parseUsPhone, usContactMessages } from './us-contact';
import { isUsStateCode } from './us-states';

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

/** A ZIP code that may be left empty; when given, 5 digits or ZIP+4. */
export function optionalUsZipField(required: string) {
  return singleLine(z.string({ error: required }).trim()).refine(
    (value) => value === '' || isUsZip(value),
    usContactMessages.zipFormat,
  );
}

/** Long enough for any country's postal code as people type it (Brazil's "01310-100", Ireland's "D02 X285"). */
const POSTAL_CODE_MAX = 20;

/**
 * A ZIP or postal code of an address that may be abroad: required, free text of at most 20
 * characters. Where the address's Country is the United States, usAddressIssues adds the ZIP rule.
 */
export function postalCodeField(required: string) {
  return requiredLine(required, POSTAL_CODE_MAX);
}

/** Where an address's fields are in a form, and the message for a state not on the US list. */
export interface AddressFields {
  country: string;
  zip: string;
  state?: { field: string; notOnList: string };
}

/**
 * The rules of an address in the United States, for a form whose Country is free text: when the
 * Country is the United States, the ZIP code is 5 digits or ZIP+4 and (when `state` is given) the
 * state is a code of the list. For another country the state or province and the postal code stay
 * free text. A field already refused (empty, too long) keeps its own message alone. Run it from a
 * superRefine with everyFieldAtOnce: the values may still be raw.
 */
export function usAddressIssues(
  values: Record<string, unknown>,
  fields: AddressFields,
  ctx: z.RefinementCtx,
) {
  if (!isUnitedStates(values[fields.country])) return;
  const refused = new Set(ctx.issues.map((issue) => issue.path?.[0]));
  const text = (field: string) => {
    const value = values[field];
    return typeof value === 'string' && !refused.has(field) ? value.trim() : '';
  };
  const zip = text(fields.zip);
  if (zip && !isUsZip(zip))
    ctx.addIssue({ code: 'custom', path: [fields.zip], message: usContactMessages.zipFormat });
  if (!fields.state) return;
  const state = text(fields.state.field);
  if (state && !isUsStateCode(state))
    ctx.addIssue({ code: 'custom', path: [fields.state.field], message: fields.state.notOnList });
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
