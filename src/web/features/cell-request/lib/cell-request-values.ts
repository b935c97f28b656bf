import type { ShippingMethod } from '../../../../domain/carrier-calendar';
import { cellRequestMessages as m, type SendCellRequestInput } from '../../../../domain/cell-request';
import type { ClientRecord } from '../../../../domain/client';
import type { MethodsOnFile } from '../../../../domain/form-payment';
import { parseUsPhone, usContactMessages } from '../../../../domain/us-contact';
import { initialPaymentChoice, type PaymentChoice } from '../../../lib/payment/payment-choice';

/** Where the vials go, by the request's own field names. */
export interface ShippingAddress {
  firstName: string;
  lastName: string;
  ShippingEmail: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  country: string;
  ZipCode: string;
}

/** The Stem Cell Request Form as the client fills it in, by the request's field names. */
export interface CellRequestValues extends ShippingAddress {
  ShippingInfo: 'Preferred' | 'New';
  clinicName: string;
  saveAddressForFuture: boolean;
  AddressFedExVerified: boolean;
  /** FedEx's quote for this address and count; null until it is asked (and after any change). */
  shippingCents: number | null;
  Tissue_Info: string | null;
  Infectious_Disease: string;
  Infectious_Disease_Name: string;
  NumberOfVials: string | null;
  CPP: string;
  shipping_method: ShippingMethod;
  /** `YYYY-MM-DD`, or empty. */
  ShipmentDate: string;
  authorize: boolean;
  payment: PaymentChoice;
}

export const ADDRESS_FIELDS: { field: keyof ShippingAddress; label: string; autoComplete: string }[] = [
  { field: 'firstName', label: 'First Name', autoComplete: 'given-name' },
  { field: 'lastName', label: 'Last Name', autoComplete: 'family-name' },
  { field: 'ShippingEmail', label: 'Shipping Email', autoComplete: 'email' },
  { field: 'phone', label: 'Phone', autoComplete: 'tel' },
  { field: 'street', label: 'Street', autoComplete: 'street-address' },
  { field: 'city', label: 'City', autoComplete: 'address-level2' },
  { field: 'state', label: 'State', autoComplete: 'address-level1' },
  { field: 'ZipCode', label: 'Zip Code', autoComplete: 'postal-code' },
  { field: 'country', label: 'Country', autoComplete: 'country-name' },
];

export const emptyAddress: ShippingAddress = {
  firstName: '',
  lastName: '',
  ShippingEmail: '',
  phone: '',
  street: '',
  city: '',
  state: '',
  country: 'United States',
  ZipCode: '',
};

/**
 * The client's preferred shipping address as the form's fields; with no phone stored, the bank's
 * number (spec 3: the company's number is the default phone).
 */
export function preferredAddressOf(client: ClientRecord, bankPhone: string): ShippingAddress {
  // The record keeps one full name: the last word is the last name, the rest the first name.
  const words = client.preferredAddressContactFullName.trim().split(/\s+/).filter(Boolean);
  return {
    firstName: words.slice(0, -1).join(' ') || (words[0] ?? ''),
    lastName: words.length > 1 ? (words.at(-1) ?? '') : '',
    ShippingEmail: client.shippingClinicEmail,
    phone: client.preferredAddressPhone.replace(/\D/g, '') || bankPhone,
    street: client.preferredAddressStreet,
    city: client.preferredAddressCity,
    state: client.preferredAddressState,
    country: client.preferredAddressCountry,
    ZipCode: client.preferredAddressZip,
  };
}

export function hasPreferredAddress(client: ClientRecord): boolean {
  return Boolean(client.preferredAddressStreet && client.preferredAddressCity);
}

/** An empty form: the preferred address when there is one, the saved card by default, else the saved account. */
export function initialCellRequest(
  client: ClientRecord,
  onFile: MethodsOnFile,
  bankPhone: string,
): CellRequestValues {
  const preferred = hasPreferredAddress(client);
  return {
    ShippingInfo: preferred ? 'Preferred' : 'New',
    ...(preferred ? preferredAddressOf(client, bankPhone) : emptyAddress),
    clinicName: client.clinicName,
    saveAddressForFuture: false,
    AddressFedExVerified: false,
    shippingCents: null,
    Tissue_Info: null,
    Infectious_Disease: '',
    Infectious_Disease_Name: '',
    NumberOfVials: null,
    CPP: '',
    shipping_method: 'FedEx',
    ShipmentDate: '',
    authorize: false,
    // Spec 3: "shows the saved card or saved ACH".
    payment: {
      ...initialPaymentChoice(false),
      method: onFile.card ? 'Credit Card' : onFile.ach ? 'ACH Payment' : '',
    },
  };
}

export const vialCountOf = (values: CellRequestValues) =>
  values.NumberOfVials ? Number(values.NumberOfVials) : 0;

/** The request as the schema judges it, the payment's token and display fields aside. */
export function cellRequestOf(values: CellRequestValues): SendCellRequestInput {
  const {
    payment,
    shippingCents: _quote,
    NumberOfVials,
    CPP,
    Tissue_Info,
    Infectious_Disease,
    ...rest
  } = values;
  return {
    ...rest,
    NumberOfVials: vialCountOf(values) || undefined,
    CPP: CPP || undefined,
    Tissue_Info: Tissue_Info ?? undefined,
    Infectious_Disease: Infectious_Disease || undefined,
    PaymentMethod: payment.method === 'Check' ? undefined : payment.method || undefined,
  } as SendCellRequestInput;
}

/** The address as the carrier's verification and quote take it. */
export function carrierAddressOf(a: ShippingAddress) {
  return {
    Country: a.country,
    Street: a.street,
    City: a.city,
    State: a.state,
    ZipCode: a.ZipCode,
    Phone: a.phone,
    firstName: a.firstName,
    lastName: a.lastName,
  };
}

/** What Verify address asks before calling FedEx: every line filled, the phone a US number. */
export function addressProblems(address: ShippingAddress): Record<string, string> {
  const problems: Record<string, string> = {};
  const messages: Partial<Record<keyof ShippingAddress, string>> = {
    country: m.country,
    state: m.state,
    ZipCode: m.zipCode,
    city: m.city,
    street: m.street,
    firstName: m.firstName,
    lastName: m.lastName,
    phone: m.phone,
  };
  for (const [field, message] of Object.entries(messages)) {
    if (!address[field as keyof ShippingAddress].trim()) problems[field] = message as string;
  }
  // The phone as people type it ("(305) 555-0142"), as the server reads it (DESIGN 8.26).
  const phone = address.phone.trim() ? parseUsPhone(address.phone) : null;
  if (phone && 'problem' in phone) {
    problems.phone = phone.problem === 'notNumeric' ? m.phoneNumeric : usContactMessages.phoneLength;
  }
  return problems;
}

export function addressOf(values: CellRequestValues): ShippingAddress {
  const address = { ...emptyAddress };
  for (const { field } of ADDRESS_FIELDS) address[field] = values[field];
  return address;
}
