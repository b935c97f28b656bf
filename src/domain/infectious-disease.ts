import { z } from 'zod';
import { actingForSchema } from './auth';
import { EMAIL_PATTERN } from './client';
import { verificationMessages } from './client-verification';
import { consentMessages, formSubmissionResponseSchema, signatureSchema } from './consent-form';
import { dateOfBirthProblem, resolveToday, type Today, usDateToIso } from './dates';
import { documentMessages } from './documents';
import { requireEach } from './errors';
import {
  acceptingSpecCardFieldNames,
  everyFieldAtOnce,
  type FormPaymentMethod,
  formPaymentFields,
} from './form-payment';
import { type Cents, formatUsd } from './money';
import { PAYMENT_SOURCES } from './payment-info';
import { cardFeePercent, cardProcessingFee } from './payments';
import type { PriceBook } from './price-book';
import { CONFIRM_SIGNATURE_LABEL, CONFIRM_SIGNATURE_MESSAGE } from './signature';
import { freeText, singleLine } from './text';

/**
 * The infectious disease screening form (spec 2, sections 2 to 5): White Glove Labs (a paid blood
 * draw kit), Local Lab Submission (a PDF lab report) or Waiver Submission (a signed waiver).
 * The texts are written for the bank in our own words.
 */

export const SUBMISSION_OPTIONS = ['White Glove Labs', 'Local Lab Submission', 'Waiver Submission'] as const;
export type SubmissionOption = (typeof SUBMISSION_OPTIONS)[number];

/** The legacy source tag of this form. */
export const DISEASE_FORM_SOURCE = PAYMENT_SOURCES.infectiousDisease;

export const diseaseMessages = {
  selectOption: 'Please Select',
  agree: consentMessages.agree,
  /** Names the Waiver Submission's own button, not the consent pad's. */
  signature: CONFIRM_SIGNATURE_MESSAGE,
  waiverNotice: 'Please Select.',
  firstName: consentMessages.cardFirstName,
  lastName: consentMessages.cardLastName,
  street: 'Please enter street',
  city: 'Please enter City',
  state: 'Please enter State',
  zip: 'Please enter zipcode',
  country: 'Please enter Country',
  cvvEmpty: 'Please enter CVV',
  cardEmpty: consentMessages.empty,
  alreadyCompleted: 'You have already completed this form. Thank you',
  submitted: 'Please check your email for order confirmation',
  /** Said after the spec's sentence, which speaks of an order where often nothing was ordered. */
  submissionSaved:
    'Your infectious disease screening form is submitted and saved. Your submission is below, and a copy is on its way to you by e-mail.',
  confirmSignature: CONFIRM_SIGNATURE_LABEL,
  termsChanged: 'The terms were updated while you were reading them. Please read them again and submit.',
} as const;

const d = diseaseMessages;

export const diseaseCardEmptyMessages = {
  Credit_Card_Holder_First_Name: d.firstName,
  Credit_Card_Holder_Last_Name: d.lastName,
  Month_of_Expiry: d.cardEmpty,
  Year_of_Expiry: d.cardEmpty,
  CVV: d.cvvEmpty,
} as const;

export const SCREENING_EXPLANATION = [
  'Federal rules for human cells and tissues require infectious disease screening of every client whose tissue is banked. Your blood must be drawn within 14 days before or after the day your sample is extracted. When that is not possible before the extraction, it must be drawn within two weeks after the collection.',
  'You can have the screening done by White Glove Labs, the lab service the bank arranges for you, or by a local lab of your choice that sends you the report. If you decline the screening, you can sign a waiver instead.',
];

/** The comparison of the two screening routes, row by row. */
export function screeningComparison(
  book: PriceBook,
): { feature: string; whiteGlove: string; localLab: string }[] {
  return [
    {
      feature: 'Price',
      whiteGlove: `${formatUsd(book.whiteGloveLabFee)} (card payments add ${cardFeePercent(book)})`,
      localLab: 'Varies by lab',
    },
    {
      feature: 'Blood draw',
      whiteGlove: 'A kit is shipped to the address you give; a mobile phlebotomist can draw at home',
      localLab: 'At the lab of your choice',
    },
    {
      feature: 'Tests',
      whiteGlove: 'The full panel the bank requires',
      localLab: 'You ask the lab for the panel the bank requires',
    },
    {
      feature: 'Report',
      whiteGlove: 'Sent by the lab straight to the bank',
      localLab: 'You upload the PDF report here',
    },
  ];
}

export const WAIVER_TEXT = [
  'I decline the infectious disease screening the bank recommends for banked tissue. I understand that without a current screening my cells may be labelled as not evaluated for infectious substances, that some clinics and physicians may refuse to use them, and that the bank may store them apart from screened tissue.',
  'I release the bank, its staff and its laboratories from any claim that arises from the absence of screening of my tissue.',
];

export const WAIVER_NOTICES = {
  negative: {
    label: 'I have tested negative for, or have no known, infectious disease',
    text: 'To the best of my knowledge I do not have HIV, hepatitis B, hepatitis C, syphilis, HTLV or any other transmissible infection, and any test I have taken for them was negative. I will tell the bank in writing if I learn otherwise.',
  },
  positive: {
    label: 'I have tested positive for an infectious disease',
    text: 'I have tested positive for one or more transmissible infections, named below. I understand that the bank stores such tissue apart, labelled as reactive, that it may be released only for my own use, and that a clinic may refuse to use it.',
  },
} as const;
export type WaiverNotice = keyof typeof WAIVER_NOTICES;

/** The version of the terms and the waiver texts; a submission records it with the SHA-256 of the text. */
export const INFECTIOUS_DISEASE_TERMS_VERSION = '2026-11-22';

export function infectiousDiseaseTerms(book: PriceBook): string[] {
  return [
    'I confirm that the information I give on this form is true and complete to the best of my knowledge.',
    'I understand that the screening result, or my waiver, is kept with my banking records and may be shared with the physician or clinic that receives my cells.',
    `White Glove Labs fees are charged when I submit this form and are not refunded once the kit has shipped. Card payments carry a processing fee of ${cardFeePercent(book)}; ACH payments carry none.`,
    'A lab report I upload must be my own, from a licensed laboratory, for a blood draw within 14 days of my sample extraction.',
  ];
}

/** The White Glove amounts the server charges and the page shows: lab fee, card fee, total. */
export function whiteGloveQuote(
  book: PriceBook,
  method: FormPaymentMethod,
): {
  labFee: Cents;
  processingFee: Cents;
  total: Cents;
} {
  const labFee = book.whiteGloveLabFee;
  const processingFee = cardProcessingFee(book, labFee, method === 'Credit Card' ? 'card' : 'ach');
  return { labFee, processingFee, total: labFee + processingFee };
}

/** A lab report as the page sends it: a base64 data URL of at most 500 KB of content. */
const LAB_REPORT_MAX_CHARS = 800_000;

const optionalText = (max: number) =>
  singleLine(z.string().trim().max(max, `Must be at most ${max} characters`)).optional();

/** What every variant of the form sends for the route chosen: the route, the terms, the report or the waiver. */
const screeningRouteFields = {
  submissionOption: z.enum(SUBMISSION_OPTIONS, { error: d.selectOption }),
  agree: z.literal(true, { error: d.agree }),
  // Local Lab Submission.
  lab_report_file: z
    .string()
    .max(LAB_REPORT_MAX_CHARS, documentMessages.tooBig)
    .optional()
    .describe('The PDF as a base64 data URL'),
  lab_report_name: optionalText(200),
  // Waiver Submission.
  WaiverNotice: z.enum(['negative', 'positive'], { error: d.waiverNotice }).optional(),
  Signature: z.string().optional(),
  InfectiousDisease: freeText(z.string().trim().max(2000, 'Must be at most 2000 characters')).optional(),
  termsVersion: z
    .string()
    .max(40)
    .optional()
    .describe('The version of the terms the page showed; a different one is refused (409)'),
  expectedTotalCents: z.number().int().min(0).optional().describe('The total the page showed, in cents'),
};

type ScreeningRoute = {
  submissionOption: SubmissionOption;
  lab_report_file?: string;
  WaiverNotice?: 'negative' | 'positive';
  Signature?: string;
};

/** The section of a lab report or a waiver; White Glove Labs is each variant's own. */
function screeningRouteProblems(body: ScreeningRoute, ctx: z.RefinementCtx) {
  if (body.submissionOption === 'Local Lab Submission') {
    requireEach(body, ctx, { lab_report_file: documentMessages.required });
  } else if (body.submissionOption === 'Waiver Submission') {
    requireEach(body, ctx, { WaiverNotice: d.waiverNotice });
    const signature = signatureSchema(d.signature).safeParse(body.Signature);
    if (!signature.success) {
      ctx.addIssue({
        code: 'custom',
        path: ['Signature'],
        message: signature.error.issues[0]?.message ?? d.signature,
      });
    }
  }
}

/**
 * set_DiseaseData: the chosen route with its section. Amounts are the server's: legacy amount
 * fields, when sent, must equal its quote or nothing is charged.
 */
export const setDiseaseDataRequestSchema = acceptingSpecCardFieldNames(
  z
    .object({
      ...screeningRouteFields,
      // White Glove Labs: the kit's shipping address and the payment.
      FirstName: optionalText(80),
      LastName: optionalText(80),
      Street: optionalText(200),
      City: optionalText(80),
      State: optionalText(80),
      ZipCode: optionalText(20),
      Country: optionalText(80),
      ...formPaymentFields,
      PaymentMethod: z.enum(['Credit Card', 'ACH Payment'], { error: d.selectOption }).optional(),
      amount: z
        .number()
        .optional()
        .describe('Legacy: the total shown, in dollars; must equal the server quote'),
      WhiteGloveLabFee: z.number().optional().describe('Legacy: must equal the price book'),
      CreditCardProcessingFee: z.number().optional().describe('Legacy: must equal the server quote'),
      Source: z.string().max(60).optional().describe('Set by the server'),
      ClientSFRecordId: z.string().max(64).optional().describe("Must be the caller's own client"),
    })
    .superRefine((body, ctx) => {
      if (body.submissionOption === 'White Glove Labs') {
        requireEach(body, ctx, {
          FirstName: d.firstName,
          LastName: d.lastName,
          Street: d.street,
          City: d.city,
          State: d.state,
          ZipCode: d.zip,
          Country: d.country,
          PaymentMethod: d.selectOption,
        });
      }
      screeningRouteProblems(body, ctx);
    }, everyFieldAtOnce),
);

export type SetDiseaseDataRequest = z.infer<typeof setDiseaseDataRequestSchema>;

/**
 * The physician variant (spec 2, sections 2 to 5): the physician names the client, by Client ID
 * and last name or by full contact, confirms them, and pays White Glove Labs with their own card.
 */
export const CLIENT_INFO_CHOICES = {
  client_id: 'Client ID and Last Name',
  full_contact: 'Client Full Contact Information',
} as const;
export type ClientInfoChoice = keyof typeof CLIENT_INFO_CHOICES;

export const physicianDiseaseMessages = {
  /** No client-info choice (spec 2, section 5: "Please Check "; DESIGN.md 8.19: no trailing space). */
  chooseClientInfo: consentMessages.agree,
  /** No client-info choice on a White Glove Labs submission (spec 2, section 5). */
  chooseClientInfoForWhiteGlove: d.selectOption,
  confirmFirst: verificationMessages.confirmFirst,
  clientId: verificationMessages.clientIdRequired,
  clientLastName: verificationMessages.lastNameRequired,
  clientFirstName: verificationMessages.firstNameRequired,
  clientEmail: verificationMessages.emailRequired,
  clientEmailInvalid: verificationMessages.emailInvalid,
  clientDob: verificationMessages.dobRequired,
  clientDobInvalid: verificationMessages.dobInvalid,
  clientDobFuture: verificationMessages.dobFuture,
  verifyFailed: 'Please enter valid client id or last name',
  confirmed: verificationMessages.confirmed,
} as const;

const p = physicianDiseaseMessages;

/** The line the physician variant shows above the itemised amount. */
export function whiteGloveTotalLine(book: PriceBook): string {
  return `White Glove Labs Total: ${formatUsd(book.whiteGloveLabFee)}`;
}

/** The client identification, flat, as the legacy body carries it beside the form's fields. */
const clientIdentificationFields = {
  ClientInfo: z.enum(['client_id', 'full_contact'], { error: p.chooseClientInfo }),
  ClientId: optionalText(64),
  ClientLastname: optionalText(80),
  ClientFirstName: optionalText(80),
  Clientlastname: optionalText(80),
  ClientEmail: optionalText(254),
  ClientDob: optionalText(10).describe('MM/DD/YYYY'),
};

type ClientIdentificationInput = {
  ClientInfo?: ClientInfoChoice;
  ClientId?: string;
  ClientLastname?: string;
  ClientFirstName?: string;
  Clientlastname?: string;
  ClientEmail?: string;
  ClientDob?: string;
};

/** The fields the chosen identification needs (the Confirm Client Details button checks them too). */
function clientIdentificationProblems(body: ClientIdentificationInput, ctx: z.RefinementCtx, today: Today) {
  if (body.ClientInfo === 'client_id') {
    requireEach(body, ctx, { ClientId: p.clientId, ClientLastname: p.clientLastName });
  }
  if (body.ClientInfo !== 'full_contact') return;
  requireEach(body, ctx, {
    ClientFirstName: p.clientFirstName,
    Clientlastname: p.clientLastName,
    ClientEmail: p.clientEmail,
    ClientDob: p.clientDob,
  });
  // Runs even when a field failed its own type check (everyFieldAtOnce): only strings are read.
  const email = body.ClientEmail;
  if (typeof email === 'string' && email && !(email.length <= 254 && EMAIL_PATTERN.test(email))) {
    ctx.addIssue({ code: 'custom', path: ['ClientEmail'], message: p.clientEmailInvalid });
  }
  if (typeof body.ClientDob === 'string' && body.ClientDob) {
    const iso = usDateToIso(body.ClientDob);
    const problem = iso ? dateOfBirthProblem(iso, resolveToday(today)) : 'invalid';
    if (problem) {
      ctx.addIssue({
        code: 'custom',
        path: ['ClientDob'],
        message: problem === 'future' ? p.clientDobFuture : p.clientDobInvalid,
      });
    }
  }
}

/** set_verifyPhysicianClientData: one of the physician's own clients, by either identification. */
export function verifyPhysicianClientRequestSchema(today: Today) {
  return z
    .object(clientIdentificationFields)
    .superRefine((body, ctx) => clientIdentificationProblems(body, ctx, today), everyFieldAtOnce);
}

export type VerifyPhysicianClientRequest = z.infer<ReturnType<typeof verifyPhysicianClientRequestSchema>>;
export type ClientIdentification = Pick<
  VerifyPhysicianClientRequest,
  keyof typeof clientIdentificationFields
>;

export const verifyPhysicianClientResponseSchema = z.object({
  verified: z.literal(true),
  message: z.string(),
  ClientId: z.string().describe("The client's Client ID"),
  ClientName: z.string(),
  infectiousDiseaseFormCompleted: z.boolean(),
  actingFor: actingForSchema.describe('The confirmation also makes them the client this session acts for'),
});

export type VerifyPhysicianClientResponse = z.infer<typeof verifyPhysicianClientResponseSchema>;

const legacyIgnored = (what: string) =>
  singleLine(z.string().max(64)).optional().describe(`Legacy: ignored, ${what}`);

/**
 * set_PhysicianDiseaseData: the client identification, the route and its section. White Glove
 * Labs is paid by card only, with the physician's card on file or a new one; the kit's Street is
 * not required (spec 2, section 5). Amounts are the server's.
 */
export function setPhysicianDiseaseDataRequestSchema(today: Today) {
  return acceptingSpecCardFieldNames(
    z
      .object({
        ...clientIdentificationFields,
        // Its absence is refused below, in the words of the route chosen.
        ClientInfo: clientIdentificationFields.ClientInfo.optional(),
        ...screeningRouteFields,
        agree: z.union([z.literal(true), z.literal('yes')], { error: d.agree }),
        // White Glove Labs: the kit's shipping address (legacy names) and the physician's card.
        FirstName: optionalText(80),
        LastName: optionalText(80),
        street: optionalText(200),
        city: optionalText(80),
        state: optionalText(80),
        ZipCode: optionalText(20),
        country: optionalText(80),
        ...formPaymentFields,
        PaymentMethod: z.literal('Credit Card', { error: d.selectOption }).optional(),
        Amount: z
          .number()
          .optional()
          .describe('Legacy (default 399): ignored, the server charges its price book'),
        PhysicianId: legacyIgnored('the physician is the signed-in one'),
        Id: legacyIgnored('the physician is the signed-in one'),
        PhysicianLastName: legacyIgnored('the physician is the signed-in one'),
      })
      .superRefine((body, ctx) => {
        clientIdentificationProblems(body, ctx, today);
        if (body.submissionOption === 'White Glove Labs') {
          requireEach(body, ctx, {
            FirstName: d.firstName,
            LastName: d.lastName,
            city: d.city,
            state: d.state,
            ZipCode: d.zip,
            country: d.country,
          });
        }
        screeningRouteProblems(body, ctx);
      }, everyFieldAtOnce)
      .refine(
        (body): body is typeof body & { ClientInfo: ClientInfoChoice } => body.ClientInfo !== undefined,
        {
          path: ['ClientInfo'],
          error: (issue) =>
            (issue.input as { submissionOption?: unknown } | undefined)?.submissionOption ===
            'White Glove Labs'
              ? p.chooseClientInfoForWhiteGlove
              : p.chooseClientInfo,
          ...everyFieldAtOnce,
        },
      ),
  );
}

export type SetPhysicianDiseaseDataRequest = z.infer<ReturnType<typeof setPhysicianDiseaseDataRequestSchema>>;

/** The physician variant's answer: the client it was for, and what was charged to whose card. */
export const physicianDiseaseResponseSchema = formSubmissionResponseSchema.extend({
  ClientId: z.string(),
  ClientName: z.string(),
  charged: z
    .object({
      labFee: z.number().describe('Dollars'),
      processingFee: z.number().describe('Dollars'),
      total: z.number().describe('Dollars'),
      brand: z.string().nullable(),
      last4: z.string(),
    })
    .nullable()
    .describe("White Glove Labs: what was charged to the physician's card"),
});

export type PhysicianDiseaseResponse = z.infer<typeof physicianDiseaseResponseSchema>;

/** The base64 content of a data URL, or null when it is not one. */
export function dataUrlBytes(dataUrl: string): Uint8Array | null {
  const match = /^data:[^;,]*(;[^,]*)?;base64,([A-Za-z0-9+/]*={0,2})$/.exec(dataUrl);
  const base64 = match?.[2];
  if (base64 === undefined || base64.length % 4 === 1) return null;
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return null;
  }
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}
