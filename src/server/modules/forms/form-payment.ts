import {
  type FormCardEmptyMessages,
  formPaymentProblems,
  type MethodsOnFile,
} from '../../../domain/form-payment';
import type { SetPaymentInfoRequest } from '../../../domain/payment-info';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { refuseCardExpiry } from '../payments/ledger';
import type { OrderPayment } from '../payments/paid-order';
import { findMethodsOnFile, type MethodOwner } from '../payments/payment-methods';

/** The payment part of a form body, as the domain's form-payment fields carry it. */
export interface FormPaymentBody {
  PaymentMethod?: 'Credit Card' | 'ACH Payment' | 'Check';
  update_card: boolean;
  update_ach: boolean;
  save_card: boolean;
  save_ach: boolean;
  token?: { descriptor: string; value: string };
  Credit_Card_Type?: SetPaymentInfoRequest['Credit_Card_Type'];
  Month_of_Expiry?: SetPaymentInfoRequest['Month_of_Expiry'];
  Year_of_Expiry?: string;
  Credit_Card_Holder_First_Name?: string;
  Credit_Card_Holder_Last_Name?: string;
  Credit_Card_Biling_Email_Address?: string;
  Credit_Card_Holder_Country?: string;
  Credit_Card_Billing_Street?: string;
  Credit_Card_Billing_City?: string;
  Credit_Card_Billing_State?: string;
  Credit_Card_Billing_Zip_Code?: string;
  Name_On_Account?: string;
  ABA_Routing_Number?: string;
}

/** The choice, checked against what is on file: the saved method, a new token, or a check. */
export type ResolvedPayment = OrderPayment;

/**
 * Refuses a payment choice the spec's rules refuse (400 with the failing fields), against the
 * methods its owner (the client, or a physician paying for them) has on file.
 */
export async function resolveFormPayment(
  db: Database,
  owner: MethodOwner,
  body: FormPaymentBody,
  cardEmpty: FormCardEmptyMessages,
  today: string,
): Promise<ResolvedPayment> {
  const methods = await findMethodsOnFile(db, owner);
  const onFile: MethodsOnFile = { card: Boolean(methods.card), ach: Boolean(methods.ach) };
  const method = body.PaymentMethod ?? 'Check';
  const problems = formPaymentProblems({ ...body, PaymentMethod: method }, onFile, cardEmpty);
  const first = Object.values(problems)[0];
  if (first) throw new HttpError('VALIDATION', first, problems);

  if (method === 'Check') return { kind: 'check' };
  const isCard = method === 'Credit Card';
  const useNew = isCard ? body.update_card : body.update_ach;
  const saved = isCard ? methods.card : methods.ach;
  if (!useNew && saved) return { kind: isCard ? 'card' : 'ach', onFile: saved };
  // A new card saved ("Save card") must have more than a year left, as on the payment page; one
  // used once only has to be unexpired.
  refuseCardExpiry(isCard ? 'card' : 'ach', body, today, { keptOnFile: body.save_card });
  const token: SetPaymentInfoRequest = {
    Payment_Type: isCard ? 'CC' : 'ACH',
    token: body.token as { descriptor: string; value: string },
    ...(isCard
      ? {
          Credit_Card_Type: body.Credit_Card_Type,
          Month_of_Expiry: body.Month_of_Expiry,
          Year_of_Expiry: body.Year_of_Expiry,
          Credit_Card_Holder_First_Name: body.Credit_Card_Holder_First_Name,
          Credit_Card_Holder_Last_Name: body.Credit_Card_Holder_Last_Name,
          Credit_Card_Biling_Email_Address: body.Credit_Card_Biling_Email_Address,
          Country: body.Credit_Card_Holder_Country,
          Credit_Card_Billing_Street: body.Credit_Card_Billing_Street,
          Credit_Card_Billing_City: body.Credit_Card_Billing_City,
          Credit_Card_Billing_State: body.Credit_Card_Billing_State,
          Credit_Card_Billing_Zip_Code: body.Credit_Card_Billing_Zip_Code,
        }
      : { Name_On_Account: body.Name_On_Account, ABA_Routing_Number: body.ABA_Routing_Number }),
  };
  return { kind: isCard ? 'card' : 'ach', token, keepOnFile: isCard ? body.save_card : body.save_ach };
}

/**
 * A card or bank account choice as the signed document names it once charged: the method on file
 * (brand and last 4), or a new one and whether it is kept. No token and no row: a form that a
 * recovery finishes after its owner died keeps this with its claim.
 */
export type PaymentShown =
  | { kind: 'card' | 'ach'; onFile: { brand: string | null; last4: string } }
  | { kind: 'card' | 'ach'; keepOnFile: boolean };

export function paymentShown(payment: Exclude<ResolvedPayment, { kind: 'check' }>): PaymentShown {
  return 'onFile' in payment
    ? { kind: payment.kind, onFile: { brand: payment.onFile.brand, last4: payment.onFile.last4 } }
    : { kind: payment.kind, keepOnFile: payment.keepOnFile };
}

/** How a method that paid reads: the one on file, or a new one by what the gateway saved of it. */
export function describePaidWith(
  shown: PaymentShown,
  saved: { brand: string | null; last4: string },
): string {
  if ('onFile' in shown) {
    const row = shown.onFile;
    return shown.kind === 'card'
      ? `${row.brand ?? 'Card'} ending in ${row.last4} (on file)`
      : `Bank account ending in ${row.last4} (on file)`;
  }
  return shown.kind === 'card'
    ? `${saved.brand ?? 'Card'} ending in ${saved.last4}${shown.keepOnFile ? ' (now on file)' : ''}`
    : `Bank account ending in ${saved.last4}${shown.keepOnFile ? ' (now on file)' : ''}`;
}

/** How a payment choice reads in the signed document and the e-mail. */
export function describePayment(
  payment: ResolvedPayment,
  saved?: { brand: string | null; last4: string },
): string {
  if (payment.kind === 'check') return 'Check';
  if ('onFile' in payment) return describePaidWith(paymentShown(payment), payment.onFile);
  if (saved) return describePaidWith(paymentShown(payment), saved);
  const t = payment.token;
  return payment.kind === 'card'
    ? `${t.Credit_Card_Type ?? 'Card'} of ${t.Credit_Card_Holder_First_Name ?? ''} ${t.Credit_Card_Holder_Last_Name ?? ''}, expiring ${t.Month_of_Expiry}/${t.Year_of_Expiry} (not kept on file)`
    : `Bank account of ${t.Name_On_Account ?? ''} (not kept on file)`;
}
