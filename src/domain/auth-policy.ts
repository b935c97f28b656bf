/* The sign-in messages and session constants, without zod: auth.ts re-exports them. */

export const authMessages = {
  clientIdRequired: 'Please enter Client ID',
  passwordRequired: 'Please enter password',
  loginFailed: 'Client ID or Password not matched, Please try again.',
  physicianIdRequired: 'Please enter Physician ID',
  physicianLoginFailed: 'Physician ID or Password not matched, Please try again.',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  emailRequired: 'Please enter email',
  invalidEmail: 'Invalid email.',
  firstNameRequired: 'Please enter firstName',
  dateOfBirthRequired: 'Please enter dateOfBirth',
  dateOfBirthFuture: 'Date of birth cannot be in the future',
  otpRequired: 'Please enter One Time Password',
  otpFormat: 'The one time password is the 6-digit code from the email',
  newPasswordRequired: 'Please enter password',
  confirmPasswordRequired: 'Please enter password',
  passwordMismatch: "Password doesn't match.",
  passwordTooShort: 'Password must be at least 12 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  passwordTooCommon: 'This password is too common or easy to guess. Please choose another one.',
  otpSent:
    'If the details match our records, a one time password has been sent to your email address. It is valid for 10 minutes.',
  otpInvalid: 'The one time password is invalid or has expired. Please request a new one.',
  passwordUpdated: 'Your password has been updated. Please sign in with your new password.',
  sessionExpired: 'Your session has ended. Please sign in again.',
} as const;

/** Session and recovery constants (spec 1 section 9, DESIGN.md section 3). */
export const authPolicy = {
  idleTimeoutMs: 300_000,
  idleDebounceMs: 250,
  absoluteSessionMs: 12 * 60 * 60 * 1000,
  lockoutFailures: 10,
  lockoutMs: 15 * 60 * 1000,
  otpValidityMs: 10 * 60 * 1000,
  otpMaxTries: 5,
  otpPerHourPerAccount: 3,
  /** A recovery code goes only to an e-mail address the client has had at least this long. */
  recoveryAddressMinAgeMs: 24 * 60 * 60 * 1000,
  minPasswordLength: 12,
  maxPasswordLength: 128,
} as const;

/**
 * When the idle warning shows and how often activity tells the server: a minute before the
 * sign-out (halfway, for an idle time under two minutes), and four times per idle period at
 * most once a minute, so that the server's idle clock never ends a session before the page does.
 */
export function idleSchedule(idleMs: number) {
  const warnBeforeMs = Math.min(60_000, Math.floor(idleMs / 2));
  return {
    warnAfterMs: idleMs - warnBeforeMs,
    warnBeforeMs,
    keepAliveEveryMs: Math.min(60_000, Math.floor(idleMs / 4)),
  };
}

/** "5 minutes", "15 minutes", "20 seconds": an idle time as people say it. */
export function idleTimeText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds % 60 === 0) {
    const minutes = seconds / 60;
    return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  }
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/** Staff session constants (DESIGN.md section 3). */
export const staffPolicy = {
  idleTimeoutMs: 15 * 60 * 1000,
  /** How long the half session between the password and the second factor lasts. */
  halfSessionMs: 10 * 60 * 1000,
  recoveryCodeCount: 10,
  totpIssuer: 'Stem Cell Bank Back Office',
} as const;
