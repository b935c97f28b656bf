import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  authMessages,
  authPolicy,
  loginRequestSchema,
  newPasswordSchema,
  otpRequestSchema,
  passwordResetFormSchema,
  updatePasswordRequestSchema,
} from './auth';

const TODAY = '2025-06-15';

/** The first message of each failing field: what the form and the server show. */
function failures(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const messages: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '_');
    if (!(field in messages)) messages[field] = issue.message;
  }
  return messages;
}

const blanks: Array<[string, unknown]> = [
  ['an empty string', ''],
  ['spaces only', '   '],
  ['tabs and a line break only', '\t\n'],
  ['null', null],
  ['a number instead of text', 42],
  ['nothing', undefined],
];

describe('loginRequestSchema', () => {
  const valid = { username: 'ACT-1001', password: 'correct horse battery' };

  it('accepts a Client ID and a password', () => {
    expect(loginRequestSchema.parse(valid)).toEqual(valid);
  });

  it.each(blanks)('refuses a Client ID given as %s with "Please enter Client ID"', (_label, username) => {
    expect(failures(loginRequestSchema, { ...valid, username })).toEqual({
      username: 'Please enter Client ID',
    });
  });

  it.each([
    ['an empty string', ''],
    ['null', null],
    ['a number instead of text', 42],
    ['nothing', undefined],
  ])('refuses a password given as %s with "Please enter password"', (_label, password) => {
    expect(failures(loginRequestSchema, { ...valid, password })).toEqual({
      password: 'Please enter password',
    });
  });

  it('names both fields when both are empty', () => {
    expect(failures(loginRequestSchema, { username: '', password: '' })).toEqual({
      username: 'Please enter Client ID',
      password: 'Please enter password',
    });
  });

  it('trims the spaces around a Client ID', () => {
    expect(loginRequestSchema.parse({ ...valid, username: '  ACT-1001  ' }).username).toBe('ACT-1001');
  });

  it('keeps a password exactly as typed, spaces included', () => {
    expect(loginRequestSchema.parse({ ...valid, password: ' pass word ' }).password).toBe(' pass word ');
  });

  it('never trims a password, so one of spaces only goes on to the credential check', () => {
    expect(loginRequestSchema.parse({ ...valid, password: '   ' }).password).toBe('   ');
  });

  it.each([
    ['username', 64, true],
    ['username', 65, false],
    ['password', 1024, true],
    ['password', 1025, false],
  ])('bounds the %s: %i characters accepted is %s', (field, length, accepted) => {
    expect(loginRequestSchema.safeParse({ ...valid, [field]: 'x'.repeat(length) }).success).toBe(accepted);
  });

  it('strips unknown fields', () => {
    expect(loginRequestSchema.parse({ ...valid, role: 'physician', id: 'someone-else' })).toEqual(valid);
  });
});

describe('otpRequestSchema', () => {
  const valid = { email: 'jane.doe@example.com', firstName: 'Jane', dateOfBirth: '1980-06-15' };
  const schema = otpRequestSchema(TODAY);

  it('accepts an email, a first name and a date of birth', () => {
    expect(schema.parse(valid)).toEqual(valid);
  });

  it.each(blanks)('refuses an email given as %s with "Please enter email"', (_label, email) => {
    expect(failures(schema, { ...valid, email })).toEqual({ email: 'Please enter email' });
  });

  it.each(blanks)('refuses a first name given as %s with "Please enter firstName"', (_label, firstName) => {
    expect(failures(schema, { ...valid, firstName })).toEqual({ firstName: 'Please enter firstName' });
  });

  it.each(blanks)(
    'refuses a date of birth given as %s with "Please enter dateOfBirth"',
    (_label, dateOfBirth) => {
      expect(failures(schema, { ...valid, dateOfBirth })).toEqual({
        dateOfBirth: 'Please enter dateOfBirth',
      });
    },
  );

  it.each([
    ['jane.doe', 'no @'],
    ['jane@example', 'no dot in the domain'],
    ['jane doe@example.com', 'a space inside'],
    ['@example.com', 'nothing before the @'],
    [`${'a'.repeat(243)}@example.com`, '255 characters'],
  ])('refuses the email %j with "Invalid email." (%s)', (email) => {
    expect(failures(schema, { ...valid, email })).toEqual({ email: 'Invalid email.' });
  });

  it('accepts an email of exactly 254 characters', () => {
    const email = `${'a'.repeat(242)}@example.com`;
    expect(schema.parse({ ...valid, email }).email).toBe(email);
  });

  it('trims the spaces around the email, the first name and the date of birth', () => {
    expect(
      schema.parse({ email: ' jane.doe@example.com ', firstName: ' Jane ', dateOfBirth: ' 1980-06-15 ' }),
    ).toEqual(valid);
  });

  it.each([
    ['2025-06-15', TODAY, null, 'today is accepted'],
    ['2025-06-16', TODAY, 'Date of birth cannot be in the future', 'tomorrow is in the future'],
    [
      '2026-01-01',
      '2025-12-31',
      'Date of birth cannot be in the future',
      'New Year’s Day seen from New Year’s Eve',
    ],
    ['2024-02-29', TODAY, null, 'leap day of a leap year is accepted'],
    ['2023-02-29', TODAY, 'Please enter dateOfBirth', 'Feb 29 of a common year is not a date'],
    ['1900-01-01', TODAY, null, 'the first day of 1900 is accepted'],
    ['1899-12-31', TODAY, 'Please enter dateOfBirth', 'a year before 1900'],
    ['2049-12-31', '2051-01-01', null, 'the last day of 2049 is accepted once past'],
    ['2050-01-01', '2051-01-01', 'Please enter dateOfBirth', 'year 2050 is refused even when past'],
    ['2050-01-01', TODAY, 'Please enter dateOfBirth', 'year 2050 is refused as invalid, not as future'],
    ['06/15/1980', TODAY, null, 'the MM/DD/YYYY the spec sends is accepted'],
    ['15/06/1980', TODAY, 'Please enter dateOfBirth', 'day and month swapped'],
    ['06/15/2026', TODAY, 'Date of birth cannot be in the future', 'a future MM/DD/YYYY date'],
    ['1980-6-15', TODAY, 'Please enter dateOfBirth', 'missing leading zero'],
  ])('date of birth %j with today %s gives %j (%s)', (dateOfBirth, today, message, _why) => {
    const expected = message === null ? {} : { dateOfBirth: message };
    expect(failures(otpRequestSchema(today), { ...valid, dateOfBirth })).toEqual(expected);
  });

  it('asks a today function each time, so a schema built yesterday does not refuse a birth today', () => {
    let today = '2025-06-14';
    const followsTheClock = otpRequestSchema(() => today);
    const bornToday = { ...valid, dateOfBirth: '2025-06-15' };
    expect(failures(followsTheClock, bornToday)).toEqual({
      dateOfBirth: 'Date of birth cannot be in the future',
    });
    today = '2025-06-15';
    expect(failures(followsTheClock, bornToday)).toEqual({});
  });

  it('strips unknown fields', () => {
    expect(schema.parse({ ...valid, clientACTId: 'ACT-9999', otp: '123456' })).toEqual(valid);
  });
});

describe('newPasswordSchema', () => {
  it.each([
    ['', 'Please enter password', 'empty'],
    ['a'.repeat(11), 'Password must be at least 12 characters', '11 characters'],
    ['b'.repeat(129), 'Password must be at most 128 characters', '129 characters'],
  ])('refuses %j with "%s" (%s)', (password, message) => {
    const result = newPasswordSchema().safeParse(password);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it.each([12, 128])('accepts a password of %i characters', (length) => {
    const password = 'k'.repeat(length);
    expect(newPasswordSchema().parse(password)).toBe(password);
  });

  it('refuses a password the common-password check rejects', () => {
    const isCommon = (password: string) => password === 'password1234';
    const result = newPasswordSchema(isCommon).safeParse('password1234');
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'This password is too common or easy to guess. Please choose another one.',
    ]);
    expect(newPasswordSchema(isCommon).parse('a quiet heron at dusk')).toBe('a quiet heron at dusk');
  });

  it('keeps a password exactly as typed, spaces included', () => {
    expect(newPasswordSchema().parse('  twelve chars  ')).toBe('  twelve chars  ');
  });

  it('takes its length limits from the policy: 12 to 128', () => {
    expect(authPolicy.minPasswordLength).toBe(12);
    expect(authPolicy.maxPasswordLength).toBe(128);
  });
});

describe('updatePasswordRequestSchema', () => {
  const valid = {
    email: 'jane.doe@example.com',
    firstName: 'Jane',
    dateOfBirth: '1980-06-15',
    OneTimePassword: '042917',
    UpdatedPassword: 'a quiet heron at dusk',
  };

  it('accepts the identity, a 6-digit code and a new password', () => {
    expect(updatePasswordRequestSchema(TODAY).parse(valid)).toEqual(valid);
  });

  it('applies the common-password check it is given to the new password', () => {
    const isCommon = (password: string) => password === valid.UpdatedPassword;
    expect(failures(updatePasswordRequestSchema(TODAY, isCommon), valid)).toEqual({
      UpdatedPassword: 'This password is too common or easy to guess. Please choose another one.',
    });
  });
});

describe('passwordResetFormSchema', () => {
  const valid = {
    email: 'jane.doe@example.com',
    firstName: 'Jane',
    dateOfBirth: '1980-06-15',
    OneTimePassword: '042917',
    UpdatedPassword: 'a quiet heron at dusk',
    ConfirmPassword: 'a quiet heron at dusk',
  };
  const schema = passwordResetFormSchema(TODAY);

  it('accepts a complete reset form', () => {
    expect(schema.parse(valid)).toEqual(valid);
  });

  it.each(blanks)(
    'refuses a one time password given as %s with "Please enter One Time Password"',
    (_label, OneTimePassword) => {
      expect(failures(schema, { ...valid, OneTimePassword })).toEqual({
        OneTimePassword: 'Please enter One Time Password',
      });
    },
  );

  it.each([
    ['12345', 'five digits'],
    ['1234567', 'seven digits'],
    ['abcdef', 'letters'],
    ['123 456', 'a space inside'],
    ['12-345', 'a dash'],
  ])(
    'refuses the one time password %j with "The one time password is the 6-digit code from the email" (%s)',
    (OneTimePassword) => {
      expect(failures(schema, { ...valid, OneTimePassword })).toEqual({
        OneTimePassword: 'The one time password is the 6-digit code from the email',
      });
    },
  );

  it('trims the spaces around a pasted one time password', () => {
    expect(schema.parse({ ...valid, OneTimePassword: ' 042917 ' }).OneTimePassword).toBe('042917');
  });

  it.each([
    ['an empty string', ''],
    ['null', null],
    ['nothing', undefined],
  ])('refuses both passwords given as %s with "Please enter password" on each', (_label, password) => {
    expect(failures(schema, { ...valid, UpdatedPassword: password, ConfirmPassword: password })).toEqual({
      UpdatedPassword: 'Please enter password',
      ConfirmPassword: 'Please enter password',
    });
  });

  it('asks for the new password when only the confirmation was typed, and says they differ', () => {
    expect(failures(schema, { ...valid, UpdatedPassword: '' })).toEqual({
      UpdatedPassword: 'Please enter password',
      ConfirmPassword: "Password doesn't match.",
    });
  });

  it.each([
    ['an empty string', ''],
    ['null', null],
    ['nothing', undefined],
  ])('refuses a confirmation given as %s with "Please enter password"', (_label, ConfirmPassword) => {
    expect(failures(schema, { ...valid, ConfirmPassword })).toEqual({
      ConfirmPassword: 'Please enter password',
    });
  });

  it.each([
    ['a'.repeat(11), 'Password must be at least 12 characters', '11 characters'],
    ['b'.repeat(129), 'Password must be at most 128 characters', '129 characters'],
  ])('refuses the new password %j with "%s" (%s)', (password, message) => {
    expect(failures(schema, { ...valid, UpdatedPassword: password, ConfirmPassword: password })).toEqual({
      UpdatedPassword: message,
    });
  });

  it.each([12, 128])('accepts a new password of %i characters', (length) => {
    const password = 'k'.repeat(length);
    expect(failures(schema, { ...valid, UpdatedPassword: password, ConfirmPassword: password })).toEqual({});
  });

  it.each([
    ['a quiet heron at dusk!', 'one character more'],
    ['a quiet heron at dus', 'one character less'],
    ['A quiet heron at dusk', 'a different case'],
    ['a quiet heron at dusk ', 'a trailing space'],
  ])(`refuses a confirmation %j with "Password doesn't match." (%s)`, (ConfirmPassword) => {
    expect(failures(schema, { ...valid, ConfirmPassword })).toEqual({
      ConfirmPassword: "Password doesn't match.",
    });
  });

  it('says the passwords do not match even while another field is still missing', () => {
    expect(
      failures(schema, { ...valid, OneTimePassword: '', ConfirmPassword: 'something else entirely' }),
    ).toEqual({
      OneTimePassword: 'Please enter One Time Password',
      ConfirmPassword: "Password doesn't match.",
    });
  });

  it('checks the identity fields too', () => {
    expect(failures(schema, { ...valid, email: '', firstName: '', dateOfBirth: '2025-06-16' })).toEqual({
      email: 'Please enter email',
      firstName: 'Please enter firstName',
      dateOfBirth: 'Date of birth cannot be in the future',
    });
  });

  it('strips unknown fields', () => {
    expect(schema.parse({ ...valid, ClientId: 'ACT-9999' })).toEqual(valid);
  });
});

describe('authMessages', () => {
  it.each([
    ['clientIdRequired', 'Please enter Client ID'],
    ['passwordRequired', 'Please enter password'],
    ['loginFailed', 'Client ID or Password not matched, Please try again.'],
    ['emailRequired', 'Please enter email'],
    ['invalidEmail', 'Invalid email.'],
    ['firstNameRequired', 'Please enter firstName'],
    ['dateOfBirthRequired', 'Please enter dateOfBirth'],
    ['otpRequired', 'Please enter One Time Password'],
    ['newPasswordRequired', 'Please enter password'],
    ['confirmPasswordRequired', 'Please enter password'],
    ['passwordMismatch', "Password doesn't match."],
  ] as Array<[keyof typeof authMessages, string]>)('%s reads %j, as the spec words it', (key, text) => {
    expect(authMessages[key]).toBe(text);
  });
});
