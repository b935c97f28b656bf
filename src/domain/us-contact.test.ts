import { describe, expect, it } from 'vitest';
import { formatUsPhone, isUsZip, parseUsPhone } from './us-contact';
import { optionalUsPhoneField, optionalUsZipField, usPhoneField, usZipField } from './us-contact-fields';

const accepted: Array<[string, string, string]> = [
  ['3055550142', '3055550142', 'digits only'],
  ['(305) 555-0142', '3055550142', 'brackets, a space and a dash'],
  ['(305)555-0142', '3055550142', 'brackets with no space'],
  ['305-555-0142', '3055550142', 'dashes'],
  ['305.555.0142', '3055550142', 'dots'],
  ['305 555 0142', '3055550142', 'spaces'],
  ['+1 305 555 0142', '3055550142', 'a leading +1 and spaces'],
  ['+1 (305) 555-0142', '3055550142', 'a leading +1 and brackets'],
  ['+13055550142', '3055550142', 'a leading +1 with no space'],
  ['1-305-555-0142', '3055550142', 'a leading 1 without the plus'],
  ['13055550142', '3055550142', '11 digits starting with the country code 1'],
  ['  305-555-0142  ', '3055550142', 'spaces around'],
];

const refused: Array<[string, 'notNumeric' | 'length', string]> = [
  ['12', 'length', 'two digits'],
  ['305555014', 'length', 'nine digits'],
  ['305-555-01420', 'length', 'eleven digits not starting with 1'],
  ['23055550142', 'length', 'eleven digits starting with 2'],
  ['113055550142', 'length', 'twelve digits'],
  ['+44 20 7946 0958', 'length', 'a country code other than +1'],
  ['+1 305 555 014', 'length', '+1 and nine digits'],
  ['305-555-CALL', 'notNumeric', 'letters'],
  ['305555014O', 'notNumeric', 'the letter O for a zero'],
  ['call me', 'notNumeric', 'words'],
  ['３０５５５５０１４２', 'notNumeric', 'full-width digits'],
  ['305/555/0142', 'notNumeric', 'slashes'],
  ['305 555 0142 ext 12', 'notNumeric', 'an extension'],
  ['1+3055550142', 'notNumeric', 'a plus not in front'],
  ['()-', 'notNumeric', 'no digit at all'],
];

describe('parseUsPhone', () => {
  it.each(accepted)('accepts %j as %s (%s)', (typed, digits) => {
    expect(parseUsPhone(typed)).toEqual({ digits });
  });

  it.each(refused)('refuses %j: %s (%s)', (typed, problem) => {
    expect(parseUsPhone(typed)).toEqual({ problem });
  });
});

describe('formatUsPhone', () => {
  it.each([
    ['3055550142', '(305) 555-0142'],
    ['2125550100', '(212) 555-0100'],
    ['12345', '12345'],
    ['', ''],
    ['305555014212', '305555014212'],
  ])('shows %j as %j', (stored, shown) => {
    expect(formatUsPhone(stored)).toBe(shown);
  });
});

describe('isUsZip', () => {
  it.each(['33131', '33131-1234', ' 10016 ', '00501'])('accepts %j', (zip) => {
    expect(isUsZip(zip)).toBe(true);
  });

  it.each(['abc', '3313', '331311', '33131-123', '33131 1234', '331311234', '33131-12345', 'K1A 0B1', ''])(
    'refuses %j',
    (zip) => {
      expect(isUsZip(zip)).toBe(false);
    },
  );
});

const messages = { required: 'Please enter phone', numeric: 'Please insert only number' };

function messageOf(result: { success: boolean; error?: { issues: Array<{ message: string }> } }) {
  return result.success ? null : result.error?.issues[0]?.message;
}

describe('usPhoneField', () => {
  it('answers the digits of a number typed with brackets, a space and a dash', () => {
    expect(usPhoneField(messages).parse('(305) 555-0142')).toBe('3055550142');
  });

  it.each([
    ['', 'Please enter phone'],
    ['   ', 'Please enter phone'],
    ['12', 'Please enter a 10-digit phone number'],
    ['+44 20 7946 0958', 'Please enter a 10-digit phone number'],
    ['305-555-CALL', 'Please insert only number'],
    ['305\n5550142', 'Must be on one line (no tab or line break)'],
    [`${'3'.repeat(41)}`, 'Please enter a 10-digit phone number'],
  ])('refuses %j with %j', (typed, message) => {
    expect(messageOf(usPhoneField(messages).safeParse(typed))).toBe(message);
  });

  it('uses the form’s own wording for letters', () => {
    const clinic = {
      required: 'Please enter phone number',
      numeric: 'Please insert only number, must be numeric',
    };
    expect(messageOf(usPhoneField(clinic).safeParse('ext 12'))).toBe(
      'Please insert only number, must be numeric',
    );
  });
});

describe('optionalUsPhoneField', () => {
  it.each([
    ['', ''],
    ['  ', ''],
    ['305.555.0142', '3055550142'],
  ])('answers %j as %j', (typed, value) => {
    expect(optionalUsPhoneField(messages).parse(typed)).toBe(value);
  });

  it('refuses a number too short', () => {
    expect(messageOf(optionalUsPhoneField(messages).safeParse('12'))).toBe(
      'Please enter a 10-digit phone number',
    );
  });
});

describe('usZipField', () => {
  it.each([
    ['', 'Please enter zipcode'],
    ['abc', 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)'],
    ['1234', 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)'],
  ])('refuses %j with %j', (zip, message) => {
    expect(messageOf(usZipField('Please enter zipcode').safeParse(zip))).toBe(message);
  });

  it.each([
    [' 33131 ', '33131'],
    ['33131-1234', '33131-1234'],
  ])('accepts %j as %j', (zip, value) => {
    expect(usZipField('Please enter zipcode').parse(zip)).toBe(value);
  });

  it('lets an optional zip be empty, but not wrong', () => {
    expect(optionalUsZipField('Please enter zipcode').parse('')).toBe('');
    expect(messageOf(optionalUsZipField('Please enter zipcode').safeParse('abc'))).toBe(
      'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)',
    );
  });
});
