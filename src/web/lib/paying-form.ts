import { useForm } from '@mantine/form';
import { type FormEvent, useCallback, useRef, useState } from 'react';
import type { FormPaymentMethod, MethodsOnFile } from '../../domain/form-payment';
import { formatUsd } from '../../domain/money';
import type { CardEmptyMessages } from '../../domain/payments';
import { focusFirstInvalid } from '../components/focus-first-invalid';
import { ApiError } from './api-client';
import { withoutChangedFields } from './field-errors';
import type { CardTokenizer } from './payment/card-tokenizer';
import { tokenizerFor } from './payment/card-tokenizer';
import { submissionFailureMessage } from './payment/failure-message';
import {
  type CheckedPayment,
  checkPaymentChoice,
  fieldsOnPage,
  type PaymentChoice,
  paymentRequestFields,
} from './payment/payment-choice';
import { usePaymentConfig } from './payment/payment-config';

/** The fields of a payment choice whose messages a new method (or "use another") clears. */
const PAYMENT_FIELDS = [
  'PaymentMethod',
  'update_card',
  'update_ach',
  'save_card',
  'save_ach',
  'Credit_Card_Number',
  'Credit_Card_Type',
  'CVV',
  'Month_of_Expiry',
  'Year_of_Expiry',
  'Credit_Card_Holder_First_Name',
  'Credit_Card_Holder_Last_Name',
  'Credit_Card_Biling_Email_Address',
  'Country',
  'Credit_Card_Billing_Street',
  'Credit_Card_Billing_City',
  'Credit_Card_Billing_State',
  'Credit_Card_Billing_Zip_Code',
  'Name_On_Account',
  'Account_Number',
  'ABA_Routing_Number',
];

/** The payment choice's messages still standing after it changed. */
export function paymentErrorsAfter(
  errors: Record<string, string>,
  before: PaymentChoice,
  after: PaymentChoice,
): Record<string, string> {
  const anotherWay =
    before.method !== after.method ||
    before.useAnotherCard !== after.useAnotherCard ||
    before.useAnotherAch !== after.useAnotherAch;
  if (anotherWay) {
    const kept = { ...errors };
    for (const field of PAYMENT_FIELDS) delete kept[field];
    return kept;
  }
  return withoutChangedFields(withoutChangedFields(errors, before.card, after.card), before.ach, after.ach);
}

/** What the request carries besides the form's own fields: the payment and the total shown. */
export type PaymentFields = Record<string, unknown> & { expectedTotalCents?: number };

export interface PayingFormOptions<Values extends object, Request extends object, Response> {
  initialValues: Values;
  /**
   * The form's checks before anything leaves the page, as field → message: the domain schema
   * (`zodResolver`) and the page's own rules. The payment choice's are added by the hook.
   */
  validate(values: Values): Record<string, string>;
  /** How the form pays; absent for a form that never takes money. */
  payment?: {
    /** The choice in the values (the forms keep it at `payment`). */
    choice(values: Values): PaymentChoice;
    /** Whether this submission pays at all (White Glove does; a local lab report does not). */
    applies?(values: Values): boolean;
    onFile: MethodsOnFile;
    today: string;
    /** The form's own words for an empty new-card field. */
    cardEmpty?: CardEmptyMessages;
    /** The card's messages by the page's names, where a form's own field has a card field's name. */
    problemsOnPage?(problems: Record<string, string>): Record<string, string>;
    /** The request's payment fields; by default the forms' (a token for a new card or account). */
    requestFields?(checked: CheckedPayment, choice: PaymentChoice, tokenizer: CardTokenizer): Promise<object>;
  };
  /**
   * The amount the page shows for these values and the button names, in cents; sent as
   * `expectedTotalCents`, so the server charges nothing if its own total differs. Null while it is
   * not known (nothing chosen yet, no quote).
   */
  amount(values: Values): number | null;
  /** Whether pressing the button takes the amount now (not a check to mail); by default it does. */
  charges?(values: Values): boolean;
  /** The request from the values, payment aside. */
  request(values: Values): Request;
  send(request: Request & PaymentFields, idempotencyKey: string): Promise<Response>;
  onSuccess(response: Response, values: Values): void;
  /** The server's field names onto the form's; by default the payment fields' page names. */
  fieldsOnPage?(fields: Record<string, string>, values: Values): Record<string, string>;
  /**
   * The server refused: refresh what the page knows. True (or a promise of it) when the page says
   * what happened itself: the server's message is then not shown under the button.
   */
  onRefused?(error: ApiError, values: Values): unknown;
  /** The checks refused (their messages are on the fields, the first invalid one focused). */
  onInvalid?(errors: Record<string, string>, values: Values): void;
  /** Ask first (a Yes/No dialog) between the checks and the charge. */
  confirmFirst?: boolean;
}

/** A submission as sent: a retry under the same key must send the same body (one token, one charge). */
interface Sent<Request> {
  /** The values, request and amount it was made from (card numbers too), to tell a retry from a change. */
  fingerprint: string;
  request: Request;
}

const newKey = () => crypto.randomUUID();

/** No answer came (no connection, a gateway or server busy): the outcome is unknown, retry as is. */
function unanswered(error: unknown): boolean {
  return error instanceof ApiError && [0, 502, 503, 504].includes(error.status);
}

/**
 * A form that takes money, held in `@mantine/form`: its values and field errors (the domain's
 * schema through the page's `validate`, the payment choice's rules), the card or account tokenized
 * by the gateway, one Idempotency-Key per submission, the amount the button names sent to be
 * checked, the server's field messages put on their fields and its message under the button, and
 * one submission at a time.
 *
 * The key: a retry of a submission that got no answer resends the same request (the same token)
 * under the same key, so it is charged at most once; once the server has answered (success or
 * refusal), the next press is a new submission with a new key. Values changed after an unanswered
 * submission are sent under its key: the server refuses a different body for a key it has seen.
 */
export function usePayingForm<Values extends object, Request extends object, Response>(
  options: PayingFormOptions<Values, Request, Response>,
) {
  const config = usePaymentConfig();
  const { payment } = options;
  const pays = (values: Values) => Boolean(payment && (payment.applies?.(values) ?? true));
  const checkedPayment = (values: Values): CheckedPayment | null =>
    payment && pays(values)
      ? checkPaymentChoice(payment.choice(values), payment.onFile, payment.today, payment.cardEmpty ?? {})
      : null;

  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: options.initialValues,
    validate: (values) => {
      const problems = checkedPayment(values)?.problems ?? {};
      return { ...options.validate(values), ...(payment?.problemsOnPage?.(problems) ?? problems) };
    },
  });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Values | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const inFlight = useRef(false);
  const key = useRef(newKey());
  const answered = useRef(false);
  const sent = useRef<Sent<Request & PaymentFields> | null>(null);

  // The form as last rendered, for the callbacks below that stay the same from render to render
  // (a page's effects call them).
  const latest = useRef(form);
  latest.current = form;
  const getValues = useCallback(() => latest.current.getValues(), []);
  const patch = useCallback((values: Partial<Values>) => {
    const current = latest.current.getValues() as Record<string, unknown>;
    const set = latest.current.setFieldValue as (path: string, value: unknown) => void;
    for (const [path, value] of Object.entries(values)) {
      if (current[path] !== value) set(path, value);
    }
  }, []);

  const errors = form.errors as Record<string, string>;
  const setError = (field: string, message: string | null) =>
    form.setErrors((current) => {
      const next = { ...current };
      if (message) next[field] = message;
      else delete next[field];
      return next;
    });
  const setField = form.setFieldValue as (path: string, value: unknown) => void;

  const buildRequest = async (values: Values, tokenizer: CardTokenizer): Promise<Request & PaymentFields> => {
    const request = options.request(values);
    const checked = checkedPayment(values);
    const choice = payment?.choice(values);
    const amount = options.amount(values);
    const total = amount === null ? {} : { expectedTotalCents: amount };
    if (!checked || !choice || !payment) return { ...request, ...total };
    const fields = payment.requestFields
      ? await payment.requestFields(checked, choice, tokenizer)
      : choice.method
        ? await paymentRequestFields(choice.method, checked, choice, tokenizer)
        : {};
    return { ...request, ...fields, ...total };
  };

  const toPage = (fields: Record<string, string>, values: Values) =>
    options.fieldsOnPage
      ? options.fieldsOnPage(fields, values)
      : fieldsOnPage(fields, (payment?.choice(values).method ?? '') as FormPaymentMethod | '');

  const charge = async (values: Values) => {
    if (inFlight.current || !config.data) return;
    inFlight.current = true;
    setBusy(true);
    setFailure(null);
    if (answered.current) {
      key.current = newKey();
      sent.current = null;
      answered.current = false;
    }
    const fingerprint = JSON.stringify([values, options.request(values), options.amount(values)]);
    try {
      if (sent.current?.fingerprint !== fingerprint) {
        sent.current = { fingerprint, request: await buildRequest(values, tokenizerFor(config.data)) };
      }
      const response = await options.send(sent.current.request, key.current);
      answered.current = true;
      options.onSuccess(response, values);
    } catch (error) {
      if (error instanceof ApiError && !unanswered(error)) answered.current = true;
      if (error instanceof ApiError) {
        const fields = toPage(error.fields, values);
        if (Object.keys(fields).length > 0) {
          form.setErrors(fields);
          focusFirstInvalid(formRef.current);
        }
        if ((await options.onRefused?.(error, values)) === true) return;
      }
      setFailure(submissionFailureMessage(error));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const onSubmit = (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    if (inFlight.current || !config.data) return;
    form.onSubmit(
      (values) => (options.confirmFirst ? setConfirming(values) : charge(values)),
      (found, values) => {
        setFailure(null);
        focusFirstInvalid(formRef.current);
        options.onInvalid?.(found as Record<string, string>, values);
      },
    )(event);
  };

  // Read when asked, not here: a page's amount may read queries declared after this hook.
  const amountNow = () => options.amount(form.getValues());
  return {
    form,
    values: form.values,
    errors,
    /** Spread on the <form>: its node (to focus the first invalid field) and its submit. */
    formProps: { ref: formRef, onSubmit, noValidate: true },
    onSubmit,
    /** Tokenizing or sending. */
    submitting: busy,
    /** The tokenizer's settings are loaded: the form can be sent. */
    ready: Boolean(config.data),
    /** The server's or the gateway's refusal, for under the button. */
    failure,
    setFailure,
    /** The button's words: the amount it takes ("Pay $463.50"), or `fallback` while none is known. */
    payLabel(fallback = 'Submit') {
      const amount = amountNow();
      const charges = options.charges?.(form.getValues()) ?? true;
      return charges && amount !== null && amount > 0 ? `Pay ${formatUsd(amount)}` : fallback;
    },
    /**
     * Sets the fields given, clearing the messages of those that change only (Mantine's setValues
     * clears them all). The same function at every render.
     */
    patch,
    /** The values now (not as last rendered). The same function at every render. */
    getValues,
    /** A new payment choice: the messages it answered go, and so does the refusal of the last one. */
    setPayment(next: PaymentChoice, path = 'payment') {
      const before = (form.getValues() as Record<string, unknown>)[path] as PaymentChoice;
      setField(path, next);
      form.setErrors((current) => paymentErrorsAfter(current as Record<string, string>, before, next));
      setFailure(null);
    },
    /** Moves focus to the first field marked invalid (after a check the page runs itself). */
    focusInvalid: () => focusFirstInvalid(formRef.current),
    /**
     * Sets or clears one field's message. By an update of the errors as they will be, not as the
     * last render saw them: Mantine's setFieldError and clearFieldError compare with the latter, so
     * two in one event can undo each other.
     */
    setError,
    clearError: (field: string) => setError(field, null),
    /** The Yes/No question before the charge, when `confirmFirst`. */
    confirmation: {
      opened: confirming !== null,
      accept() {
        const values = confirming;
        setConfirming(null);
        if (values) void charge(values);
      },
      dismiss: () => setConfirming(null),
    },
  };
}

export type PayingForm<Values extends object> = ReturnType<typeof usePayingForm<Values, object, unknown>>;
