import { z } from 'zod';
import { EMAIL_PATTERN } from './client';
import { type PaymentInfo, paymentDisplayFields, paymentTokenSchema } from './payment-info';
import { paymentMessages } from './payments';

/**
 * The payment choice of the consent and screening forms (spec 2, sections 2 and 5): the saved card
 * or bank account shown by default, or a new one entered after "Use Another Credit Card" / "Use
 * Another ACH", tokenized in the browser like every card, and kept on file only when asked.
 */

/** The legacy PaymentMethod values. */
export const FORM_PAYMENT_METHODS = ['Credit Card', 'ACH Payment', 'Check'] as const;
export type FormPaymentMethod = (typeof FORM_PAYMENT_METHODS)[number];

export const formPaymentMessages = {
  noAchStored:
    'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
  noCardStored: 'Please tick Use Another Credit Card and enter a card, or choose another payment method.',
  tokenMissing: 'Please enter the card or bank details again.',
} as const;

// A form has its own Country (the client's, the kit's): the card's is Credit_Card_Holder_Country.
const { Country: _cardCountry, ...paymentDisplayFieldsWithoutCountry } = paymentDisplayFields;

/** What the server receives of a payment choice: a token for a new method, never its numbers. */
export const formPaymentFields = {
  PaymentMethod: z.enum(FORM_PAYMENT_METHODS, { error: 'Please Select One' }),
  Payment_Type: z.enum(['CC', 'ACH']).optional().describe('Derived by the server from PaymentMethod'),
  update_card: z.boolean().default(false).describe('Use Another Credit Card: a new card comes as a token'),
  update_ach: z.boolean().default(false).describe('Use Another ACH: a new account comes as a token'),
  save_card: z.boolean().default(false).describe('Keep the new card on file for future payments'),
  save_ach: z.boolean().default(false).describe('Keep the new account on file for future payments'),
  token: paymentTokenSchema.optional(),
  ...paymentDisplayFieldsWithoutCountry,
  Credit_Card_Biling_Email_Address: paymentDisplayFields.Credit_Card_Biling_Email_Address.describe(
    'The card billing e-mail; Credit_Card_Billing_Email (spec 3) is read as it',
  ),
  Credit_Card_Billing_Zip_Code: paymentDisplayFields.Credit_Card_Billing_Zip_Code.describe(
    'The card billing zip; Credit_Card_Holder_Zip (spec 2, spec 3) is read as it',
  ),
  Credit_Card_Holder_Country: paymentDisplayFields.Country.describe('The card billing country'),
};

/**
 * The total a paying form showed, sent to be checked: the server prices the order itself and a
 * different total answers 409 with nothing charged (DESIGN.md 8.25).
 */
export const shownTotalFields = {
  amount: z.number().optional().describe('Legacy: the total shown, in dollars; must equal the server quote'),
  expectedTotalCents: z
    .number()
    .int()
    .optional()
    .describe('The total the page showed, in cents: a different server total answers 409, nothing charged'),
};

/**
 * The spec's own names of the card's billing e-mail and zip (spec 3 section 3: the cell request's
 * Credit_Card_Billing_Email and Credit_Card_Holder_Zip, the store's Credit_Card_Billing_Email;
 * spec 2 section 3: the saved card's and the physician screening's Credit_Card_Holder_Zip), beside
 * the names of spec 1's payment page that the portal's own pages send (DESIGN.md 8.4: legacy field
 * names stay as the spec spells them). Either is accepted; the page's name wins when both come.
 */
export const SPEC_CARD_FIELD_NAMES = {
  Credit_Card_Billing_Email: 'Credit_Card_Biling_Email_Address',
  Credit_Card_Holder_Zip: 'Credit_Card_Billing_Zip_Code',
} as const;

function withPortalCardFieldNames(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  if (!Object.keys(SPEC_CARD_FIELD_NAMES).some((name) => name in body)) return body;
  const renamed: Record<string, unknown> = { ...body };
  for (const [specName, portalName] of Object.entries(SPEC_CARD_FIELD_NAMES)) {
    if (!(specName in renamed)) continue;
    renamed[portalName] ??= renamed[specName];
    delete renamed[specName];
  }
  return renamed;
}

/** A form's request schema that also takes the spec's names of the card fields (SPEC_CARD_FIELD_NAMES). */
export function acceptingSpecCardFieldNames<T extends z.ZodType>(schema: T) {
  return z.preprocess((body: z.input<T>) => withPortalCardFieldNames(body), schema);
}

type FormPaymentInput = {
  PaymentMethod: FormPaymentMethod;
  update_card: boolean;
  update_ach: boolean;
  token?: unknown;
  Credit_Card_Type?: string;
  Month_of_Expiry?: string;
  Year_of_Expiry?: string;
  Credit_Card_Holder_First_Name?: string;
  Credit_Card_Holder_Last_Name?: string;
  Credit_Card_Biling_Email_Address?: string;
  Credit_Card_Billing_Street?: string;
  Credit_Card_Billing_City?: string;
  Credit_Card_Billing_State?: string;
  Name_On_Account?: string;
  ABA_Routing_Number?: string;
};

/** The methods on file that a form may use (display data from get_PaymentInfo). */
export interface MethodsOnFile {
  card: boolean;
  ach: boolean;
}

export function methodsOnFileOf(info: Pick<PaymentInfo, 'Credit_Card_Number' | 'Account_Number'> | null) {
  return { card: Boolean(info?.Credit_Card_Number), ach: Boolean(info?.Account_Number) };
}

/** A form's own words for an empty new-card field; `email` defaults to the payment page's "Cannot be empty". */
export interface FormCardEmptyMessages {
  first: string;
  last: string;
  month: string;
  year: string;
  email?: string;
}

/**
 * The rules a form's payment choice must meet, for the server (with what is on file) and the
 * page alike: a saved method must exist when no new one is given, and a new one needs its token
 * and display fields, the billing e-mail among them (the card form asks for it on every page).
 */
export function formPaymentProblems(
  body: FormPaymentInput,
  onFile: MethodsOnFile,
  cardEmpty: FormCardEmptyMessages,
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (body.PaymentMethod === 'Credit Card') {
    if (!body.update_card) {
      if (!onFile.card) problems.update_card = formPaymentMessages.noCardStored;
      return problems;
    }
    if (!body.token) problems.Credit_Card_Number = formPaymentMessages.tokenMissing;
    if (!body.Credit_Card_Type) problems.Credit_Card_Type = paymentMessages.cardTypeRequired;
    if (!body.Credit_Card_Holder_First_Name) problems.Credit_Card_Holder_First_Name = cardEmpty.first;
    if (!body.Credit_Card_Holder_Last_Name) problems.Credit_Card_Holder_Last_Name = cardEmpty.last;
    if (!body.Month_of_Expiry) problems.Month_of_Expiry = cardEmpty.month;
    if (!body.Year_of_Expiry) problems.Year_of_Expiry = cardEmpty.year;
    const email = body.Credit_Card_Biling_Email_Address?.trim() ?? '';
    if (!email) {
      problems.Credit_Card_Biling_Email_Address = cardEmpty.email ?? paymentMessages.emailRequired;
    } else if (!EMAIL_PATTERN.test(email)) {
      problems.Credit_Card_Biling_Email_Address = paymentMessages.emailInvalid;
    }
    // The billing address the gateway's address verification needs (a deviation from spec 2, as on the payment page).
    if (!body.Credit_Card_Billing_Street) problems.Credit_Card_Billing_Street = paymentMessages.fieldRequired;
    if (!body.Credit_Card_Billing_City) problems.Credit_Card_Billing_City = paymentMessages.fieldRequired;
    if (!body.Credit_Card_Billing_State) problems.Credit_Card_Billing_State = paymentMessages.fieldRequired;
  } else if (body.PaymentMethod === 'ACH Payment') {
    if (!body.update_ach) {
      if (!onFile.ach) problems.PaymentMethod = formPaymentMessages.noAchStored;
      return problems;
    }
    if (!body.token) problems.Account_Number = formPaymentMessages.tokenMissing;
    if (!body.Name_On_Account) problems.Name_On_Account = paymentMessages.fieldRequired;
    if (!body.ABA_Routing_Number) problems.ABA_Routing_Number = paymentMessages.fieldRequired;
  }
  return problems;
}

export { everyFieldAtOnce } from './cross-field';
