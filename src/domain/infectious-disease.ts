import { z } from 'zod';
import { consentMessages, signatureSchema } from './consent-form';
import { documentMessages } from './documents';
import { requireEach } from './errors';
import { everyFieldAtOnce, type FormPaymentMethod, formPaymentFields } from './form-payment';
import { type Cents, formatUsd } from './money';
import { PAYMENT_SOURCES } from './payment-info';
import { CARD_FEE_PERCENT, cardProcessingFee } from './payments';
import { priceBook } from './price-book';
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
  signature: consentMessages.signature,
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
  confirmSignature: 'Click to Confirm Signature',
  termsChanged: 'The terms were updated while you were reading them. Please read them again and submit.',
  whiteGlovePaid:
    'Your White Glove Labs payment was received. Please choose White Glove Labs to finish this form.',
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
export function screeningComparison(): { feature: string; whiteGlove: string; localLab: string }[] {
  return [
    {
      feature: 'Price',
      whiteGlove: `${formatUsd(priceBook.whiteGloveLabFee)} (card payments add ${CARD_FEE_PERCENT})`,
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

export const INFECTIOUS_DISEASE_TERMS = [
  'I confirm that the information I give on this form is true and complete to the best of my knowledge.',
  'I understand that the screening result, or my waiver, is kept with my banking records and may be shared with the physician or clinic that receives my cells.',
  `White Glove Labs fees are charged when I submit this form and are not refunded once the kit has shipped. Card payments carry a processing fee of ${CARD_FEE_PERCENT}; ACH payments carry none.`,
  'A lab report I upload must be my own, from a licensed laboratory, for a blood draw within 14 days of my sample extraction.',
];

/** The White Glove amounts the server charges and the page shows: lab fee, card fee, total. */
export function whiteGloveQuote(method: FormPaymentMethod): {
  labFee: Cents;
  processingFee: Cents;
  total: Cents;
} {
  const labFee = priceBook.whiteGloveLabFee;
  const processingFee = cardProcessingFee(labFee, method === 'Credit Card' ? 'card' : 'ach');
  return { labFee, processingFee, total: labFee + processingFee };
}

/** A lab report as the page sends it: a base64 data URL of at most 500 KB of content. */
const LAB_REPORT_MAX_CHARS = 800_000;

const optionalText = (max: number) =>
  singleLine(z.string().trim().max(max, `Must be at most ${max} characters`)).optional();

/**
 * set_DiseaseData: the chosen route with its section. Amounts are the server's: legacy amount
 * fields, when sent, must equal its quote or nothing is charged.
 */
export const setDiseaseDataRequestSchema = z
  .object({
    submissionOption: z.enum(SUBMISSION_OPTIONS, { error: d.selectOption }),
    agree: z.literal(true, { error: d.agree }),
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
    expectedTotalCents: z.number().int().min(0).optional().describe('The total the page showed, in cents'),
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
    } else if (body.submissionOption === 'Local Lab Submission') {
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
  }, everyFieldAtOnce);

export type SetDiseaseDataRequest = z.infer<typeof setDiseaseDataRequestSchema>;

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
