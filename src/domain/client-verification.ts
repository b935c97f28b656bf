import { z } from 'zod';
import { authMessages } from './auth';
import { EMAIL_PATTERN } from './client';
import { dateOfBirthProblem, resolveToday, type Today, usDateToIso } from './dates';
import { storageChargesSchema } from './payments';
import { singleLine } from './text';

/** Messages of the client confirmation on the public payment pages (spec 1 and 3, section 5). */
export const verificationMessages = {
  clientIdRequired: 'Please enter Client Id',
  lastNameRequired: 'Please enter client last name',
  firstNameRequired: 'Please enter client first name',
  emailRequired: 'Please enter client email',
  emailInvalid: 'Please enter valid client email',
  dobRequired: 'Please enter client Dob',
  dobInvalid: 'Invalid date',
  dobFuture: authMessages.dateOfBirthFuture,
  failedInline: 'Please enter valid Client ID or last name',
  failed: 'Please enter valid client ID and last name. Contact ACT directly in case of any queries.',
  linkFailed: 'This link has expired or is not valid. Please identify the client below.',
  // Beside linkFailed and resultGone (issue 24): how to get a new link.
  newLinkHelp: 'Links we send last 7 days. For a new one, ask the bank:',
  resultGone:
    'This confirmation has expired or is not valid. Your payment, if you made one, was e-mailed to the address we have on file.',
  emailed: 'A confirmation has been e-mailed to the address we have on file.',
  confirmed: 'Client Details Successfully Confirmed',
  tooMany: authMessages.tooManyAttempts,
  chooseOption: 'Please choose how to identify the client',
  confirmFirst: 'Please confirm client details',
  agree: 'Please Check',
  chooseMethod: 'Please Select Check',
  saved: 'Payment Information is Updated Successfully',
} as const;

const v = verificationMessages;

/**
 * The spec's calls send one of two bodies without saying which: ClientId + ClientLastname, or
 * ClientFirstName + Clientlastname + ClientEmail + ClientDob; a payment link sends `t`. The mode is
 * read from the fields present when the body does not name it (the portal's pages name it).
 */
function withMode(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'mode' in body) return body;
  const has = (field: string) => field in body;
  const mode = has('t')
    ? 'link'
    : has('ClientId')
      ? 'id'
      : ['ClientFirstName', 'Clientlastname', 'ClientEmail', 'ClientDob'].some(has)
        ? 'contact'
        : has('ClientLastname')
          ? 'id'
          : undefined;
  return mode ? { ...body, mode } : body;
}

export function clientVerificationSchema(today: Today) {
  return z.preprocess(withMode, clientVerificationBodySchema(today));
}

function clientVerificationBodySchema(today: Today) {
  return z.discriminatedUnion('mode', [
    z.object({
      mode: z.literal('id'),
      ClientId: singleLine(z.string({ error: v.clientIdRequired }).trim().min(1, v.clientIdRequired).max(64)),
      ClientLastname: singleLine(
        z.string({ error: v.lastNameRequired }).trim().min(1, v.lastNameRequired).max(80),
      ),
    }),
    z.object({
      mode: z.literal('contact'),
      ClientFirstName: singleLine(
        z.string({ error: v.firstNameRequired }).trim().min(1, v.firstNameRequired).max(80),
      ),
      Clientlastname: singleLine(
        z.string({ error: v.lastNameRequired }).trim().min(1, v.lastNameRequired).max(80),
      ),
      ClientEmail: z
        .string({ error: v.emailRequired })
        .trim()
        .min(1, v.emailRequired)
        .max(254, v.emailInvalid)
        .regex(EMAIL_PATTERN, v.emailInvalid),
      ClientDob: z
        .string({ error: v.dobRequired })
        .trim()
        .min(1, v.dobRequired)
        .superRefine((value, ctx) => {
          const iso = usDateToIso(value);
          const problem = iso ? dateOfBirthProblem(iso, resolveToday(today)) : 'invalid';
          if (problem === 'invalid') ctx.addIssue({ code: 'custom', message: v.dobInvalid });
          if (problem === 'future') ctx.addIssue({ code: 'custom', message: v.dobFuture });
        })
        .describe('MM/DD/YYYY'),
    }),
    z.object({ mode: z.literal('link'), t: z.string().min(1).max(512) }),
  ]);
}

export type ClientVerificationRequest = z.infer<ReturnType<typeof clientVerificationBodySchema>>;

/**
 * What saving a method will charge the confirmed client: their own bill, shown before they pay,
 * as every hosted invoice page shows it to whoever holds the link.
 */
export const amountDueSchema = z.object({
  overdueYears: z
    .array(
      z.object({
        dueDate: z.string().describe('YYYY-MM-DD'),
        amountCents: z.number().int().describe('By bank account'),
        cardAmountCents: z
          .number()
          .int()
          .describe('By card: the amount its notice fixed (an older year: before the card fee)'),
      }),
    )
    .describe('The unpaid annual storage years, oldest first'),
  overdueCents: z.number().int().describe('Their total by bank account'),
  charges: storageChargesSchema.describe(
    'What saving a card or a bank account charges: each year at the amount its notice fixed for the method, an older year with the card fee in force',
  ),
});

export type AmountDue = z.infer<typeof amountDueSchema>;

export const clientVerificationResponseSchema = z.object({
  verified: z.literal(true),
  message: z.string(),
  verification: z
    .string()
    .describe('Lets this page save a payment method for the confirmed client for 15 minutes'),
  amountDue: amountDueSchema,
  ClientId: z
    .string()
    .optional()
    .describe(
      'Confirmed by a signed link only: the Client ID it names (the link carries it), so its page says whom it pays for',
    ),
});

export type ClientVerificationResponse = z.infer<typeof clientVerificationResponseSchema>;
