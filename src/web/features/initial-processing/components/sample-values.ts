import type { SampleTissue } from '../../../../domain/initial-processing';
import { emptyCard } from '../../../components/payment/card-fields';
import { initialPaymentChoice, type PaymentChoice } from '../../../lib/payment/payment-choice';

export type ClientField =
  | 'FirstName'
  | 'LastName'
  | 'Email'
  | 'PhoneNumber'
  | 'Address'
  | 'City'
  | 'State'
  | 'zipcode'
  | 'Country';

/** The new sample form as the physician fills it in, by the request's names. */
export interface SampleValues extends Record<ClientField, string> {
  Dob: string;
  Ship_date: string;
  Tissue: SampleTissue | '';
  paidBy: 'card' | 'check' | '';
  BillingName: string;
  BillingEmail: string;
  /** The card: the physician's on file, or another entered here. */
  payment: PaymentChoice;
}

export const emptySample: SampleValues = {
  FirstName: '',
  LastName: '',
  Dob: '',
  Ship_date: '',
  Email: '',
  PhoneNumber: '',
  Address: '',
  City: '',
  State: '',
  zipcode: '',
  Country: 'United States',
  Tissue: '',
  paidBy: '',
  BillingName: '',
  BillingEmail: '',
  payment: { ...initialPaymentChoice(false), card: emptyCard },
};

/** The request as the schema judges it, the card aside. */
export function sampleRequestOf(values: SampleValues) {
  const { Tissue, paidBy, BillingName, BillingEmail, payment: _card, ...client } = values;
  return {
    ...client,
    Tissue: Tissue || undefined,
    CreditCard: paidBy === '' ? undefined : paidBy === 'card',
    ...(paidBy === 'check' ? { BillingName, BillingEmail } : {}),
  };
}
