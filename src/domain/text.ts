import type { z } from 'zod';

/** Messages of the rules every piece of text the portal takes must pass. */
export const textMessages = {
  controlCharacter: 'Must not contain control characters (such as NUL)',
  lineBreak: 'Must be on one line (no tab or line break)',
} as const;

/**
 * A control character no text of the portal may hold: C0 (U+0000 to U+001F) and DEL, except the
 * tab, line feed and carriage return of free text. PostgreSQL refuses NUL in text, and the others
 * are never typed by a person.
 */
export function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x7f || (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d)) return true;
  }
  return false;
}

/** A tab, line feed or carriage return: allowed in free text, not in a one-line field. */
export function hasLineBreakOrTab(value: string): boolean {
  return /[\t\n\r]/.test(value);
}

/**
 * A one-line text field (a name, an address line, an e-mail): no control character, tab or line
 * break. Takes the field's own string schema so its messages and limits stay as they are.
 */
export function singleLine(schema: z.ZodString): z.ZodString {
  return schema
    .refine((value) => !hasControlCharacter(value), textMessages.controlCharacter)
    .refine((value) => !hasLineBreakOrTab(value), textMessages.lineBreak);
}

/** A free-text field (a list of medications, notes): tabs and line breaks allowed, nothing else. */
export function freeText(schema: z.ZodString): z.ZodString {
  return schema.refine((value) => !hasControlCharacter(value), textMessages.controlCharacter);
}
