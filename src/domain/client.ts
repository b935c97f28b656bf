import { z } from 'zod';
import {
  annualStoragePaidUntilLabel,
  CLIENT_INFORMATION_UPDATED,
  type ClientInformationField,
  clientAlertItems,
  clientInformationFieldOrder,
  clientInformationMessages,
  clientPersonalFields,
  clientShippingFields,
  contactChannelMessages,
  EMAIL_PATTERN,
  formsIncomplete,
  todayFor,
  tooLong,
} from './client-basics';
import { everyFieldAtOnce } from './cross-field';
import { dateOfBirthProblem, resolveToday, type Today, usDateToIso } from './dates';
import { singleLine } from './text';
import {
  optionalUsPhoneField,
  optionalUsZipField,
  postalCodeField,
  usAddressIssues,
  usPhoneField,
} from './us-contact-fields';
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

function required(message: string, max = 100) {
  return singleLine(z.string({ error: message }).trim().min(1, message).max(max, tooLong(max)));
}

/** A field of the shipping block: may be empty (the block is optional until started), else checked. */
function optional(required: string, max: number, message = tooLong(max)) {
  return singleLine(z.string({ error: required }).trim().max(max, message));
}

const personalFields = (today: Today) => ({
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
  email: singleLine(
    z
      .string({ error: m.email })
      .trim()
      .min(1, m.email)
      .max(254, tooLong(254))
      .regex(EMAIL_PATTERN, m.invalidEmail),
  ),
  phone: usPhoneField({ required: m.phone, numeric: m.phoneNumeric }),
  street: required(m.street, 200),
  city: required(m.city, 80),
  // A state from the list and a ZIP code in the United States, free text elsewhere (usAddressIssues below).
  state: required(m.state, 80),
  zip: postalCodeField(m.zip),
  country: required(m.country, 80),
});

const shippingFields = {
  clinicName: optional(m.clinicName, 100, m.clinicNameTooLong),
  preferredAddressContactFullName: optional(m.preferredAddressContactFullName, 120),
  shippingClinicEmail: optional(m.shippingClinicEmail, 254).refine(
    (v) => v === '' || EMAIL_PATTERN.test(v),
    m.invalidEmail,
  ),
  preferredAddressPhone: optionalUsPhoneField({
    required: m.preferredAddressPhone,
    numeric: m.preferredAddressPhoneNumeric,
  }),
  preferredAddressStreet: optional(m.preferredAddressStreet, 200),
  preferredAddressCity: optional(m.preferredAddressCity, 80),
  preferredAddressState: z
    .string({ error: m.preferredAddressState })
    .trim()
    .refine((v) => v === '' || isUsStateCode(v), m.preferredAddressStateUnknown),
  preferredAddressZip: optionalUsZipField(m.preferredAddressZip),
  preferredAddressCountry: optional(m.preferredAddressCountry, 80),
};

/** Each field of the shipping block, and its message when the block is started but the field is empty. */
const shippingRequired: Record<(typeof clientShippingFields)[number], string> = {
  clinicName: m.clinicName,
  preferredAddressContactFullName: m.preferredAddressContactFullName,
  shippingClinicEmail: m.shippingClinicEmail,
  preferredAddressPhone: m.preferredAddressPhone,
  preferredAddressStreet: m.preferredAddressStreet,
  preferredAddressCity: m.preferredAddressCity,
  preferredAddressState: m.preferredAddressState,
  preferredAddressZip: m.preferredAddressZip,
  preferredAddressCountry: m.preferredAddressCountry,
};

/** The personal address: the client may live abroad (its Country is free text); the shipping block is in the US. */
const personalAddress = {
  country: 'country',
  zip: 'zip',
  state: { field: 'state', notOnList: m.stateUnknown },
};

function sent(raw: Record<string, unknown>, fields: readonly string[]) {
  return fields.some((field) => raw[field] !== undefined);
}

function filled(value: unknown) {
  return typeof value === 'string' && value.trim() !== '';
}

function optionalAll<S extends Record<string, z.ZodType>>(shape: S): { [K in keyof S]: z.ZodOptional<S[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([field, schema]) => [field, schema.optional()])) as {
    [K in keyof S]: z.ZodOptional<S[K]>;
  };
}

/** The fields the Client Information form edits, each block's fields optional as a whole (see below). */
export function clientInformationShape(today: Today) {
  // Exactly the fields client-basics lists for the form, no more and no fewer.
  return {
    ...optionalAll(personalFields(today)),
    ...optionalAll(shippingFields),
  } satisfies Record<ClientInformationField, z.ZodType>;
}

/**
 * The block rules of a Client Information save, around an object of clientInformationShape's fields
 * (and any others, such as staff's clientId). Each block is saved on its own (DESIGN.md 8.27): a
 * body with any field of a block carries the whole block (a missing field of it counts as empty);
 * a block with none of its fields is left as it is. Personal Details are all required. Preferred
 * Shipping to Medical Professional may be left (or made) all empty; once any of its fields is
 * filled, all are required with the spec's messages.
 */
export function withClientInformationBlocks<T extends z.ZodObject>(object: T) {
  return z.preprocess(
    (raw) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
      const body = { ...(raw as Record<string, unknown>) };
      for (const block of [clientPersonalFields, clientShippingFields]) {
        if (!sent(body, block)) continue;
        for (const field of block) body[field] ??= '';
      }
      return body;
    },
    object.superRefine((body, ctx) => {
      const values = body as Record<string, unknown>;
      if (!sent(values, clientPersonalFields) && !sent(values, clientShippingFields)) {
        ctx.addIssue({ code: 'custom', message: m.nothingToSave });
        return;
      }
      usAddressIssues(values, personalAddress, ctx);
      if (!clientShippingFields.some((field) => filled(values[field]))) return;
      // A field already refused (a phone with letters) keeps its own message alone.
      const refused = new Set(ctx.issues.map((issue) => issue.path?.[0]));
      for (const field of clientShippingFields) {
        if (!filled(values[field]) && !refused.has(field))
          ctx.addIssue({ code: 'custom', path: [field], message: shippingRequired[field] });
      }
    }, everyFieldAtOnce),
  );
}

/**
 * The fields the Client Information form edits, and nothing else: an update can never touch
 * flags, balances or identity. `today` (YYYY-MM-DD) bounds the birth date.
 */
export function clientInformationSchema(today: Today) {
  return withClientInformationBlocks(z.object(clientInformationShape(today)));
}

/** What an update_Client body becomes: the blocks it carried, each whole. */
export type ClientInformationUpdate = z.infer<ReturnType<typeof clientInformationSchema>>;

/** Every field the Client Information form shows, as stored. */
export type ClientInformation = Required<ClientInformationUpdate>;

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
