import type { z } from 'zod';
import { fieldMessages } from '../../../domain/errors';
import {
  type FormPaymentMethod,
  type formPaymentFields,
  formPaymentProblems,
  type MethodsOnFile,
} from '../../../domain/form-payment';
import {
  type AchForm,
  achFormSchema,
  type CardEmptyMessages,
  type CardForm,
  cardFormSchema,
} from '../../../domain/payments';
import {
  type AchFormValues,
  type CardFormValues,
  emptyAch,
  emptyCard,
} from '../../components/payment/card-fields';
import type { CardTokenizer } from './card-tokenizer';

/** The payment part of a form as the person fills it in: numbers stay here until the gateway. */
export interface PaymentChoice {
  method: FormPaymentMethod | '';
  useAnotherCard: boolean;
  useAnotherAch: boolean;
  saveCard: boolean;
  saveAch: boolean;
  card: CardFormValues;
  ach: AchFormValues;
}

export function initialPaymentChoice(save: boolean): PaymentChoice {
  return {
    method: '',
    useAnotherCard: false,
    useAnotherAch: false,
    saveCard: save,
    saveAch: save,
    card: emptyCard,
    ach: emptyAch,
  };
}

/** The card on file is the choice shown by default once it is known (spec 2: "A saved card is shown by default"). */
export function withSavedCardByDefault(choice: PaymentChoice, cardOnFile: boolean): PaymentChoice {
  return choice.method === '' && cardOnFile ? { ...choice, method: 'Credit Card' } : choice;
}

/** With no card on file, a card payment is always a new card. */
export function usesNewCard(choice: PaymentChoice, onFile: MethodsOnFile): boolean {
  return choice.method === 'Credit Card' && (choice.useAnotherCard || !onFile.card);
}

/** A new account only when asked for: with none on file the form says so (spec 2, section 8). */
export function usesNewAch(choice: PaymentChoice): boolean {
  return choice.method === 'ACH Payment' && choice.useAnotherAch;
}

export interface CheckedPayment {
  problems: Record<string, string>;
  card?: CardForm;
  ach?: AchForm;
}

/**
 * The payment rules the page checks before anything leaves it: a new card or account by the
 * spec's field rules, a saved one must be on file. Choosing no method is the form schema's to report.
 */
export function checkPaymentChoice(
  choice: PaymentChoice,
  onFile: MethodsOnFile,
  today: string,
  cardEmpty: CardEmptyMessages,
): CheckedPayment {
  if (!choice.method) return { problems: {} };
  if (usesNewCard(choice, onFile)) {
    // A card kept on file needs more than a year left; one used once only has to be unexpired.
    const schema = cardFormSchema(today, { keptOnFile: choice.saveCard, whenEmpty: cardEmpty });
    const parsed = schema.safeParse(choice.card);
    return parsed.success ? { problems: {}, card: parsed.data } : { problems: fieldMessages(parsed.error) };
  }
  if (usesNewAch(choice)) {
    const parsed = achFormSchema.safeParse(choice.ach);
    return parsed.success ? { problems: {}, ach: parsed.data } : { problems: fieldMessages(parsed.error) };
  }
  const noNames = { first: '', last: '', month: '', year: '' };
  return {
    problems: formPaymentProblems(
      { PaymentMethod: choice.method, update_card: false, update_ach: false },
      onFile,
      noNames,
    ),
  };
}

export type FormPaymentBody = {
  [K in keyof typeof formPaymentFields]?: z.input<(typeof formPaymentFields)[K]>;
};

/**
 * What the server receives of the payment choice: a gateway token and the display fields for a
 * new card or account, never its numbers; for a saved method only which one.
 */
export async function paymentRequestFields(
  method: FormPaymentMethod,
  checked: CheckedPayment,
  choice: PaymentChoice,
  tokenizer: CardTokenizer,
): Promise<FormPaymentBody> {
  const none = { update_card: false, update_ach: false, save_card: false, save_ach: false };
  if (checked.card) {
    const { Credit_Card_Number: _number, CVV: _cvv, Country, ...display } = checked.card;
    const token = await tokenizer.tokenizeCard(checked.card);
    return {
      ...none,
      PaymentMethod: method,
      update_card: true,
      save_card: choice.saveCard,
      token,
      ...display,
      Credit_Card_Holder_Country: Country,
    };
  }
  if (checked.ach) {
    const token = await tokenizer.tokenizeBank(checked.ach);
    return {
      ...none,
      PaymentMethod: method,
      update_ach: true,
      save_ach: choice.saveAch,
      token,
      Name_On_Account: checked.ach.Name_On_Account,
      ABA_Routing_Number: checked.ach.ABA_Routing_Number,
    };
  }
  return { ...none, PaymentMethod: method };
}

/** Server field names to the fields this page shows them on. */
export function fieldsOnPage(
  fields: Record<string, string>,
  method: FormPaymentMethod | '',
): Record<string, string> {
  const onPage: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) {
    const key =
      field === 'Credit_Card_Holder_Country'
        ? 'Country'
        : field === 'Payment_Type'
          ? 'PaymentMethod'
          : field === 'token'
            ? method === 'ACH Payment'
              ? 'Account_Number'
              : 'Credit_Card_Number'
            : field;
    onPage[key] ??= message;
  }
  return onPage;
}
