import { z } from 'zod';
import { EMAIL_PATTERN } from './client';
import { calendarDateToIso, DOB_YEAR_LIMIT, parseIsoDate, resolveToday, type Today } from './dates';
import { acceptingSpecCardFieldNames, everyFieldAtOnce, formPaymentFields } from './form-payment';
import { type Cents, formatUsd } from './money';
import { cardFeePercent, cardProcessingFee } from './payments';
import type { PriceBook } from './price-book';
import { singleLine } from './text';
import { postalCodeField, usAddressIssues, usPhoneField } from './us-contact-fields';

/**
 * The physician's initial sample processing (spec 2, "Physician initial sample processing" and
 * section 5 "Physician sample form"): a new client is registered with the bank, with their first
 * sample, and the up-front banking fee is paid by the physician's card or by a check in the
 * shipment. The same rules check the page and the submission; the amounts are the price book's.
 */

export const SAMPLE_TISSUES = ['Adipose', 'Bone_marrow'] as const;
export type SampleTissue = (typeof SAMPLE_TISSUES)[number];

export const tissueLabels: Record<SampleTissue, string> = {
  Adipose: 'Adipose',
  Bone_marrow: 'Bone marrow',
};

/** The legacy source tag of the charge, in the payment ledger. */
export const INITIAL_PROCESSING_SOURCE = 'Physician Portal Initial Processing';

export const initialProcessingMessages = {
  firstName: 'Please enter first name',
  lastName: 'Please enter last name',
  email: 'Please enter email address',
  invalidEmail: 'Invalid email.',
  phone: 'Please enter phone number',
  phoneNumeric: 'Invalid PhoneNumber',
  address: 'Please enter address',
  zipcode: 'Please enter zipcode',
  city: 'Please enter City',
  state: 'Please enter State',
  country: 'Please enter Country',
  tissue: 'Please select sample type',
  payment: 'Please select payment',
  dateEmpty: 'Field cannot be empty',
  invalidDate: 'Invalid date',
  dobFuture: 'Date of birth cannot be in the future',
  shipDatePast: 'The ship date cannot be before today',
  billingName: 'Please enter Billing Name',
  cardEmpty: 'Cannot be empty',
  confirm: 'Are you sure you want to submit this new sample form?',
  submitted: 'Please check your email for order confirmation',
  alreadyRegistered: (clientActId: string) =>
    `This client is already registered with you as Client ID ${clientActId}. Their sample form was received; please contact us to send another sample.`,
  inProgress:
    "This client's sample form is being submitted already. Please wait a moment and look for them in My Clients.",
  registeredElsewhere:
    'A client with this email address and date of birth is already registered with the bank. Please contact us to send a sample for them.',
  interrupted:
    'This sample form was interrupted before it was completed, and nothing was charged or kept. Please submit it again.',
} as const;

const m = initialProcessingMessages;

/** The card messages of this form where they differ from the payment page (spec 2, section 5). */
export const sampleCardEmptyMessages = {
  Credit_Card_Holder_First_Name: m.firstName,
  Credit_Card_Holder_Last_Name: m.lastName,
  Month_of_Expiry: m.cardEmpty,
  Year_of_Expiry: m.cardEmpty,
  CVV: m.cardEmpty,
} as const;

/** What the physician pays for a new sample, in cents: the up-front fee and, by card, the card fee on top. */
export interface InitialProcessingQuote {
  fee: Cents;
  processingFee: Cents;
  total: Cents;
  /** The card fee's rate as people read it ("3%"), from the book the quote was made with. */
  processingFeeRate?: string;
}

export function initialProcessingQuote(
  book: PriceBook,
  tissue: SampleTissue,
  paidBy: 'card' | 'check',
): InitialProcessingQuote {
  const fee = tissue === 'Adipose' ? book.upFrontBankingFee.adipose : book.upFrontBankingFee.boneMarrow;
  const processingFee = cardProcessingFee(book, fee, paidBy);
  return { fee, processingFee, total: fee + processingFee, processingFeeRate: cardFeePercent(book) };
}

/** The quote as a line people read: "$2,500.00 + 3% processing fee $75.00 = $2,575.00". */
export function quoteSummary(quote: InitialProcessingQuote): string {
  if (quote.processingFee === 0) return `${formatUsd(quote.fee)} (no processing fee for a check)`;
  return `${formatUsd(quote.fee)} + ${quote.processingFeeRate ?? 'card'} processing fee ${formatUsd(quote.processingFee)} = ${formatUsd(quote.total)}`;
}

/** How long a new client's welcome link stays valid. */
export const WELCOME_LINK_DAYS = 7;

/** Page 1: the instructions, in our own words, from the constants of spec 2 section 9. */
export function initialProcessingInstructions(book: PriceBook): { heading: string; paragraphs: string[] }[] {
  return [
    {
      heading: 'Banking adipose tissue',
      paragraphs: [
        `Collect at least 60 grams of adipose tissue in total. Divide it between two tubes of 10 mL of transport solution, with no less than 30 grams in each tube. The up-front banking fee for adipose tissue is ${formatUsd(book.upFrontBankingFee.adipose)}.`,
      ],
    },
    {
      heading: 'Banking bone marrow',
      paragraphs: [
        `Fill the two tubes of 10 mL of transport solution as for adipose tissue, close them firmly and label each with the client's name and date of birth. The up-front banking fee for bone marrow is ${formatUsd(book.upFrontBankingFee.boneMarrow)}.`,
      ],
    },
    {
      heading: 'Shipping',
      paragraphs: [
        'Ship the sample by priority overnight service for delivery by 10:30 AM the next morning. A sample sent on a Friday, or over a weekend, needs the Saturday delivery option so that it does not wait in transit.',
        'Let us know at least 3 days before you ship, so that the laboratory is ready to receive the sample.',
      ],
    },
    {
      heading: 'Payment',
      paragraphs: [
        `Pay the up-front banking fee by credit card when you submit this form (a ${cardFeePercent(book)} card processing fee is added), or put a check for the fee in the shipment (no processing fee). The first year of storage is included.`,
        'The card on file in your Physician Portal is offered first; you can use another card and keep it on file for future payments.',
      ],
    },
    {
      heading: 'Reminders',
      paragraphs: [
        "The client's infectious disease screening must be done within 14 days before or after the day the sample is collected.",
        'The script is due no later than 14 days after sample receipt.',
        'After you submit this form, the client receives an e-mail with their new Client ID and a link to set their password. They then sign the consent agreement in the Client Portal.',
      ],
    },
  ];
}

const textField = (message: string, max: number) =>
  singleLine(
    z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`),
  );

const emailField = (message: string) =>
  singleLine(
    z
      .string({ error: message })
      .trim()
      .min(1, message)
      .max(254, m.invalidEmail)
      .regex(EMAIL_PATTERN, m.invalidEmail),
  );

/** A date the page sends (MM/DD/YYYY or YYYY-MM-DD) as ISO; refused when not a real date before 2050. */
function dateField(check: (iso: string, today: string) => string | null, today: Today) {
  return z
    .string({ error: m.dateEmpty })
    .trim()
    .min(1, m.dateEmpty)
    .transform((value, ctx) => {
      const iso = calendarDateToIso(value);
      const parts = iso ? parseIsoDate(iso) : null;
      if (!iso || !parts || parts.year >= DOB_YEAR_LIMIT || parts.year < 1900) {
        ctx.addIssue({ code: 'custom', message: m.invalidDate });
        return z.NEVER;
      }
      const problem = check(iso, resolveToday(today));
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return iso;
    })
    .describe('MM/DD/YYYY (or YYYY-MM-DD)');
}

const {
  PaymentMethod: _method,
  Payment_Type: _type,
  update_ach: _updateAch,
  save_ach: _saveAch,
  Name_On_Account: _nameOnAccount,
  ABA_Routing_Number: _routing,
  ...cardPaymentFields
} = formPaymentFields;

/**
 * send_ProcessData: the new client, the sample and how the physician pays. Identity comes from
 * the physician's session; amounts sent are ignored (the server computes them), except a shown
 * total (`expectedTotalCents`) that differs from the server's, which is refused before charging.
 */
export function sendProcessDataRequestSchema(today: Today) {
  return acceptingSpecCardFieldNames(
    z
      .object({
        FirstName: textField(m.firstName, 80),
        LastName: textField(m.lastName, 80),
        Dob: dateField((iso, now) => (iso > now ? m.dobFuture : null), today),
        Ship_date: dateField((iso, now) => (iso < now ? m.shipDatePast : null), today),
        Email: emailField(m.email),
        PhoneNumber: usPhoneField({ required: m.phone, numeric: m.phoneNumeric }),
        Address: textField(m.address, 200),
        City: textField(m.city, 80),
        State: textField(m.state, 80),
        // A ZIP code in the United States, free text elsewhere (usAddressIssues below).
        zipcode: postalCodeField(m.zipcode),
        Country: textField(m.country, 80),
        Tissue: z.enum(SAMPLE_TISSUES, { error: m.tissue }),
        CreditCard: z
          .boolean({ error: m.payment })
          .describe('true: by card now; false: a check in the shipment'),
        BillingName: singleLine(z.string().trim().max(120, 'Must be at most 120 characters')).optional(),
        BillingEmail: singleLine(z.string().trim().max(254, m.invalidEmail)).optional(),
        ...cardPaymentFields,
        Amount: z.number().optional().describe('Ignored: the server computes the amount from its price book'),
        expectedTotalCents: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe(
            'The total the page showed; when it differs from the server total nothing is charged (409)',
          ),
        PhysicianId: z.string().max(64).optional().describe("Ignored: the physician is the session's"),
        Id: z.string().max(64).optional().describe('Ignored'),
        PhysicianLastName: z.string().max(80).optional().describe('Ignored'),
      })
      .superRefine((body, ctx) => {
        usAddressIssues(body, { country: 'Country', zip: 'zipcode' }, ctx);
        if (body.CreditCard !== false) return;
        // Read defensively: with everyFieldAtOnce this runs on bodies whose fields failed their types.
        const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
        const name = text(body.BillingName);
        const email = text(body.BillingEmail);
        if (!name) ctx.addIssue({ code: 'custom', path: ['BillingName'], message: m.billingName });
        if (!email) ctx.addIssue({ code: 'custom', path: ['BillingEmail'], message: m.email });
        else if (!EMAIL_PATTERN.test(email))
          ctx.addIssue({ code: 'custom', path: ['BillingEmail'], message: m.invalidEmail });
      }, everyFieldAtOnce),
  );
}

export type SendProcessDataRequest = z.infer<ReturnType<typeof sendProcessDataRequestSchema>>;

export const sendProcessDataResponseSchema = z.object({
  success: z.literal(true),
  TransactionId: z.string().describe('The charge by card; for a check, the sample submission reference'),
  message: z.string(),
  ClientId: z.string().describe('The new Client ID, e.g. ACT10006'),
  clientRecordId: z.string(),
  paymentKind: z.enum(['card', 'check']),
  amountCharged: z.number().describe('Dollars charged now, fee included; 0 for a check'),
  processingFee: z.number().describe('Dollars of card processing fee within amountCharged'),
  amountDue: z.number().describe('Dollars of the check to put in the shipment; 0 when paid by card'),
  cardLast4: z.string().nullable(),
});

export type SendProcessDataResponse = z.infer<typeof sendProcessDataResponseSchema>;

/** The welcome link of a new client: who they are, before they set a password. */
export const welcomeLinkMessages = {
  unusable:
    'This link has expired or was already used. You can set a new password with Forgot Your Password on the sign-in page.',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  passwordSet: 'Your password is set. Welcome to the Client Portal!',
} as const;

export const welcomeTokenSchema = singleLine(z.string().trim().min(20).max(200));

export const getWelcomeLinkQuerySchema = z.object({ token: welcomeTokenSchema });

export const getWelcomeLinkResponseSchema = z.object({
  clientACTId: z.string(),
  firstName: z.string(),
  expiresAt: z.string().describe('ISO instant'),
});

export function setWelcomePasswordRequestSchema(password: z.ZodType<string>) {
  return z.object({ token: welcomeTokenSchema, password });
}
