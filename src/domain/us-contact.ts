/*
 * US phone numbers and ZIP codes, one rule for every form of the portal (DESIGN.md 8.26). Plain
 * functions with no zod, so a page can show a formatted number without loading the schema library;
 * the zod fields built on them are in us-contact-fields.ts.
 */

/** What a phone number may be typed with: digits, spaces, dashes, dots, brackets and a leading +. */
const PHONE_CHARACTERS = /^\+?[\d\s().-]*$/;

/** A US ZIP code: 5 digits, or ZIP+4 (12345-6789). */
const US_ZIP = /^\d{5}(-\d{4})?$/;

export const usContactMessages = {
  phoneLength: 'Please enter a 10-digit phone number',
  zipFormat: 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)',
} as const;

/** Why a typed phone number is refused: letters or other signs, or not 10 digits once +1 is taken off. */
export type PhoneProblem = 'notNumeric' | 'length';

/**
 * A phone number as people type it ("(305) 555-0142", "305.555.0142", "+1 305 555 0142") as its
 * 10 digits, or why it cannot be one. A leading 1 (with or without +) is the US country code.
 */
export function parseUsPhone(text: string): { digits: string } | { problem: PhoneProblem } {
  const typed = text.trim();
  if (!PHONE_CHARACTERS.test(typed) || !/\d/.test(typed)) return { problem: 'notNumeric' };
  let digits = typed.replace(/\D/g, '');
  if (typed.startsWith('+')) {
    if (!digits.startsWith('1')) return { problem: 'length' };
    digits = digits.slice(1);
  } else if (digits.length === 11 && digits.startsWith('1')) {
    digits = digits.slice(1);
  }
  return digits.length === 10 ? { digits } : { problem: 'length' };
}

/** A stored phone number as people read it: 10 digits as (305) 555-0142, anything else as it is. */
export function formatUsPhone(value: string): string {
  const match = /^(\d{3})(\d{3})(\d{4})$/.exec(value);
  return match ? `(${match[1]}) ${match[2]}-${match[3]}` : value;
}

export function isUsZip(text: string): boolean {
  return US_ZIP.test(text.trim());
}

/** The ways people type the United States in a free-text Country field, as normalised below. */
const UNITED_STATES = new Set(['us', 'usa', 'united states', 'united states of america']);

/**
 * Whether a typed Country is the United States ("United States", "USA", "U.S.", " us "): the
 * addresses there take a state from the list and a ZIP code; elsewhere both are free text.
 */
export function isUnitedStates(country: unknown): boolean {
  if (typeof country !== 'string') return false;
  return UNITED_STATES.has(country.trim().replace(/\./g, '').replace(/\s+/g, ' ').toLowerCase());
}
