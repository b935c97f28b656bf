import { z } from 'zod';
import { EMAIL_PATTERN, tooLong } from './client';
import { RELEASE_TO_INDIVIDUAL, TISSUE_DELIVER_OPTIONS, type TissueDeliver } from './consent-agreement';
import { DOB_YEAR_LIMIT, dateOfBirthProblem, resolveToday, type Today, usDateToIso } from './dates';
import { acceptingSpecCardFieldNames, everyFieldAtOnce, formPaymentFields } from './form-payment';
import { formatUsd } from './money';
import { paymentInfoSchema } from './payment-info';
import type { PriceBook } from './price-book';
import { ACCEPT_SIGNATURE_LABEL, ACCEPT_SIGNATURE_MESSAGE } from './signature';
import { freeText, singleLine } from './text';
import { parseUsPhone, usContactMessages } from './us-contact';
import { postalCodeField, usAddressIssues, usPhoneField } from './us-contact-fields';

/**
 * The client consent form (spec 2, sections 2 to 5): page 1 answers (Addendum A, medications),
 * page 2 choices (tissue type, payment method, agreement, signature). The same rules check the
 * page in the browser and the submission on the server. Two variants: the client signs in the
 * Client Portal, or a physician submits it for a client signing in the clinic, with the client's
 * personal details.
 */

export type ConsentVariant = 'client' | 'physician';

export const SAMPLE_TYPES = ['Adipose', 'Bone-Marrow'] as const;
export type SampleType = (typeof SAMPLE_TYPES)[number];

export const MEDICATIONS_QUESTION =
  'Are you currently taking any statins, NSAIDs (such as ibuprofen or aspirin), acetaminophen or steroids?';

export const consentMessages = {
  selectOne: 'Please Select One',
  empty: 'Cannot be empty',
  phoneNumeric: 'Please insert only number',
  invalidDate: 'Invalid date',
  agree: 'Please Check',
  /** Names the pad's own button (the spec's "check button" is on no form). */
  signature: ACCEPT_SIGNATURE_MESSAGE,
  acceptSignature: ACCEPT_SIGNATURE_LABEL,
  signatureAccepted: 'Signature accepted successfully.',
  alreadyCompleted: 'You have already completed this form. Thank you.',
  initialProcessingFirst: 'Please complete Initial Processing payment to proceed with consent form.',
  submitted:
    'Please check your email for order confirmation. We are now getting the portal services ready for you!',
  consentSaved:
    'Your consent is signed and saved. The signed agreement is below, and a copy is on its way to you by e-mail.',
  agreementChanged: 'The agreement was updated while you were reading it. Please read it again and sign.',
  cardFirstName: 'Please enter first name',
  cardLastName: 'Please enter last name',
  annualFeeNeedsCardOnFile:
    'The annual storage fee is charged each year to a payment method on file, and you have none. Please tick “Save this card on file for future payments”, or choose Check.',
  annualFeeNeedsAccountOnFile:
    'The annual storage fee is charged each year to a payment method on file, and you have none. Please tick “Save this account on file for future payments”, or choose Check.',
} as const;

const c = consentMessages;

/** The methods on file, as the client reads them ("Visa ending in 1111"), or null. */
export interface AnnualFeeMethodsOnFile {
  card: string | null;
  ach: string | null;
}

/**
 * Which method pays the annual storage fee the consent commits to (issue 12). A saved method, a
 * check, or a new method kept on file pays it. A new card or account used without keeping it
 * leaves the fee to a method already on file (the same kind first), and the form says which; with
 * none on file the consent is refused, since nothing could pay the fee. Page and server alike.
 */
export function annualFeeMethod(
  choice: { kind: 'card' | 'ach'; isNew: boolean; keep: boolean },
  onFile: AnnualFeeMethodsOnFile,
): { note: string } | { problem: string } | null {
  if (!choice.isNew || choice.keep) return null;
  const other = choice.kind === 'card' ? (onFile.card ?? onFile.ach) : (onFile.ach ?? onFile.card);
  if (other) {
    const used = choice.kind === 'card' ? 'This card' : 'This account';
    return {
      note: `${used} is not kept on file: the annual storage fee will be charged to your ${other} on file.`,
    };
  }
  return {
    problem: choice.kind === 'card' ? c.annualFeeNeedsCardOnFile : c.annualFeeNeedsAccountOnFile,
  };
}

/** The physician variant's own messages (spec 2, section 5; DESIGN.md section 8, item 10). */
export const physicianConsentMessages = {
  phoneNumeric: 'Invalid PhoneNumber',
  FirstName: 'Please enter first name',
  LastName: 'Please enter last name',
  Email: 'Please enter email address',
  invalidEmail: 'Invalid email.',
  PhoneNumber: 'Please enter phone number',
  Address: 'Please enter address',
  City: 'Please enter City',
  State: 'Please enter State',
  zipcode: 'Please enter zipcode',
  Country: 'Please enter Country',
  dobFuture: 'Date of birth cannot be in the future',
  submitted: 'Please check your email for order confirmation',
  /** Said after the spec's sentence, which speaks of an order where nothing was ordered. */
  consentSaved:
    "The client's consent is signed and saved. The signed agreement is below, and a copy is on its way to the client by e-mail.",
} as const;

const p = physicianConsentMessages;

/** The card messages of the consent page where they differ from the payment page (spec 2, section 5). */
export const consentCardEmptyMessages = {
  Credit_Card_Holder_First_Name: c.cardFirstName,
  Credit_Card_Holder_Last_Name: c.cardLastName,
  Month_of_Expiry: c.empty,
  Year_of_Expiry: c.empty,
  CVV: c.empty,
} as const;

/** The agreement line and the commitment of page 2, from the price book. */
export function annualStorageCommitment(book: PriceBook) {
  return {
    dueToday: formatUsd(0),
    laterFee: formatUsd(book.annualMaintenanceFee),
    laterFeeCardOrCheck: formatUsd(book.annualFeeCardOrCheck),
  };
}

/** A drawn signature: a PNG data URL of at most 200 KB (a 500 x 100 canvas is far smaller). */
export const SIGNATURE_MAX_CHARS = 200_000;
const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

export function signatureSchema(message: string) {
  return z
    .string({ error: message })
    .min(1, message)
    .max(SIGNATURE_MAX_CHARS, 'The signature is too large. Please clear it and sign again.')
    .regex(PNG_DATA_URL, message);
}

/** An Addendum date of birth: MM/DD/YYYY, a real date, year before 2050. */
export function addendumDobProblem(value: string | undefined): string | null {
  if (!value?.trim()) return c.empty;
  const iso = usDateToIso(value);
  if (!iso || Number(iso.slice(0, 4)) >= DOB_YEAR_LIMIT) return c.invalidDate;
  return null;
}

export const consentPageOneFields = {
  Medications: z.enum(['Yes', 'No'], { error: c.selectOne }),
  Medications_taking: freeText(z.string().trim().max(1000, 'Must be at most 1000 characters')).optional(),
  Tissue_deliver: z.enum(TISSUE_DELIVER_OPTIONS, { error: c.selectOne }),
  Addendum_name: singleLine(z.string().trim().max(100)).optional(),
  Addendum_dob: singleLine(z.string().trim().max(10)).optional(),
  Addendum_address: singleLine(z.string().trim().max(200)).optional(),
  // Checked by consentPageOneProblems (required only when releasing to an individual); kept as digits when valid.
  Addendum_phone: singleLine(z.string().trim().max(40, usContactMessages.phoneLength))
    .transform((value) => {
      const parsed = parseUsPhone(value);
      return 'digits' in parsed ? parsed.digits : value;
    })
    .optional(),
  Relationship: singleLine(z.string().trim().max(60)).optional(),
};

export type ConsentPageOne = {
  Medications?: string;
  Medications_taking?: string;
  Tissue_deliver?: string;
  Addendum_name?: string;
  Addendum_dob?: string;
  Addendum_address?: string;
  Addendum_phone?: string;
  Relationship?: string;
};

/** Why page 1 cannot be left yet, by field (Next Page and the final submit both check it). */
export function consentPageOneProblems(
  answers: ConsentPageOne,
  variant: ConsentVariant = 'client',
): Record<string, string> {
  // Read defensively: the server runs this on bodies whose other fields may have failed their types.
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const problems: Record<string, string> = {};
  if (answers.Medications !== 'Yes' && answers.Medications !== 'No') problems.Medications = c.selectOne;
  if (answers.Medications === 'Yes' && !text(answers.Medications_taking)) {
    problems.Medications_taking = c.empty;
  }
  if (!TISSUE_DELIVER_OPTIONS.includes(answers.Tissue_deliver as TissueDeliver)) {
    problems.Tissue_deliver = c.selectOne;
  }
  if (answers.Tissue_deliver === RELEASE_TO_INDIVIDUAL) {
    if (!text(answers.Addendum_name)) problems.Addendum_name = c.empty;
    const dob = addendumDobProblem(text(answers.Addendum_dob));
    if (dob) problems.Addendum_dob = dob;
    if (!text(answers.Addendum_address)) problems.Addendum_address = c.empty;
    const phone = text(answers.Addendum_phone);
    if (!phone) problems.Addendum_phone = c.empty;
    else {
      const parsed = parseUsPhone(phone);
      if ('problem' in parsed) {
        const numeric = variant === 'physician' ? p.phoneNumeric : c.phoneNumeric;
        problems.Addendum_phone = parsed.problem === 'notNumeric' ? numeric : usContactMessages.phoneLength;
      }
    }
    if (!text(answers.Relationship)) problems.Relationship = c.empty;
  }
  return problems;
}

/** The order fields appear in on page 1, for focusing the first one that fails. */
export const consentPageOneOrder = Object.keys(consentPageOneFields);

/** Page 2's own fields, the same in both variants. */
const consentSigningFields = {
  sample_type: z.enum(SAMPLE_TYPES, { error: c.selectOne }),
  ...formPaymentFields,
  agree: z.literal(true, { error: c.agree }),
  Signature: signatureSchema(c.signature),
  agreementVersion: z
    .string()
    .max(40)
    .describe('The version of the agreement text the page showed; a different one is refused (409)'),
};

/**
 * send_ConsentData: the answers, the choices, the confirmed signature and, for a new card or
 * account, a gateway token with its display data. Identity comes from the session; a
 * ClientSFRecordId sent must be the caller's own client.
 */
export const sendConsentDataRequestSchema = acceptingSpecCardFieldNames(
  z
    .object({
      ...consentPageOneFields,
      ...consentSigningFields,
      ClientSFRecordId: z.string().max(64).optional().describe("Must be the caller's own client"),
      PhysicianFirstName: z.string().max(80).optional().describe('Ignored: read from the record'),
      PhysicianLastName: z.string().max(80).optional().describe('Ignored: read from the record'),
    })
    .superRefine((body, ctx) => {
      for (const [path, message] of Object.entries(consentPageOneProblems(body))) {
        ctx.addIssue({ code: 'custom', path: [path], message });
      }
    }, everyFieldAtOnce),
);

export type SendConsentDataRequest = z.infer<typeof sendConsentDataRequestSchema>;

function required(message: string, max: number) {
  return singleLine(z.string({ error: message }).trim().min(1, message).max(max, tooLong(max)));
}

/** A calendar date typed as MM/DD/YYYY: "Cannot be empty", "Invalid date" (not real, or 2050 on). */
function usDate(problem?: (iso: string) => string | null) {
  return singleLine(z.string({ error: c.empty }).trim().min(1, c.empty).max(10, c.invalidDate)).superRefine(
    (value, ctx) => {
      const iso = usDateToIso(value);
      const message =
        !iso || Number(iso.slice(0, 4)) >= DOB_YEAR_LIMIT ? c.invalidDate : (problem?.(iso) ?? null);
      if (message) ctx.addIssue({ code: 'custom', message });
    },
  );
}

/**
 * The client's personal details the physician variant edits (spec 2, "Client information"),
 * prefilled from the client's record and saved to it on submit. `today` bounds the birth date.
 */
export function physicianConsentClientFields(today: Today) {
  return {
    FirstName: required(p.FirstName, 80),
    LastName: required(p.LastName, 80),
    Dob: usDate((iso) => {
      const problem = dateOfBirthProblem(iso, resolveToday(today));
      return problem === 'future' ? p.dobFuture : problem === 'invalid' ? c.invalidDate : null;
    }).describe('MM/DD/YYYY, not in the future'),
    Email: singleLine(
      z
        .string({ error: p.Email })
        .trim()
        .min(1, p.Email)
        .max(254, tooLong(254))
        .regex(EMAIL_PATTERN, p.invalidEmail),
    ),
    PhoneNumber: usPhoneField({ required: p.PhoneNumber, numeric: p.phoneNumeric }),
    Address: required(p.Address, 200),
    City: required(p.City, 80),
    State: required(p.State, 80),
    // A ZIP code in the United States, free text elsewhere (usAddressIssues on the whole form).
    zipcode: postalCodeField(p.zipcode),
    Country: required(p.Country, 80),
    Enrollment_Date: usDate().describe('MM/DD/YYYY: the anniversaries of annual storage count from it'),
  };
}

export type PhysicianConsentClient = {
  [K in keyof ReturnType<typeof physicianConsentClientFields>]: string;
};

/** The client fields in the order page 2 shows them, for focusing the first one that fails. */
export const physicianConsentClientOrder = Object.keys(
  physicianConsentClientFields('2000-01-01'),
) as (keyof PhysicianConsentClient)[];

/**
 * send_PhysicianConsentData: the consent a physician submits for the client they act for, signed
 * by the client in the clinic, with the client's personal details to save on the client's record.
 * The client and the physician come from the session; the physician fields sent are ignored.
 */
export function sendPhysicianConsentDataRequestSchema(today: Today) {
  return acceptingSpecCardFieldNames(
    z
      .object({
        ...consentPageOneFields,
        ...physicianConsentClientFields(today),
        ...consentSigningFields,
        PhysicianId: z.string().max(64).optional().describe('Ignored: the signed-in physician'),
        Id: z.string().max(64).optional().describe('Ignored: the signed-in physician'),
        PhysicianLastName: z.string().max(80).optional().describe('Ignored: read from the record'),
      })
      .superRefine((body, ctx) => {
        usAddressIssues(body, { country: 'Country', zip: 'zipcode' }, ctx);
        for (const [path, message] of Object.entries(consentPageOneProblems(body, 'physician'))) {
          ctx.addIssue({ code: 'custom', path: [path], message });
        }
      }, everyFieldAtOnce),
  );
}

export type SendPhysicianConsentDataRequest = z.infer<
  ReturnType<typeof sendPhysicianConsentDataRequestSchema>
>;

/**
 * get_PhysicianConsent: what the physician's consent page needs of the client they act for: the
 * state of the consent, the client's details to prefill, the physician, and the client's own
 * payment methods (the client pays their annual storage).
 */
export const getPhysicianConsentResponseSchema = z.object({
  initialProcessingFormCompleted: z.boolean(),
  completed: z.boolean(),
  signedAt: z.string().nullable().describe('ISO instant of the signature'),
  documentId: z.string().nullable().describe('The signed agreement PDF'),
  clientACTId: z.string(),
  client: z.object({
    FirstName: z.string(),
    LastName: z.string(),
    Dob: z.string().describe('MM/DD/YYYY'),
    Email: z.string(),
    PhoneNumber: z.string(),
    Address: z.string(),
    City: z.string(),
    State: z.string(),
    zipcode: z.string(),
    Country: z.string(),
    Enrollment_Date: z.string().describe('MM/DD/YYYY; today when the record has none yet'),
  }),
  physician: z.object({ PhysicianId: z.string(), PhysicianLastName: z.string() }),
  pay_info: paymentInfoSchema.describe("The client's card and bank account on file (display data only)"),
});

export type PhysicianConsent = z.infer<typeof getPhysicianConsentResponseSchema>;

export const formSubmissionResponseSchema = z.object({
  success: z.literal(true),
  TransactionId: z.string().describe('The charge, when one was made; otherwise the submission reference'),
  page_name: z.string(),
  message: z.string(),
  documentId: z.string().nullable().describe('The signed PDF, downloadable at documents/{id}'),
});

export type FormSubmissionResponse = z.infer<typeof formSubmissionResponseSchema>;

/** get_FormDocuments: what the Forms page shows of each form and the signed documents to download. */
export const formDocumentsResponseSchema = z.object({
  initialProcessingFormCompleted: z.boolean(),
  consent: z.object({
    completed: z.boolean(),
    signedAt: z.string().nullable().describe('ISO instant of the signature'),
    documentId: z.string().nullable().describe('The signed agreement PDF'),
  }),
  infectiousDisease: z.object({
    completed: z.boolean(),
    submissionOption: z.string().nullable(),
    submittedAt: z.string().nullable(),
    documentId: z.string().nullable().describe('The signed form PDF'),
    labReportId: z.string().nullable().describe('The uploaded lab report, for Local Lab Submission'),
    rejection: z
      .object({ reason: z.string(), rejectedAt: z.string() })
      .nullable()
      .describe('The bank rejected the last lab report: why; the form is open again'),
  }),
});

export type FormDocuments = z.infer<typeof formDocumentsResponseSchema>;
