import { z } from 'zod';
import {
  annualStoragePaidUntilLabel,
  CLIENT_INFORMATION_UPDATED,
  type ClientInformationField,
  clientAlertItems,
  clientInformationFieldOrder,
  clientInformationMessages,
  contactChannelMessages,
  EMAIL_PATTERN,
  formsIncomplete,
  todayFor,
  tooLong,
} from './client-basics';
import { dateOfBirthProblem, resolveToday, type Today, usDateToIso } from './dates';
import { singleLine } from './text';
import { isUsStateCode } from './us-states';

// The plain values and helpers live in client-basics (no zod), so the web pages can load them alone.
export {
  annualStoragePaidUntilLabel,
  CLIENT_INFORMATION_UPDATED,
  clientAlertItems,
  clientInformationFieldOrder,
  clientInformationMessages,
  contactChannelMessages,
  EMAIL_PATTERN,
  formsIncomplete,
  todayFor,
  tooLong,
};

const m = clientInformationMessages;

const DIGITS = /^\d+$/;

function required(message: string, max = 100) {
  return singleLine(z.string({ error: message }).trim().min(1, message).max(max, tooLong(max)));
}

function email(message: string) {
  return singleLine(
    z
      .string({ error: message })
      .trim()
      .min(1, message)
      .max(254, tooLong(254))
      .regex(EMAIL_PATTERN, m.invalidEmail),
  );
}

function digits(message: string, numericMessage: string) {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .regex(DIGITS, numericMessage)
    .max(15, m.phoneTooLong);
}

/**
 * The fields the Client Information form edits, and nothing else: an update can never touch
 * flags, balances or identity. `today` (YYYY-MM-DD) bounds the birth date.
 */
export function clientInformationSchema(today: Today) {
  // Exactly the fields client-basics lists for the form, no more and no fewer.
  const fields = {
    firstName: required(m.name, 80),
    lastName: required(m.name, 80),
    clientDob: z
      .string({ error: m.clientDob })
      .trim()
      .min(1, m.clientDob)
      .superRefine((value, ctx) => {
        const iso = usDateToIso(value);
        const problem = iso ? dateOfBirthProblem(iso, resolveToday(today)) : 'invalid';
        if (problem === 'invalid') ctx.addIssue({ code: 'custom', message: m.clientDob });
        if (problem === 'future') ctx.addIssue({ code: 'custom', message: m.clientDobFuture });
      }),
    email: email(m.email),
    phone: digits(m.phone, m.phoneNumeric),
    street: required(m.street, 200),
    city: required(m.city, 80),
    state: required(m.state, 80),
    zip: required(m.zip, 20),
    country: required(m.country, 80),
    clinicName: singleLine(
      z.string({ error: m.clinicName }).trim().min(1, m.clinicName).max(100, m.clinicNameTooLong),
    ),
    preferredAddressContactFullName: required(m.preferredAddressContactFullName, 120),
    shippingClinicEmail: email(m.shippingClinicEmail),
    preferredAddressPhone: digits(m.preferredAddressPhone, m.preferredAddressPhoneNumeric),
    preferredAddressStreet: required(m.preferredAddressStreet, 200),
    preferredAddressCity: required(m.preferredAddressCity, 80),
    preferredAddressState: z
      .string({ error: m.preferredAddressState })
      .trim()
      .min(1, m.preferredAddressState)
      .refine(isUsStateCode, m.preferredAddressStateUnknown),
    preferredAddressZip: required(m.preferredAddressZip, 20),
    preferredAddressCountry: required(m.preferredAddressCountry, 80),
  } satisfies Record<ClientInformationField, z.ZodType>;
  return z.object(fields);
}

export type ClientInformation = z.infer<ReturnType<typeof clientInformationSchema>>;

/** One client record of get_Client, the fields listed in spec 1 section 3, as an allow-list. */
export const clientRecordSchema = z.object({
  clientACTId: z.string(),
  clientRecordId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  clientDob: z.string().describe('MM/DD/YYYY'),
  email: z.string(),
  phone: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
  clinicName: z.string(),
  preferredAddressContactFullName: z.string(),
  shippingClinicEmail: z.string(),
  preferredAddressPhone: z.string(),
  preferredAddressStreet: z.string(),
  preferredAddressCity: z.string(),
  preferredAddressState: z.string(),
  preferredAddressZip: z.string(),
  preferredAddressCountry: z.string(),
  creditCardNumber: z.string().nullable().describe('The card on file, masked to its last 4 digits'),
  annualStoragePaidUntil: z.string().nullable().describe('YYYY-MM-DD'),
  totalAnnualOverdueAmount: z.number().describe('Dollars, the sum of overdue annual storage fees'),
  hasOverDuePayments: z.boolean(),
  longevityVialsAvailable: z.number().int(),
  freeBioInsuranceVialsAvailble: z.number().int(),
  initialProcessingFormCompleted: z.boolean(),
  infectiousDiseaseFormCompleted: z.boolean(),
  clientConsentFormCompleted: z.boolean(),
  arbSubscribed: z.boolean(),
  physicianFormAgreement: z.boolean(),
  dateBankedin: z.string().nullable(),
  LastBioInsurancePurchasedDate: z.string().nullable(),
});

export type ClientRecord = z.infer<typeof clientRecordSchema>;

export const getClientQuerySchema = z.object({
  id: z.string().max(64).optional().describe("The client's record id or Client ID; must be the caller's own"),
});

export const getClientResponseSchema = z.object({
  result: z.object({ listResponse: z.array(clientRecordSchema) }),
});

export const updateClientResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  client: clientRecordSchema,
});
