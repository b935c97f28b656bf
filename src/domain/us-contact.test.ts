import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { everyFieldAtOnce } from './cross-field';
import { formatUsPhone, isUnitedStates, isUsZip, parseUsPhone } from './us-contact';
import {
  optionalUsPhoneField,
  optionalUsZipField,
  postalCodeField,
  usAddressIssues,
  usPhoneField,
} from './us-contact-fields';

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

/** A form with a free-text Country, its postal code and state checked by usAddressIssues. */
const address = z
  .object({
    country: z.string(),
    state: z.string().trim().min(1, 'Please select state'),
    zip: postalCodeField('Please enter zipcode'),
  })
  .superRefine((values, ctx) => {
    usAddressIssues(
      values,
      {
        country: 'country',
        zip: 'zip',
        state: { field: 'state', notOnList: 'Please select a state from the list' },
      },
      ctx,
    );
  }, everyFieldAtOnce);

function addressProblems(values: { country: string; state: string; zip: string }) {
  const result = address.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('isUnitedStates', () => {
  it.each(['United States', 'united states', 'USA', 'U.S.A.', 'US', ' u.s. ', 'United  States of America'])(
    'reads %j as the United States',
    (country) => {
      expect(isUnitedStates(country)).toBe(true);
    },
  );

  it.each(['Canada', 'United Kingdom', 'Mexico', 'USSR', 'Australia', '', 42])(
    'reads %j as another country',
    (country) => {
      expect(isUnitedStates(country)).toBe(false);
    },
  );
});

describe('an address in the United States', () => {
  it.each([
    ['', 'Please enter zipcode'],
    ['abc', 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)'],
    ['1234', 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)'],
    ['K1A 0B1', 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)'],
  ])('refuses the zip %j with %j', (zip, message) => {
    expect(addressProblems({ country: 'United States', state: 'FL', zip })).toEqual({ zip: message });
  });

  it.each([
    [' 33131 ', '33131'],
    ['33131-1234', '33131-1234'],
  ])('accepts the zip %j as %j', (zip, value) => {
    expect(address.parse({ country: 'USA', state: 'FL', zip }).zip).toBe(value);
  });

  it.each(['Florida', 'fl', 'XX', 'PR'])('refuses the state %j, not a code of the list', (state) => {
    expect(addressProblems({ country: 'US', state, zip: '33131' })).toEqual({
      state: 'Please select a state from the list',
    });
  });

  it('gives an empty state its own message alone', () => {
    expect(addressProblems({ country: 'United States', state: '', zip: '33131' })).toEqual({
      state: 'Please select state',
    });
  });
});

describe('an address in another country', () => {
  it.each([
    ['Canada', 'Ontario', 'K1A 0B1'],
    ['United Kingdom', 'Greater London', 'SW1A 1AA'],
    ['Brazil', 'SP', '01310-100'],
    ['Ireland', 'Co. Dublin', 'D02 X285'],
  ])('accepts %s with the province %j and the postal code %j as typed', (country, state, zip) => {
    expect(address.parse({ country, state, zip: ` ${zip} ` })).toEqual({ country, state, zip });
  });

  it('still requires a postal code, of at most 20 characters', () => {
    expect(addressProblems({ country: 'Canada', state: 'Ontario', zip: '  ' })).toEqual({
      zip: 'Please enter zipcode',
    });
    expect(addressProblems({ country: 'Canada', state: 'Ontario', zip: 'x'.repeat(20) })).toEqual({});
    expect(addressProblems({ country: 'Canada', state: 'Ontario', zip: 'x'.repeat(21) })).toEqual({
      zip: 'Must be at most 20 characters',
    });
  });
});

describe('optionalUsZipField', () => {
  it('lets an optional zip be empty, but not wrong', () => {
    expect(optionalUsZipField('Please enter zipcode').parse('')).toBe('');
    expect(messageOf(optionalUsZipField('Please enter zipcode').safeParse('abc'))).toBe(
      'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)',
    );
  });
});
