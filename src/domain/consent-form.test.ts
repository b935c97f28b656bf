import { describe, expect, it } from 'vitest';
import {
  annualFeeMethod,
  consentMessages,
  consentPageOneProblems,
  physicianConsentClientFields,
} from './consent-form';

/** The physician variant's own rules (spec 2, section 5), from their edges; "today" is passed in. */
describe('the date of birth of the physician consent', () => {
  const dob = physicianConsentClientFields('2028-02-29').Dob;
  const message = (value: string) => {
    const parsed = dob.safeParse(value);
    return parsed.success ? null : parsed.error.issues[0]?.message;
  };
  it.each([
    ['today, a leap day', '02/29/2028', null],
    ['the day after today', '03/01/2028', 'Date of birth cannot be in the future'],
    ['a leap day of a common year', '02/29/2027', 'Invalid date'],
    ['the year 2050', '01/01/2050', 'Invalid date'],
    ['the last day of 1899', '12/31/1899', 'Invalid date'],
    ['another format', '1980-01-01', 'Invalid date'],
    ['empty', '  ', 'Cannot be empty'],
  ])('%s (%s): %s', (_case, value, expected) => {
    expect(message(value)).toBe(expected);
  });
});

describe('the Addendum phone in each variant', () => {
  const individual = {
    Medications: 'No',
    Tissue_deliver: 'Release any Tissue to the following individual',
    Addendum_name: 'Mary Doe',
    Addendum_dob: '04/12/1980',
    Addendum_address: '12 Ocean Drive',
    Addendum_phone: '305-555-0123',
    Relationship: 'Sister',
  };
  it('accepts a number typed with dashes, brackets or a leading +1 (DESIGN.md 8.26)', () => {
    for (const phone of ['305-555-0123', '(305) 555-0123', '+1 305 555 0123'])
      expect(consentPageOneProblems({ ...individual, Addendum_phone: phone })).toEqual({});
  });
  it('is "Please insert only number" for the client and "Invalid PhoneNumber" for the physician', () => {
    const lettered = { ...individual, Addendum_phone: '305-555-O123' };
    expect(consentPageOneProblems(lettered)).toEqual({ Addendum_phone: 'Please insert only number' });
    expect(consentPageOneProblems(lettered, 'physician')).toEqual({
      Addendum_phone: 'Invalid PhoneNumber',
    });
  });
  it('refuses a number that is not 10 digits in both variants', () => {
    const short = { ...individual, Addendum_phone: '305-555' };
    expect(consentPageOneProblems(short)).toEqual({ Addendum_phone: 'Please enter a 10-digit phone number' });
    expect(consentPageOneProblems(short, 'physician')).toEqual({
      Addendum_phone: 'Please enter a 10-digit phone number',
    });
  });
  it('puts an invalid Addendum date of birth on the date of birth in both variants (DESIGN.md 8.10)', () => {
    const body = { ...individual, Addendum_phone: '3055550123', Addendum_dob: '13/40/1980' };
    expect(consentPageOneProblems(body, 'physician')).toEqual({ Addendum_dob: 'Invalid date' });
  });
});

describe('which method pays the annual storage fee the consent commits to', () => {
  const visa = 'Visa ending in 1111';
  const account = 'bank account ending in 6789';
  it.each([
    ['a saved method', { kind: 'card', isNew: false, keep: false }, { card: visa, ach: null }, null],
    ['a new card kept on file', { kind: 'card', isNew: true, keep: true }, { card: null, ach: null }, null],
    [
      'a new card not kept, with a card on file',
      { kind: 'card', isNew: true, keep: false },
      { card: visa, ach: account },
      {
        note: `This card is not kept on file: the annual storage fee will be charged to your ${visa} on file.`,
      },
    ],
    [
      'a new card not kept, with only an account on file',
      { kind: 'card', isNew: true, keep: false },
      { card: null, ach: account },
      {
        note: `This card is not kept on file: the annual storage fee will be charged to your ${account} on file.`,
      },
    ],
    [
      'a new account not kept, with both on file: the account first',
      { kind: 'ach', isNew: true, keep: false },
      { card: visa, ach: account },
      {
        note: `This account is not kept on file: the annual storage fee will be charged to your ${account} on file.`,
      },
    ],
    [
      'a new card not kept, nothing on file',
      { kind: 'card', isNew: true, keep: false },
      { card: null, ach: null },
      { problem: consentMessages.annualFeeNeedsCardOnFile },
    ],
    [
      'a new account not kept, nothing on file',
      { kind: 'ach', isNew: true, keep: false },
      { card: null, ach: null },
      { problem: consentMessages.annualFeeNeedsAccountOnFile },
    ],
  ] as const)('%s', (_, choice, onFile, expected) => {
    expect(annualFeeMethod(choice, onFile)).toEqual(expected);
  });
});
