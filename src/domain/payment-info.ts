import { z } from 'zod';
import { verificationMessages } from './client-verification';
import { requireEach } from './errors';
import {
  abaRoutingValid,
  CARD_BRANDS,
  EXPIRY_MONTHS,
  paymentMessages as m,
  storageChargesSchema,
} from './payments';
import { singleLine } from './text';

/** The source tag each payment screen sends (spec 1 section 3, spec 3 section 2). */
export const PAYMENT_SOURCES = {
  clientPortal: 'CP Payment Info Page',
  email: 'Email Single Payment Page',
  sms: 'SMS Single Payment Page',
  consentForm: 'CP Consent Form',
  /** A new card or account a physician entered for the client on the physician's consent. */
  physicianConsentForm: 'Physician Portal Consent Form',
  /** The legacy source tag of the infectious disease form. */
  infectiousDisease: 'ACT Client Portal',
  /** The card or account given with a newborn finance agreement that has no deposit to charge. */
  newbornAgreement: 'Newborn Finance Agreement',
  /** The physician's own card or bank account, on the physician portal's Payment Information page. */
  physicianPortal: 'Physician Portal Payment Info Page',
} as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[keyof typeof PAYMENT_SOURCES];

export const PAYMENT_INFO_UPDATED =
  'Your payment information has been updated successfully. We are now getting the portal services ready for you!';

/** Fields that would carry a full card number, CVV or bank account number: never accepted. */
export const FORBIDDEN_PAYMENT_FIELDS =
  /^(credit_?card_?number|card_?number|cvv2?|cvc|card_?code|account_?number)(__c)?$/i;

/** A one-time token from the gateway's browser tokenizer. */
export const paymentTokenSchema = z.object({
  descriptor: z.string().min(1).max(100),
  value: z.string().min(1).max(8192),
});

const optionalText = (max = 80) => singleLine(z.string().trim().max(max)).optional();

/** What a page sends of a card or account besides its token: the fields a person reads back. */
export const paymentDisplayFields = {
  Credit_Card_Type: z.enum(CARD_BRANDS).optional(),
  Month_of_Expiry: z.enum(EXPIRY_MONTHS).optional(),
  Year_of_Expiry: z
    .string()
    .regex(/^\d{4}$/, m.yearInvalid)
    .optional(),
  Credit_Card_Holder_First_Name: optionalText(),
  Credit_Card_Holder_Last_Name: optionalText(),
  Credit_Card_Biling_Email_Address: optionalText(254),
  Country: optionalText(),
  Credit_Card_Billing_Street: optionalText(60).describe(
    "The card's billing street (not in spec 1: the gateway's address verification needs it)",
  ),
  Credit_Card_Billing_City: optionalText(40),
  Credit_Card_Billing_State: optionalText(40),
  Credit_Card_Billing_Zip_Code: optionalText(20),
  Name_On_Account: optionalText(22),
  ABA_Routing_Number: z
    .string()
    .regex(/^\d{9}$/, m.routingNumberInvalid)
    .refine(abaRoutingValid, m.routingNumberInvalid)
    .optional()
    .describe('ACH display data: the routing number identifies the bank, not the account'),
};

/**
 * set_PaymentInfo: a token plus display data. The card or bank numbers went to the gateway's
 * tokenizer in the browser; only the fields a person reads back (names, brand, expiry) come here.
 */
const paymentInfoFields = z.object({
  Payment_Type: z.enum(['CC', 'ACH'], { error: 'Please select a payment method' }),
  token: paymentTokenSchema,
  ...paymentDisplayFields,
  expectedTotalCents: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'The total the page showed the client; when it differs from the server total nothing is charged (409)',
    ),
  PaymentSource: z
    .string()
    .max(60)
    .optional()
    .describe('Set by the server from the page; a value sent is ignored'),
  ClientSFRecordId: z.string().max(64).optional().describe("Must be the caller's own client"),
  PhysicianId: z.string().max(64).optional().describe('Ignored'),
});

/** The display fields a card (brand, expiry, holder, billing address) or an account (name, routing) needs. */
export function requireDisplayFields(
  body: Pick<z.infer<typeof paymentInfoFields>, 'Payment_Type' | keyof typeof paymentDisplayFields>,
  ctx: z.RefinementCtx,
) {
  if (body.Payment_Type === 'CC') {
    requireEach(body, ctx, {
      Credit_Card_Type: m.cardTypeRequired,
      Month_of_Expiry: m.monthInvalid,
      Year_of_Expiry: m.yearInvalid,
      Credit_Card_Holder_First_Name: m.fieldRequired,
      Credit_Card_Holder_Last_Name: m.fieldRequired,
      Credit_Card_Biling_Email_Address: m.emailRequired,
      Country: m.fieldRequired,
      Credit_Card_Billing_Street: m.fieldRequired,
      Credit_Card_Billing_City: m.fieldRequired,
      Credit_Card_Billing_State: m.fieldRequired,
      Credit_Card_Billing_Zip_Code: m.fieldRequired,
    });
  } else {
    requireEach(body, ctx, { Name_On_Account: m.fieldRequired, ABA_Routing_Number: m.fieldRequired });
  }
}

/**
 * set_PaymentInfo: a token plus display data. The card or bank numbers went to the gateway's
 * tokenizer in the browser; only the fields a person reads back (names, brand, expiry) come here.
 */
export const setPaymentInfoRequestSchema = paymentInfoFields.superRefine(requireDisplayFields);

/**
 * The public single-payment pages' save: the same, plus the confirmation that identified the
 * client, the owner's authorization and which page (e-mail or text-message link) it came from.
 */
export const setPublicPaymentInfoRequestSchema = paymentInfoFields
  .extend({
    // Spec 3 section 5: the text-message page's own words for a missing payment method.
    Payment_Type: z.enum(['CC', 'ACH'], { error: verificationMessages.chooseMethod }),
    verification: z
      .string({ error: 'Please confirm client details' })
      .min(1, 'Please confirm client details')
      .max(200),
    agree: z.literal(true, { error: verificationMessages.agree }),
    page: z.enum(['email', 'sms']),
  })
  .superRefine(requireDisplayFields);

export type SetPublicPaymentInfoRequest = z.infer<typeof setPublicPaymentInfoRequestSchema>;

export type SetPaymentInfoRequest = z.infer<typeof setPaymentInfoRequestSchema>;

export const setPaymentInfoResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  page_name: z.string(),
  TransactionId: z.string().nullable().describe('The charge of the overdue total, when there was one'),
  amountCharged: z.number().describe('Dollars charged now, fee included; 0 when nothing was overdue'),
  processingFee: z.number().describe('Dollars of card processing fee within amountCharged'),
});

export type SetPaymentInfoResponse = z.infer<typeof setPaymentInfoResponseSchema>;

/**
 * The public pages' save answers, beside the saved method's, a signed token naming that save: the
 * page puts it in its address (`?result=`), so a reload shows what was paid, from the server.
 */
export const setPublicPaymentInfoResponseSchema = setPaymentInfoResponseSchema.extend({
  result: z.string().describe('Names this save for get_PublicPaymentResult and its receipt (7 days)'),
});

export type SetPublicPaymentInfoResponse = z.infer<typeof setPublicPaymentInfoResponseSchema>;

export const publicPaymentResultQuerySchema = z.object({
  result: z.string().max(512).optional(),
});

/** What a public page's save did, read again by its result token (a reload after paying). */
export const publicPaymentResultSchema = z.object({
  message: z.string(),
  page_name: z.string(),
  TransactionId: z.string().nullable(),
  amountCharged: z.number().describe('Dollars charged, fee included; 0 when nothing was due'),
  processingFee: z.number(),
  paidWith: z.string().describe('The method saved, as a receipt names it: brand and last 4 only'),
  receipt: z.boolean().describe('A receipt PDF is available (something was charged)'),
});

export type PublicPaymentResult = z.infer<typeof publicPaymentResultSchema>;

/**
 * set_PhysicianPaymentInfo: the physician's own card or bank account. Nothing is charged on saving
 * it, and it names no client: the physician's own method is the only one this page changes, whom
 * ever the session acts for (a client id sent is dropped).
 */
export const setPhysicianPaymentInfoRequestSchema = paymentInfoFields
  .omit({ expectedTotalCents: true, ClientSFRecordId: true })
  .superRefine(requireDisplayFields);

export type SetPhysicianPaymentInfoRequest = z.infer<typeof setPhysicianPaymentInfoRequestSchema>;

/** Which of the physician's methods on file to take off: the card or the bank account. */
export const removePhysicianPaymentInfoRequestSchema = z.object({
  Payment_Type: z.enum(['CC', 'ACH'], { error: 'Please select a payment method' }),
});

export type RemovePhysicianPaymentInfoRequest = z.infer<typeof removePhysicianPaymentInfoRequestSchema>;

export const PAYMENT_METHOD_REMOVED = {
  CC: 'Your card on file was removed.',
  ACH: 'Your bank account on file was removed.',
} as const;

export const removePhysicianPaymentInfoResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

export type RemovePhysicianPaymentInfoResponse = z.infer<typeof removePhysicianPaymentInfoResponseSchema>;

/**
 * get_PaymentInfo: what is on file, the last 4 digits only, in plain and `__c` names. No ABA routing
 * number: the pages show a bank account by its ending and name only (spec 1 section 2).
 */
export const paymentInfoSchema = z.object({
  Id: z.string(),
  Credit_Card_Number: z.string().nullable(),
  Credit_Card_Type: z.string().nullable(),
  Month_of_Expiry: z.string().nullable(),
  Year_of_Expiry: z.string().nullable(),
  Credit_Card_Holder_First_Name: z.string().nullable(),
  Credit_Card_Holder_Last_Name: z.string().nullable(),
  Credit_Card_Billing_Zip_Code: z.string().nullable(),
  Account_Number: z.string().nullable(),
  Name_On_Account: z.string().nullable(),
  Physician_ID: z.string().nullable().describe("The client's physician's ID"),
  Physician_First_Name: z.string().nullable(),
  Physician_Last_Name: z.string().nullable(),
  Credit_Card_Number__c: z.string().nullable(),
  Credit_Card_Type__c: z.string().nullable(),
  Month_of_Expiry__c: z.string().nullable(),
  Year_of_Expiry__c: z.string().nullable(),
  Credit_Card_Holder_First_Name__c: z.string().nullable(),
  Credit_Card_Holder_Last_Name__c: z.string().nullable(),
  Credit_Card_Billing_Zip_Code__c: z.string().nullable(),
  Account_Number__c: z.string().nullable(),
  Name_on_ACH_Account__c: z.string().nullable(),
  Total_Amount_Overdue: z
    .number()
    .describe('Dollars: the sum of all annual storage fees overdue today, before any card fee'),
  overdueCharges: storageChargesSchema.describe(
    'What saving a card or a bank account charges for them: each year at the amount its notice fixed for the method (an older year with the card fee in force)',
  ),
});

export type PaymentInfo = z.infer<typeof paymentInfoSchema>;

export const getPaymentInfoResponseSchema = z.object({ result: paymentInfoSchema });

/** How a stored number is shown: masked but for its last 4 digits. */
export function maskedCardNumber(last4: string): string {
  return `************${last4}`;
}

export function maskedAccountNumber(last4: string): string {
  return `*****${last4}`;
}

/** Which browser tokenizer the payment forms use, and its public settings. */
export const paymentConfigSchema = z.discriminatedUnion('gateway', [
  z.object({ gateway: z.literal('sandbox'), tokenizeUrl: z.string() }),
  z.object({
    gateway: z.literal('authorize-net'),
    acceptJsUrl: z.string(),
    apiLoginId: z.string(),
    clientKey: z.string(),
  }),
]);
