import { z } from 'zod';
import { authMessages, authPolicy } from './auth-policy';
import { EMAIL_PATTERN } from './client-basics';
import { calendarDateToIso, dateOfBirthProblem, resolveToday, type Today } from './dates';
import { singleLine } from './text';

// The messages and constants live in auth-policy (no zod), so the web app's frame can load them alone.
export { authMessages, authPolicy };

export const loginRequestSchema = z.object({
  username: singleLine(
    z.string({ error: authMessages.clientIdRequired }).trim().min(1, authMessages.clientIdRequired).max(64),
  ),
  password: z
    .string({ error: authMessages.passwordRequired })
    .min(1, authMessages.passwordRequired)
    .max(1024),
});

export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  result: z.object({
    login: z.literal(true),
    message: z.string(),
    id: z.string(),
    clientACTId: z.string(),
    clientLastName: z.string(),
  }),
});

export const physicianLoginRequestSchema = z.object({
  username: singleLine(
    z
      .string({ error: authMessages.physicianIdRequired })
      .trim()
      .min(1, authMessages.physicianIdRequired)
      .max(64)
      .describe('The Physician ID, e.g. PHY20001'),
  ),
  password: z
    .string({ error: authMessages.passwordRequired })
    .min(1, authMessages.passwordRequired)
    .max(1024),
});

export type PhysicianLoginRequest = z.infer<typeof physicianLoginRequestSchema>;

export const physicianLoginResponseSchema = z.object({
  result: z.object({
    login: z.literal(true),
    message: z.string(),
    id: z.string(),
    physicianACTId: z.string(),
    physicianLastName: z.string(),
  }),
});

const signedInSchema = z.object({
  signedIn: z.literal(true),
  role: z.literal('client'),
  id: z.string(),
  clientACTId: z.string(),
  clientLastName: z.string(),
  idleTimeoutMs: z.number().int(),
});

/** The client a physician acts for in this session. */
export const actingForSchema = z.object({ id: z.string(), clientACTId: z.string(), name: z.string() });

const physicianSignedInSchema = z.object({
  signedIn: z.literal(true),
  role: z.literal('physician'),
  id: z.string(),
  physicianACTId: z.string(),
  physicianLastName: z.string(),
  actingFor: actingForSchema.nullable(),
  idleTimeoutMs: z.number().int(),
});

/** Who is signed in on this browser; a visitor without a session is an answer, not an error. */
export const sessionResponseSchema = z.discriminatedUnion('signedIn', [
  z.discriminatedUnion('role', [signedInSchema, physicianSignedInSchema]),
  z.object({ signedIn: z.literal(false) }),
]);

/** A signed-in client's session. */
export type SessionInfo = z.infer<typeof signedInSchema>;
/** A signed-in physician's session. */
export type PhysicianSessionInfo = z.infer<typeof physicianSignedInSchema>;
export type ActingFor = z.infer<typeof actingForSchema>;

/** The e-mail of record as typed on a recovery form. */
function emailField() {
  return singleLine(
    z
      .string({ error: authMessages.emailRequired })
      .trim()
      .min(1, authMessages.emailRequired)
      .max(254, authMessages.invalidEmail)
      .regex(EMAIL_PATTERN, authMessages.invalidEmail),
  );
}

/** Recovery's last step: the six-digit code sent, and the new password. */
function codeAndNewPassword(isCommon?: (password: string) => boolean) {
  return {
    OneTimePassword: z
      .string({ error: authMessages.otpRequired })
      .trim()
      .min(1, authMessages.otpRequired)
      .regex(/^\d{6}$/, authMessages.otpFormat),
    UpdatedPassword: newPasswordSchema(isCommon),
  };
}

/** The identification step of password recovery; `today` (YYYY-MM-DD) bounds the birth date. */
export function otpRequestSchema(today: Today) {
  return z.object({
    email: emailField(),
    firstName: singleLine(
      z
        .string({ error: authMessages.firstNameRequired })
        .trim()
        .min(1, authMessages.firstNameRequired)
        .max(80),
    ),
    dateOfBirth: z
      .string({ error: authMessages.dateOfBirthRequired })
      .trim()
      .min(1, authMessages.dateOfBirthRequired)
      // The spec's calls send MM/DD/YYYY; the portal's own pages send YYYY-MM-DD. Both become ISO.
      .transform((value, ctx) => {
        const iso = calendarDateToIso(value);
        const problem = iso ? dateOfBirthProblem(iso, resolveToday(today)) : 'invalid';
        if (problem === 'invalid')
          ctx.addIssue({ code: 'custom', message: authMessages.dateOfBirthRequired });
        if (problem === 'future') ctx.addIssue({ code: 'custom', message: authMessages.dateOfBirthFuture });
        return problem || !iso ? z.NEVER : iso;
      })
      .describe('MM/DD/YYYY (or YYYY-MM-DD)'),
  });
}

export type OtpRequest = z.infer<ReturnType<typeof otpRequestSchema>>;

export const otpResponseSchema = z.object({
  otpSent: z
    .literal(true)
    .describe('The code itself is never in a response; it goes to the address of record'),
  message: z.string(),
});

/** A new password: long enough and not a common one. `isCommon` is the server's or web's list check. */
export function newPasswordSchema(isCommon: (password: string) => boolean = () => false) {
  return z
    .string({ error: authMessages.newPasswordRequired })
    .min(1, authMessages.newPasswordRequired)
    .min(authPolicy.minPasswordLength, authMessages.passwordTooShort)
    .max(authPolicy.maxPasswordLength, authMessages.passwordTooLong)
    .refine((password) => !isCommon(password), authMessages.passwordTooCommon);
}

export function updatePasswordRequestSchema(today: Today, isCommon?: (password: string) => boolean) {
  return otpRequestSchema(today).extend({
    ...codeAndNewPassword(isCommon),
  });
}

export type UpdatePasswordRequest = z.infer<ReturnType<typeof updatePasswordRequestSchema>>;

/** A physician's recovery, step 1: the Physician ID and the e-mail of record. */
export const physicianOtpRequestSchema = z.object({
  physicianId: singleLine(
    z
      .string({ error: authMessages.physicianIdRequired })
      .trim()
      .min(1, authMessages.physicianIdRequired)
      .max(64),
  ),
  email: emailField(),
});

export type PhysicianOtpRequest = z.infer<typeof physicianOtpRequestSchema>;

/** A physician's recovery, step 2: the same details, the code and the new password. */
export function updatePhysicianPasswordRequestSchema(isCommon?: (password: string) => boolean) {
  return physicianOtpRequestSchema.extend({
    ...codeAndNewPassword(isCommon),
  });
}

export type UpdatePhysicianPasswordRequest = z.infer<ReturnType<typeof updatePhysicianPasswordRequestSchema>>;

/** A reset form's confirmation of the new password, which must match it. */
const confirmation = {
  ConfirmPassword: z
    .string({ error: authMessages.confirmPasswordRequired })
    .min(1, authMessages.confirmPasswordRequired),
};
const confirmationMatches = (form: { UpdatedPassword: string; ConfirmPassword: string }) =>
  form.UpdatedPassword === form.ConfirmPassword;
const mismatch = { message: authMessages.passwordMismatch, path: ['ConfirmPassword'] };

/** The physician's reset form as the web holds it: the request plus the confirmation that must match. */
export function physicianPasswordResetFormSchema() {
  return updatePhysicianPasswordRequestSchema().extend(confirmation).refine(confirmationMatches, mismatch);
}

/** The reset form as the web holds it: the request plus the confirmation that must match. */
export function passwordResetFormSchema(today: Today) {
  return updatePasswordRequestSchema(today).extend(confirmation).refine(confirmationMatches, mismatch);
}

export const messageResponseSchema = z.object({ message: z.string() });
