import { isoDateOf } from './dates';
import { formatUsd } from './money';

/*
 * The Client Information values and helpers that need no zod: the web pages import these (client.ts
 * re-exports them), so a page showing a client record does not load the schema library.
 */

/** What a client not yet banked has instead of a paid-until date: their first storage year is included. */
export const FIRST_YEAR_INCLUDED = 'First year included: billing starts when your sample is received';

/** Messages of the Client Information save (spec 1, section 5), with DESIGN.md's spelling fixes. */
export const clientInformationMessages = {
  preferredAddressContactFullName: 'Please enter clinic contact person name',
  clinicName: 'Please enter clinic name',
  clinicNameTooLong: 'Clinic name must be at most 100 characters',
  shippingClinicEmail: 'Please enter shipping email',
  invalidEmail: 'Invalid email.',
  preferredAddressPhone: 'Please enter phone number',
  preferredAddressPhoneNumeric: 'Please insert only number, must be numeric',
  preferredAddressCity: 'Please enter city',
  preferredAddressState: 'Please select state',
  preferredAddressStateUnknown: 'Please select a state from the list',
  preferredAddressCountry: 'Please enter country',
  preferredAddressStreet: 'Please enter Street',
  preferredAddressZip: 'Please enter zipcode',
  clientDob: 'Please enter Birthdate',
  clientDobFuture: 'Birthdate cannot be in the future',
  email: 'Please enter email',
  phone: 'Please enter phone',
  phoneNumeric: 'Please insert only number',
  city: 'Please enter city',
  state: 'Please select state',
  stateUnknown: 'Please select a state from the list',
  country: 'Please enter country',
  street: 'Please enter street',
  zip: 'Please enter zipcode',
  name: 'Cannot be empty',
  nothingToSave:
    'Nothing to save: send the fields of Personal Details or of Preferred Shipping to Medical Professional',
} as const;

export function tooLong(max: number): string {
  return `Must be at most ${max} characters`;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Client Information's two groups of fields, in the order the form shows them (the schema's order). */
export const clientPersonalFields = [
  'firstName',
  'lastName',
  'clientDob',
  'email',
  'phone',
  'street',
  'city',
  'state',
  'zip',
  'country',
] as const;
export const clientShippingFields = [
  'clinicName',
  'preferredAddressContactFullName',
  'shippingClinicEmail',
  'preferredAddressPhone',
  'preferredAddressStreet',
  'preferredAddressCity',
  'preferredAddressState',
  'preferredAddressZip',
  'preferredAddressCountry',
] as const;

/** A field of Client Information; client.ts's schema has exactly these (checked where it is built). */
export type ClientInformationField =
  | (typeof clientPersonalFields)[number]
  | (typeof clientShippingFields)[number];

/** The order the form shows its fields in, used to scroll to the first failing one. */
export const clientInformationFieldOrder: ClientInformationField[] = [
  ...clientPersonalFields,
  ...clientShippingFields,
];

export function todayFor(now: Date): string {
  return isoDateOf(now);
}

export const CLIENT_INFORMATION_UPDATED = 'Client information successfully updated.';

/**
 * A client's e-mail address and phone number sign them in and recover their account: only the
 * client and the bank's staff change them (DESIGN.md section 3). The one exception is the
 * registering physician correcting the e-mail before the new client has used the welcome link.
 */
export const contactChannelMessages = {
  physicianEmailRefused:
    "Only the client or the bank can change the client's e-mail address. Please ask your client to change it in the Client Portal, or contact us.",
  physicianPhoneRefused:
    "Only the client or the bank can change the client's phone number. Please ask your client to change it in the Client Portal, or contact us.",
  physicianReadOnlyNote:
    'Only the client or the bank can change this: it signs the client in and recovers their account.',
} as const;

/**
 * "Annual Storage Paid Until": the date, or Overdue unless a paid-until date is present and not
 * past. A client whose tissue has not arrived yet (no banked date, no paid-until) owes nothing:
 * the first year is included and billing starts at receipt (issue 21).
 */
export function annualStoragePaidUntilLabel(
  paidUntil: string | null,
  today: string,
  dateBankedIn?: string | null,
): string {
  if (!paidUntil && dateBankedIn === null) return FIRST_YEAR_INCLUDED;
  if (!paidUntil || paidUntil < today) return 'Overdue';
  return paidUntil;
}

/** Where the client puts an alert of Client Information right. */
export type ClientAlertFix = 'payment' | 'consent' | 'screening';

/** What the alerts read of a client record (client.ts's ClientRecord has these fields and more). */
export interface ClientAlertFacts {
  hasOverDuePayments: boolean;
  totalAnnualOverdueAmount: number;
  creditCardNumber: string | null;
  clientConsentFormCompleted: boolean;
  infectiousDiseaseFormCompleted: boolean;
}

/** The alerts the Client Information page shows above the form (spec 1, section 8), each with where it is fixed. */
export function clientAlertItems(client: ClientAlertFacts): Array<{ text: string; fix: ClientAlertFix }> {
  const alerts: Array<{ text: string; fix: ClientAlertFix }> = [];
  if (client.hasOverDuePayments) {
    const overdue = formatUsd(Math.round(client.totalAnnualOverdueAmount * 100));
    alerts.push({ text: `Total Amount Overdue = ${overdue}`, fix: 'payment' });
    alerts.push({
      text: 'Update your payment information to pay any overdue annual storage fee(s).',
      fix: 'payment',
    });
  }
  if (!client.creditCardNumber)
    alerts.push({ text: 'Please update your payment information', fix: 'payment' });
  if (!client.clientConsentFormCompleted)
    alerts.push({ text: 'Please fill the consent form', fix: 'consent' });
  if (!client.infectiousDiseaseFormCompleted)
    alerts.push({ text: 'Please complete the infectious disease submission', fix: 'screening' });
  return alerts;
}

/** Forms links are red while either form is incomplete. */
export function formsIncomplete(
  client: Pick<ClientAlertFacts, 'clientConsentFormCompleted' | 'infectiousDiseaseFormCompleted'>,
) {
  return !client.clientConsentFormCompleted || !client.infectiousDiseaseFormCompleted;
}
