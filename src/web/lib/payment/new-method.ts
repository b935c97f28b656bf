import type { AchFormValues, CardFormValues } from '../../components/payment/card-fields';
import type { CardTokenizer } from './card-tokenizer';
import { type CheckedPayment, initialPaymentChoice, type PaymentChoice } from './payment-choice';

/** A page that takes a new card or bank account only (never one on file): which, and its fields. */
export type NewMethodKind = 'card' | 'ach' | '';

/**
 * The page's card or account as the forms' payment choice: always a new one, always kept on file
 * (the Payment Information and public payment pages save it, the newborn agreement charges its
 * installments to it), so a card needs more than a year left.
 */
export function newMethodChoice(
  kind: NewMethodKind,
  values: { card: CardFormValues; ach: AchFormValues },
): PaymentChoice {
  return {
    ...initialPaymentChoice(true),
    method: kind === 'card' ? 'Credit Card' : kind === 'ach' ? 'ACH Payment' : '',
    useAnotherCard: true,
    useAnotherAch: true,
    card: values.card,
    ach: values.ach,
  };
}

/**
 * What the server receives of a new card or account, as set_PaymentInfo names it: the gateway's
 * token and the fields a person reads back, never the numbers.
 */
export async function newMethodRequestFields(
  checked: CheckedPayment,
  _choice: PaymentChoice,
  tokenizer: CardTokenizer,
): Promise<object> {
  if (checked.card) {
    const { Credit_Card_Number: _number, CVV: _cvv, ...display } = checked.card;
    return { ...display, Payment_Type: 'CC' as const, token: await tokenizer.tokenizeCard(checked.card) };
  }
  if (checked.ach) {
    return {
      Payment_Type: 'ACH' as const,
      token: await tokenizer.tokenizeBank(checked.ach),
      Name_On_Account: checked.ach.Name_On_Account,
      ABA_Routing_Number: checked.ach.ABA_Routing_Number,
    };
  }
  return {};
}

/** The server's field names on the page's fields: the method chosen, the token on its number, and the page's own renames. */
export function newMethodFieldsOnPage(
  fields: Record<string, string>,
  kind: NewMethodKind,
  renames: Record<string, string> = {},
): Record<string, string> {
  const onPage: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) {
    const key =
      renames[field] ??
      (field === 'Payment_Type'
        ? 'method'
        : field === 'token'
          ? kind === 'ach'
            ? 'Account_Number'
            : 'Credit_Card_Number'
          : field);
    onPage[key] ??= message;
  }
  return onPage;
}
