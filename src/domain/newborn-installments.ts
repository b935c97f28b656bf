import { z } from 'zod';
import type { Cents } from './money';
import { type InstallmentStatus, installmentFields } from './newborn-agreement';
import { paymentDisplayFields, paymentTokenSchema, requireDisplayFields } from './payment-info';

/**
 * A signed newborn finance agreement's installments after signing (issue 21): which are overdue,
 * what the Billing page counts, what the main contact's page shows and what an early payoff costs.
 */

/**
 * Overdue: declined with no try left ('unpaid'), unpaid 30 days after its date ('late'), or come
 * due before `day` and never charged (no method on file that day).
 */
export function installmentIsOverdue(row: { status: InstallmentStatus; dueDate: string }, day: string) {
  if (row.status === 'unpaid' || row.status === 'late') return true;
  return row.status === 'due' && row.dueDate < day;
}

/** What an installment still owes in full: its payment and any late charge. */
export const installmentOwedCents = (row: { paymentCents: Cents; lateChargeCents: Cents }) =>
  row.paymentCents + row.lateChargeCents;

/**
 * The early payoff of an agreement on `day`. Spec 3 section 9 says nothing of interest on an early
 * payoff, so (issue 21's decision) it is the remaining scheduled principal without future interest:
 * an installment overdue, or whose date has come, is owed in full (its month's interest and any late
 * charge); one still ahead is owed only its principal.
 */
export function earlyPayoffCents(
  open: readonly {
    status: InstallmentStatus;
    dueDate: string;
    paymentCents: Cents;
    principalCents: Cents;
    lateChargeCents: Cents;
  }[],
  day: string,
): Cents {
  return open.reduce(
    (sum, row) =>
      sum +
      (row.dueDate <= day || installmentIsOverdue(row, day) ? installmentOwedCents(row) : row.principalCents),
    0,
  );
}

/** What the main contact reads of an installment's state. */
export const ACCOUNT_INSTALLMENT_STATES = ['paid', 'due', 'retrying', 'overdue'] as const;
export type AccountInstallmentState = (typeof ACCOUNT_INSTALLMENT_STATES)[number];

export function accountInstallmentState(
  row: { status: InstallmentStatus; dueDate: string },
  day: string,
): AccountInstallmentState {
  if (row.status === 'paid') return 'paid';
  if (installmentIsOverdue(row, day)) return 'overdue';
  return row.status === 'retrying' ? 'retrying' : 'due';
}

export const accountInstallmentStateLabel: Record<AccountInstallmentState, string> = {
  paid: 'Paid',
  due: 'Due',
  retrying: 'Declined, retrying',
  overdue: 'Overdue',
};

export const installmentAccountMessages = {
  methodSaved: 'The payment method for your installments is updated.',
  paidOff: 'Your agreement is paid off. Thank you.',
  overduePaid: 'Your overdue installments are paid. Thank you.',
  nothingOwed: 'Nothing is owed on this agreement now.',
  notSigned: 'This agreement is not signed yet.',
  busy: 'A payment of this agreement is under way. Please wait a moment and reload the page.',
  changed: (total: string) => `The amount is now ${total}. Please check it and pay again.`,
  notPaid: 'The payment did not go through. Nothing was charged.',
  interrupted: 'The payment was interrupted. Please try again.',
  noMethod: 'No payment method is on file. Please add one below first.',
  authorize: 'Please authorize the monthly installments.',
} as const;

/** The authorization given with a new method for the installments. */
export const INSTALLMENT_METHOD_AUTHORIZATION =
  'I authorize the bank to charge each remaining monthly installment on its due date to this payment method.';

const amountsSchema = z.object({
  amountCents: z.number().int(),
  feeCents: z.number().int().describe('The card processing fee, 0 by ACH'),
  totalCents: z.number().int(),
});

/** GET get_Client_Agreement_account: the signed agreement's schedule and what can be paid now. */
export const agreementAccountSchema = z.object({
  mainContact: z.string(),
  day: z.string().describe('The billing day the states are read on'),
  method: z
    .string()
    .nullable()
    .describe('The method the installments are charged to, e.g. "Visa ending 4242"'),
  methodKind: z.enum(['card', 'ach']).nullable(),
  installments: z.array(
    z.object({
      ...installmentFields,
      lateChargeCents: z.number().int(),
      state: z.enum(ACCOUNT_INSTALLMENT_STATES),
      paidOn: z.string().nullable(),
      paidCents: z.number().int().nullable(),
    }),
  ),
  /** Overdue installments with their card fee on the method on file; null when none is overdue. */
  overdue: amountsSchema.nullable(),
  /** The early payoff with its card fee on the method on file; null when nothing is left. */
  payoff: amountsSchema.nullable(),
});
export type AgreementAccount = z.infer<typeof agreementAccountSchema>;

export const agreementLinkQuerySchema = z.object({ id: z.string().max(512).optional() });

/** POST set_Client_Agreement_payment_method: a tokenized card or account for the installments. */
export const setAgreementMethodRequestSchema = z
  .object({
    ClientId: z.string().min(1).max(512),
    Payment_Type: z.enum(['CC', 'ACH'], { error: 'Please select a payment method' }),
    token: paymentTokenSchema,
    ...paymentDisplayFields,
    authorizeCharges: z.literal(true, { error: installmentAccountMessages.authorize }),
  })
  .superRefine(requireDisplayFields);
export type SetAgreementMethodRequest = z.infer<typeof setAgreementMethodRequestSchema>;

export const setAgreementMethodResponseSchema = z.object({ message: z.string(), method: z.string() });

/** POST set_Client_Agreement_payment: pays the overdue installments, or the whole balance early. */
export const agreementPaymentRequestSchema = z.object({
  ClientId: z.string().min(1).max(512),
  pay: z.enum(['overdue', 'payoff']),
  expectedTotalCents: z
    .number()
    .int()
    .min(0)
    .describe('The total the button named; a different server total charges nothing (409)'),
});
export type AgreementPaymentRequest = z.infer<typeof agreementPaymentRequestSchema>;

export const agreementPaymentResponseSchema = z.object({
  message: z.string(),
  amountChargedCents: z.number().int(),
  TransactionId: z.string().nullable(),
  installmentsPaid: z.number().int(),
});
export type AgreementPaymentResponse = z.infer<typeof agreementPaymentResponseSchema>;

const countSchema = z.object({ count: z.number().int(), amountCents: z.number().int() });

/** The Billing page's newborn installments: counts and amounts, and each overdue one. */
export const installmentBillingSchema = z.object({
  dueSoon: countSchema,
  chargedToday: countSchema,
  retrying: countSchema,
  overdue: countSchema,
  overdueList: z.array(
    z.object({
      id: z.string(),
      clientActId: z.string(),
      clientName: z.string(),
      mainContact: z.string(),
      number: z.number().int(),
      of: z.number().int(),
      dueDate: z.string(),
      amountCents: z.number().int().describe('The payment and any late charge, before a card fee'),
      tries: z.number().int(),
      lastDecline: z.string().nullable(),
    }),
  ),
});
export type InstallmentBilling = z.infer<typeof installmentBillingSchema>;

export const INSTALLMENT_LINK_EMAIL_SUBJECT = 'Your newborn finance installment is overdue';
