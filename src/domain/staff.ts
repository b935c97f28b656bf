import { z } from 'zod';
import { EMAIL_PATTERN } from './client-basics';
import { calendarDateToIso, parseIsoDate } from './dates';
import { formatUsd } from './money';
import { singleLine } from './text';

/** The back office's words (the spec shows no staff role: DESIGN.md section 3 names them). */
export const staffMessages = {
  emailRequired: 'Please enter email',
  invalidEmail: 'Invalid email.',
  passwordRequired: 'Please enter password',
  loginFailed: 'Email or Password not matched, Please try again.',
  codeRequired: 'Please enter the 6-digit code',
  codeFormat: 'The code is the 6 digits your authenticator app shows',
  codeInvalid: 'The code is not valid. Please enter the current code from your authenticator app.',
  recoveryCodeRequired: 'Please enter a recovery code',
  recoveryCodeInvalid: 'The recovery code is not valid or has already been used.',
  nameRequired: 'Please enter name',
  emailTaken: 'A staff account with this email already exists.',
  staffDisabled: 'The staff account is disabled and its sessions have ended.',
  queryRequired: 'Please enter a Client ID, name, email or date of birth',
  samePassword: 'Please choose a password other than the initial one.',
} as const;

// Without zod, for the back office's frame (src/web/app/staff-layout.tsx), which loads no schema.
export { staffPolicy } from './auth-policy';

export const staffLevelSchema = z.enum(['staff', 'admin']);
export type StaffLevel = z.infer<typeof staffLevelSchema>;

const emailField = singleLine(
  z
    .string({ error: staffMessages.emailRequired })
    .trim()
    .min(1, staffMessages.emailRequired)
    .max(254, staffMessages.invalidEmail)
    .regex(EMAIL_PATTERN, staffMessages.invalidEmail),
);

export const staffLoginRequestSchema = z.object({
  email: emailField,
  password: z
    .string({ error: staffMessages.passwordRequired })
    .min(1, staffMessages.passwordRequired)
    .max(1024),
});
export type StaffLoginRequest = z.infer<typeof staffLoginRequestSchema>;

/** After the password: the second factor to give, or the enrolment to do first. */
export const staffNextStepSchema = z
  .enum(['password', 'totp', 'enrol'])
  .describe('password: a member created by an admin sets their own password first, then enrols');
export type StaffNextStep = z.infer<typeof staffNextStepSchema>;

export const staffLoginResponseSchema = z.object({
  next: staffNextStepSchema,
});

/** First sign-in of a member an admin created: their own password, by the client password rules. */
export function changeInitialPasswordRequestSchema(password: z.ZodType<string>) {
  return z.object({ password });
}

export const totpCodeRequestSchema = z.object({
  code: singleLine(
    z
      .string({ error: staffMessages.codeRequired })
      .trim()
      .min(1, staffMessages.codeRequired)
      .regex(/^\d{6}$/, staffMessages.codeFormat),
  ),
});

export const recoveryCodeRequestSchema = z.object({
  code: singleLine(
    z
      .string({ error: staffMessages.recoveryCodeRequired })
      .trim()
      .min(1, staffMessages.recoveryCodeRequired)
      .max(32, staffMessages.recoveryCodeInvalid),
  ),
});

/** The secret offered at enrolment: as a QR code (SVG) and as text to type. */
export const enrolmentResponseSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qrSvg: z.string(),
});

export const enrolTotpResponseSchema = z.object({
  recoveryCodes: z.array(z.string()).describe('Shown once: only their hashes are kept'),
});

export const staffMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  level: staffLevelSchema,
  enrolled: z.boolean(),
  disabledAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffSessionResponseSchema = z.discriminatedUnion('stage', [
  z.object({
    stage: z.literal('signed-in'),
    staff: staffMemberSchema,
    idleTimeoutMs: z.number().int(),
  }),
  z.object({ stage: z.literal('second-factor'), next: staffNextStepSchema }),
]);
export type StaffSessionInfo = z.infer<typeof staffSessionResponseSchema>;

export const createStaffRequestSchema = z.object({
  email: emailField,
  name: singleLine(
    z.string({ error: staffMessages.nameRequired }).trim().min(1, staffMessages.nameRequired).max(120),
  ),
  level: staffLevelSchema,
});
export type CreateStaffRequest = z.infer<typeof createStaffRequestSchema>;

export const createStaffResponseSchema = z.object({
  staff: staffMemberSchema,
  initialPassword: z
    .string()
    .describe('Shown to the admin once, to hand to the new member; only its hash is kept'),
});

export const disableStaffRequestSchema = z.object({ id: z.uuid() });

export const staffListResponseSchema = z.object({ staff: z.array(staffMemberSchema) });

export const clientSearchQuerySchema = z.object({
  q: singleLine(
    z.string({ error: staffMessages.queryRequired }).trim().min(1, staffMessages.queryRequired).max(120),
  ),
});

export const clientSummarySchema = z.object({
  id: z.string(),
  clientACTId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  dateOfBirth: z.string().describe('YYYY-MM-DD'),
});
export type ClientSummary = z.infer<typeof clientSummarySchema>;

export const clientSearchResponseSchema = z.object({ clients: z.array(clientSummarySchema) });

export const staffClientQuerySchema = z.object({ id: singleLine(z.string().trim().min(1).max(64)) });

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  actorRole: z
    .enum(['client', 'physician', 'staff', 'public'])
    .describe('public: someone on a public page (a signed link, the payment pages), with no account'),
  actor: z.string().describe("Client ID, Physician ID, staff e-mail, or 'public page'"),
  clientACTId: z.string().nullable(),
  action: z.string(),
  route: z.string(),
  documentId: z.string().nullable(),
  amountCents: z
    .number()
    .int()
    .nullable()
    .describe('The money the change moved (a payment settled, a refund, a check recorded), in cents'),
  ip: z.string(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditQuerySchema = z.object({ clientId: singleLine(z.string().trim().min(1).max(64)) });

/** The years an audit search may name: none of the trail is older, and later ones are typing slips. */
const AUDIT_FIRST_YEAR = 2000;
const AUDIT_LAST_YEAR = 2100;

/** A day of an audit search, typed MM/DD/YYYY like every date of the back office (or YYYY-MM-DD), as YYYY-MM-DD. */
const isoDay = z
  .string()
  .trim()
  .regex(/^(\d{2}\/\d{2}\/\d{4}|\d{4}-\d{2}-\d{2})$/, 'Please enter a date as MM/DD/YYYY')
  .transform((typed, ctx) => {
    const iso = calendarDateToIso(typed);
    const year = iso ? (parseIsoDate(iso)?.year ?? 0) : 0;
    if (!iso) ctx.addIssue({ code: 'custom', message: 'Please enter a valid date' });
    else if (year < AUDIT_FIRST_YEAR || year > AUDIT_LAST_YEAR)
      ctx.addIssue({
        code: 'custom',
        message: `Please enter a date from 01/01/${AUDIT_FIRST_YEAR} to 12/31/${AUDIT_LAST_YEAR}`,
      });
    else return iso;
    return z.NEVER;
  });

/** Admins' search of the whole trail: any text, or each filter (all given must match). */
export const auditSearchQuerySchema = z.object({
  q: singleLine(z.string().trim().max(120)).optional(),
  clientId: singleLine(z.string().trim().max(64)).optional(),
  actor: singleLine(z.string().trim().max(254)).optional(),
  action: singleLine(z.string().trim().max(64)).optional(),
  from: isoDay.optional().describe('First day (UTC), MM/DD/YYYY (or YYYY-MM-DD)'),
  to: isoDay.optional().describe('Last day (UTC), MM/DD/YYYY (or YYYY-MM-DD)'),
});
export type AuditSearchQuery = z.infer<typeof auditSearchQuerySchema>;

export const auditResponseSchema = z.object({ events: z.array(auditEventSchema) });

/** What the audit trail records: one word per kind of read or change. */
export const auditActions = {
  'read-client': "Read the client's record",
  'change-client': "Changed the client's record",
  'read-payment': 'Read payment display data',
  'change-payment': 'Changed payment data',
  'read-document': 'Downloaded a document',
  'read-activity': "Read the client's activity",
  'read-order': "Read the client's orders",
  'change-order': 'Placed or approved an order',
  'search-clients': 'Searched clients',
  'read-audit': 'Read the audit trail',
  'change-staff': 'Changed a staff account',
  'read-queue': 'Read a work queue',
  'record-check': 'Recorded a check',
  'receive-sample': 'Recorded a sample received',
  'review-lab-report': 'Reviewed a lab report',
  'change-vial-request': 'Changed a vial request',
  'settle-payment': 'Settled a payment in doubt',
  'record-plan-check': 'Recorded the check of a plan order',
  'record-storage-check': 'Recorded the check of a storage year',
  'change-store-order': 'Changed a store order',
  'send-payment-link': 'Sent a payment link',
  'billing-run': 'Ran billing as of a date (demo)',
  'change-billing-year': 'Waived or deferred a storage year',
  'change-calendar': 'Changed the shipping calendar',
  'change-prices': 'Changed the price book',
  'send-agreement-link': 'Sent a newborn finance agreement link',
  'read-form-draft': "Read a form's unsent answers",
  'change-form-draft': "Saved or discarded a form's unsent answers",
} as const;
export type AuditAction = keyof typeof auditActions;

/** Where one action covers several changes, the route names which one it was. */
const auditRouteWords: Record<string, string> = {
  'POST /api/staff/refunds': 'Asked for a refund',
  'POST /api/staff/refunds/:id/approve': 'Approved a refund',
  'POST /api/staff/refunds/:id/decline': 'Declined a refund',
};

/**
 * An audit row as staff read it: the change in words, with the money it moved
 * ("Settled a payment in doubt: $515.00"), never the raw action and route.
 */
export function auditLine(event: Pick<AuditEvent, 'action' | 'route' | 'amountCents'>): string {
  const words =
    auditRouteWords[event.route] ??
    (event.action in auditActions ? auditActions[event.action as AuditAction] : event.action);
  return event.amountCents === null ? words : `${words}: ${formatUsd(event.amountCents)}`;
}

/** Payment links staff send a client (DESIGN.md section 3 names the back office's words). */
export const paymentLinkMessages = {
  channelRequired: 'Please choose e-mail or text message',
  noPhone: 'The client has no phone number on file.',
  tooMany: 'Too many payment links were sent to this client. Please try again later.',
  smsFailed: 'The text message could not be sent. Please try again later.',
  sentEmail: 'The payment link was sent by e-mail.',
  sentSms: 'The payment link was sent by text message.',
  emailSubject: 'Update your payment information',
} as const;

/** At most this many payment links per client per hour, whoever sends them. */
export const PAYMENT_LINKS_PER_CLIENT_PER_HOUR = 5;

export const sendPaymentLinkRequestSchema = z.object({
  clientId: singleLine(z.string().trim().min(1).max(64)),
  channel: z.enum(['email', 'sms'], { error: paymentLinkMessages.channelRequired }),
});
export type SendPaymentLinkRequest = z.infer<typeof sendPaymentLinkRequestSchema>;

/** Where the link went, masked (the link itself is never answered, logged or audited). */
export const sendPaymentLinkResponseSchema = z.object({
  channel: z.enum(['email', 'sms']),
  sentTo: z.string(),
  expiresAt: z.string(),
});
export type SendPaymentLinkResponse = z.infer<typeof sendPaymentLinkResponseSchema>;
