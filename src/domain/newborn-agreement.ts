import { z } from 'zod';
import { addDays, addMonths, addYears, isoToUsDate } from './dates';
import type { Cents } from './money';
import { formatRate, formatUsd } from './money';
import { paymentDisplayFields, paymentTokenSchema, requireDisplayFields } from './payment-info';
import { CONFIRM_SIGNATURE_LABEL, CONFIRM_SIGNATURE_MESSAGE } from './signature';
import { singleLine } from './text';

/**
 * The newborn finance agreement (spec 3 sections 2, 3 and 9): the plan's figures, the monthly
 * payment by standard amortisation, and the terms the main contact signs.
 */

export const newbornAgreementMessages = {
  invalidClient: 'Client id is not valid',
  // After the spec's sentence, what happened and the next step (issue 24).
  invalidLinkHelp:
    'This link is not one we sent, was changed, or has expired. Links to the agreement last a limited time: ask the bank for a new one and it will be e-mailed to you.',
  completed: 'Newborn Agreement is Updated Successfully',
  // Under the spec's sentence on the done page (issue 24): where the signed copy went.
  emailed:
    'Your signed agreement, with the payment schedule, was e-mailed to the main contact. You can also download a copy here.',
  /** Names the agreement's own button (the spec's "check button" is on no form). */
  signature: CONFIRM_SIGNATURE_MESSAGE,
  confirmSignature: CONFIRM_SIGNATURE_LABEL,
  signatureAccepted: 'Signature accepted successfully.',
  alreadySigned: 'This agreement is already signed.',
  tooMany: 'Too many attempts. Please wait a few minutes and try again.',
  authorize: 'Please authorize the deposit and the monthly installments.',
  chooseMethod: 'Please select a payment method',
  beingSigned: 'This agreement is being signed. Please wait a moment and reload the page.',
  notPaid: 'The deposit did not go through, and the agreement was not signed. Please try again.',
  interrupted: 'The signing was interrupted. Please submit it again.',
} as const;

/** The authorization the main contact gives with the payment method (kept in the signed PDF). */
export const NEWBORN_PAYMENT_AUTHORIZATION =
  'I authorize the bank to charge the deposit today and each monthly installment on its due date to this payment method.';

export const NEWBORN_AGREEMENT_TITLE = 'Newborn Finance Agreement';

/** Staff asked to send a newborn finance agreement for a client who is no newborn. */
export const NEWBORN_AGREEMENT_NOT_NEWBORN =
  'A newborn finance agreement is only for a client born less than a year ago.';

/**
 * A newborn finance agreement finances a newborn's banking (its installments start "after the down
 * payment or birth"): it is offered, and sent, only for a client born less than a year before today.
 */
export function newbornAgreementApplies(dateOfBirth: string, today: string): boolean {
  return dateOfBirth > addYears(today, -1) && dateOfBirth <= today;
}

/** What a plan is made of; amounts in cents, the yearly rate in basis points (600 = 6.00%). */
export interface NewbornAgreementFigures {
  mainContact: string;
  patientId: string;
  annualBankingFeeCents: Cents;
  bioInsuranceFeeCents: Cents;
  downPaymentCents: Cents;
  initialProcessingFeeCents: Cents;
  interestRateBasisPoints: number;
  installments: number;
  totalFinancedCents: Cents;
}

/**
 * The monthly payment of a loan of `principalCents` at a yearly rate over `installments` months:
 * P·r / (1 − (1 + r)^−n) with r the monthly rate (yearly / 12); at 0% the principal over n.
 * Rounded to the cent (half up).
 */
export function monthlyPaymentCents(
  principalCents: Cents,
  interestRateBasisPoints: number,
  installments: number,
): Cents {
  if (!Number.isInteger(installments) || installments < 1)
    throw new RangeError('installments must be a positive integer');
  if (!Number.isInteger(principalCents) || principalCents < 0)
    throw new RangeError('principal must be whole cents, not negative');
  if (!Number.isFinite(interestRateBasisPoints) || interestRateBasisPoints < 0)
    throw new RangeError('rate must not be negative');
  if (principalCents === 0) return 0;
  const r = interestRateBasisPoints / 10_000 / 12;
  if (r === 0) return Math.round(principalCents / installments);
  const payment = (principalCents * r) / (1 - (1 + r) ** -installments);
  // A tiny nudge so that a payment of exactly half a cent, blurred by floating point, rounds up.
  return Math.round(payment + 1e-9);
}

/** Days after its due date an unpaid installment takes its late charge. */
export const INSTALLMENT_LATE_AFTER_DAYS = 30;
/** Days before its due date the reminder of an installment goes. */
export const INSTALLMENT_REMINDER_DAYS_AHEAD = 3;

/** One row of the schedule: what is charged on its date, and what is left owing after it. */
export interface Installment {
  number: number;
  /** `YYYY-MM-DD` */
  dueDate: string;
  paymentCents: Cents;
  interestCents: Cents;
  principalCents: Cents;
  /** What is still owed once this payment is made. */
  balanceCents: Cents;
}

/**
 * The installments of an agreement whose deposit is paid on `depositOn`: the first one month
 * after it, then monthly on the same day (the month's last day when it is shorter: a deposit on
 * 31 January falls due on 28 or 29 February, then on 31 March). Each payment is the agreement's
 * monthly payment: a month's interest on the balance (rounded half up to the cent), the rest
 * repays principal; the last payment is what is left owing plus its interest, so the balance ends
 * at exactly zero whatever the rounding.
 */
export function installmentSchedule(
  figures: Pick<NewbornAgreementFigures, 'totalFinancedCents' | 'interestRateBasisPoints' | 'installments'>,
  depositOn: string,
): Installment[] {
  const { totalFinancedCents: principal, interestRateBasisPoints: rate, installments: n } = figures;
  const payment = monthlyPaymentCents(principal, rate, n);
  const rows: Installment[] = [];
  let balance = principal;
  for (let number = 1; number <= n; number++) {
    // Half up on whole numbers: balance · rate / (10,000 · 12), without floating point.
    const interestCents = Math.floor((2 * balance * rate + 120_000) / 240_000);
    const principalCents = number === n ? balance : Math.min(balance, payment - interestCents);
    balance -= principalCents;
    rows.push({
      number,
      dueDate: addMonths(depositOn, number),
      paymentCents: principalCents + interestCents,
      interestCents,
      principalCents,
      balanceCents: balance,
    });
  }
  return rows;
}

/** The day an installment's reminder goes: three days before it falls due. */
export function installmentReminderDay(dueDate: string): string {
  return addDays(dueDate, -INSTALLMENT_REMINDER_DAYS_AHEAD);
}

/** The day an installment still unpaid takes its late charge: 30 days after it fell due. */
export function installmentLateDay(dueDate: string): string {
  return addDays(dueDate, INSTALLMENT_LATE_AFTER_DAYS);
}

/**
 * The day a payment of an installment is dated: the billing day, and for one carrying its late
 * charge no earlier than the day the charge applied. Outside demo mode the billing day is today;
 * while a demo "Run billing as of…" crosses several days it lags where the run is, and the run may
 * have added the late charge from a later day.
 */
export function installmentPaidOn(
  installment: { dueDate: string; lateChargeCents: number },
  day: string,
): string {
  const lateDay = installmentLateDay(installment.dueDate);
  return installment.lateChargeCents > 0 && lateDay > day ? lateDay : day;
}

/**
 * The late charge an installment carries on `day`: the agreement's (`lateChargeCents`, $50 as
 * shipped) once it is unpaid 30 days after its due date, and never more than once; nothing while it
 * is paid or not yet that late.
 */
export function installmentLateCharge(
  installment: { dueDate: string; paid: boolean },
  day: string,
  lateChargeCents: Cents,
): Cents {
  if (installment.paid) return 0;
  return day >= installmentLateDay(installment.dueDate) ? lateChargeCents : 0;
}

/** The schedule as the page, the PDF and the staff record show it: MM/DD/YYYY and dollars. */
export function installmentScheduleRows(schedule: readonly Installment[]) {
  return schedule.map((row) => ({
    number: String(row.number),
    date: isoToUsDate(row.dueDate),
    payment: formatUsd(row.paymentCents),
    interest: formatUsd(row.interestCents),
    principal: formatUsd(row.principalCents),
    balance: formatUsd(row.balanceCents),
  }));
}

/**
 * The terms of spec 3 section 9, as the page shows them and the PDF prints them: the deposit is the
 * agreement's own down payment (the spec's $250 is the usual one), the card fee the price book's
 * rate as read ("3%") and the late charge the price book's, both of the version in force at signing.
 */
export function newbornAgreementTerms(
  figures: Pick<NewbornAgreementFigures, 'downPaymentCents'>,
  book: { cardFeePercent: string; lateChargeCents: Cents },
): string[] {
  return [
    `An initial non-refundable deposit of ${formatUsd(figures.downPaymentCents)} is due at signup.`,
    'Monthly installments are charged automatically, starting within one month after the down payment or the birth.',
    `A late charge of ${formatUsd(book.lateChargeCents)} applies to each monthly payment that is ${INSTALLMENT_LATE_AFTER_DAYS} days or more late.`,
    'If the account is not made current within 60 days of notice, interest at the legal rate applies to the balance.',
    'You may cancel this agreement on ten (10) days notice.',
    'Only 1 year of annual storage is included in the initial processing fee.',
    `Payments made by credit card add a ${book.cardFeePercent} card processing fee.`,
  ];
}

/** The figures as labelled rows, for the page and the signed PDF alike. */
export function newbornAgreementRows(figures: NewbornAgreementFigures): { label: string; value: string }[] {
  return [
    { label: 'Main contact', value: figures.mainContact },
    { label: 'Patient ID', value: figures.patientId },
    { label: 'Annual banking fee', value: formatUsd(figures.annualBankingFeeCents) },
    { label: 'Bio-Insurance fee', value: formatUsd(figures.bioInsuranceFeeCents) },
    { label: 'Down payment', value: formatUsd(figures.downPaymentCents) },
    { label: 'Initial processing fee', value: formatUsd(figures.initialProcessingFeeCents) },
    { label: 'Interest rate', value: formatRate(figures.interestRateBasisPoints) },
    { label: 'Number of installments', value: String(figures.installments) },
    { label: 'Total amount financed', value: formatUsd(figures.totalFinancedCents) },
    {
      label: 'Monthly payment',
      value: formatUsd(
        monthlyPaymentCents(
          figures.totalFinancedCents,
          figures.interestRateBasisPoints,
          figures.installments,
        ),
      ),
    },
  ];
}

const dollars = z.number().describe('US dollars');

/** GET get_Client_Agreement_service: the agreement under the spec's (legacy) field names. */
export const clientAgreementResponseSchema = z.object({
  Id: z.string().describe('The link token the page was opened with'),
  Name: z.string().describe('Main contact'),
  Patient_ID__c: z.string(),
  Annual_Banking_Fee_Amount__c: dollars,
  Bio_Insurance_Fee_Amount__c: dollars,
  Down_Payment__c: dollars,
  Initial_Processing_Fee_Amount__c: dollars,
  Interest_Rate__c: z.number().describe('Yearly rate in percent'),
  Number_Of_Installments__c: z.number().int(),
  Total_Amount_Financing__c: dollars,
  Total_Monthly_Payment_Amount__c: dollars,
  NB_Finance_Agreement_Completed__c: z.boolean(),
  depositReceipt: z
    .boolean()
    .describe('Signed and its deposit charged: get_Client_Agreement_receipt gives the receipt'),
});
export type ClientAgreementResponse = z.infer<typeof clientAgreementResponseSchema>;

export const clientAgreementQuerySchema = z.object({
  id: z.string().max(512).optional(),
});

const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * POST set_Client_Agreement_service: the link token, the confirmed signature, the flag, and the
 * card or bank account for the deposit and the installments: a gateway token and the fields a
 * person reads back (the numbers went to the gateway's tokenizer in the browser), with the
 * authorization to charge it.
 */
export const setClientAgreementRequestSchema = z
  .object({
    ClientId: z
      .string({ error: newbornAgreementMessages.invalidClient })
      .min(1, newbornAgreementMessages.invalidClient)
      .max(512, newbornAgreementMessages.invalidClient),
    signatureData: z
      .string({ error: newbornAgreementMessages.signature })
      .min(1, newbornAgreementMessages.signature)
      .max(200_000, 'The signature is too large. Please clear it and sign again.')
      .regex(PNG_DATA_URL, newbornAgreementMessages.signature),
    NBAgreementCompleted: z.literal(true, { error: newbornAgreementMessages.signature }),
    Payment_Type: z.enum(['CC', 'ACH'], { error: newbornAgreementMessages.chooseMethod }),
    token: paymentTokenSchema,
    ...paymentDisplayFields,
    authorizeCharges: z
      .literal(true, { error: newbornAgreementMessages.authorize })
      .describe(NEWBORN_PAYMENT_AUTHORIZATION),
    expectedTotalCents: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'The deposit the button named; when it differs from the server total nothing is charged (409)',
      ),
  })
  .superRefine(requireDisplayFields);
export type SetClientAgreementRequest = z.infer<typeof setClientAgreementRequestSchema>;

export const setClientAgreementResponseSchema = z.object({
  NB_Finance_Agreement_Completed__c: z.literal(true),
  message: z.string(),
  amountChargedCents: z.number().int().describe('The deposit charged at signing, with its card fee'),
  TransactionId: z.string().nullable(),
});
export type SetClientAgreementResponse = z.infer<typeof setClientAgreementResponseSchema>;

/** Cents as the legacy dollar number. */
export function centsToDollars(cents: Cents): number {
  return cents / 100;
}

export const agreementFigureMessages = {
  mainContact: 'Please enter main contact',
  patientId: 'Please enter patient ID',
  amount: 'Please enter an amount in cents, not negative',
  rate: 'Please enter the interest rate in basis points (600 = 6.00%)',
  installments: 'Please enter the number of installments (1 to 120)',
} as const;

const fm = agreementFigureMessages;
const centsField = z
  .number({ error: fm.amount })
  .int(fm.amount)
  .min(0, fm.amount)
  .max(100_000_000, fm.amount);

/** The figures staff send an agreement with (amounts in cents, the rate in basis points). */
export const newbornAgreementFiguresSchema = z.object({
  mainContact: singleLine(z.string({ error: fm.mainContact }).trim().min(1, fm.mainContact).max(120)),
  patientId: singleLine(z.string({ error: fm.patientId }).trim().min(1, fm.patientId).max(64)),
  annualBankingFeeCents: centsField,
  bioInsuranceFeeCents: centsField,
  downPaymentCents: centsField,
  initialProcessingFeeCents: centsField,
  interestRateBasisPoints: z.number({ error: fm.rate }).int(fm.rate).min(0, fm.rate).max(5_000, fm.rate),
  installments: z
    .number({ error: fm.installments })
    .int(fm.installments)
    .min(1, fm.installments)
    .max(120, fm.installments),
  totalFinancedCents: centsField,
});

/** What a billing day did to the newborn installments (in the billing run's answer). */
export const installmentRunCountsSchema = z.object({
  reminders: z.number().int(),
  charges: z.number().int(),
  declines: z.number().int(),
  lateCharges: z.number().int(),
});
export type InstallmentRunCounts = z.infer<typeof installmentRunCountsSchema>;

export const INSTALLMENT_STATUSES = ['due', 'retrying', 'unpaid', 'late', 'paid'] as const;
export type InstallmentStatus = (typeof INSTALLMENT_STATUSES)[number];

/** An installment's status as staff read it. */
export function installmentStatusLabel(status: InstallmentStatus): string {
  return {
    due: 'Due',
    retrying: 'Declined, retrying',
    unpaid: 'Declined, unpaid',
    late: 'Late',
    paid: 'Paid',
  }[status];
}

/** The client's newborn finance agreements with their schedules, for the staff client record. */
/** An installment as every schedule shows it: its number, its day and what it charges. */
export const installmentFields = {
  number: z.number().int(),
  dueDate: z.string(),
  paymentCents: z.number().int(),
};

export const clientNewbornAgreementsSchema = z.object({
  agreements: z.array(
    z.object({
      id: z.string(),
      mainContact: z.string(),
      signedAt: z.string().nullable(),
      totalFinancedCents: z.number().int(),
      depositTotalCents: z.number().int().nullable(),
      paymentKind: z.enum(['card', 'ach']).nullable(),
      installments: z.array(
        z.object({
          ...installmentFields,
          interestCents: z.number().int(),
          principalCents: z.number().int(),
          balanceCents: z.number().int(),
          status: z.enum(INSTALLMENT_STATUSES),
          tries: z.number().int(),
          nextTryOn: z.string().nullable(),
          lateChargeCents: z.number().int(),
          paidOn: z.string().nullable(),
          paidTotalCents: z.number().int().nullable(),
        }),
      ),
    }),
  ),
});
export type ClientNewbornAgreements = z.infer<typeof clientNewbornAgreementsSchema>;
