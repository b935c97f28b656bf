import { Button, Checkbox, Fieldset, Group, Radio, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { todayFor } from '../../../../domain/client';
import {
  type AmountDue,
  type ClientVerificationRequest,
  verificationMessages as v,
} from '../../../../domain/client-verification';
import { formatUsd } from '../../../../domain/money';
import type { SetPublicPaymentInfoRequest } from '../../../../domain/payment-info';
import { cardFeePercent } from '../../../../domain/payments';
import { LoadingSpinner } from '../../../components/loading-spinner';
import {
  AchFields,
  type AchFormValues,
  CardFields,
  type CardFormValues,
  emptyAch,
  emptyCard,
} from '../../../components/payment/card-fields';
import { PublicShell } from '../../../components/public-shell';
import { SubmitFailure } from '../../../components/submit-failure';
import { withoutChangedFields } from '../../../lib/field-errors';
import { usePayingForm } from '../../../lib/paying-form';
import {
  newMethodChoice,
  newMethodFieldsOnPage,
  newMethodRequestFields,
} from '../../../lib/payment/new-method';
import { priceBookQueryKey, usePriceBook } from '../../../lib/price-book';
import { replaceSignedLinkWith, takeSignedLink } from '../../../lib/signed-link';
import { usePublicPaymentResult, usePublicPaymentSave, useVerifyClient } from '../api/public-payment';
import { AmountDueSummary, type PublicPaymentMethod, totalFor } from './amount-due-summary';
import {
  ClientIdentificationFieldset,
  type Confirmation,
  type IdentificationMode,
} from './client-identification-fieldset';
import { PaidNotice, ResultGoneNotice } from './public-payment-result';

interface PublicPaymentValues {
  method: PublicPaymentMethod;
  card: CardFormValues;
  ach: AchFormValues;
  agree: boolean;
}

/** The page's card or account as the forms' payment choice: always a new one, never kept but here. */
const choiceOf = (values: PublicPaymentValues) => newMethodChoice(values.method, values);

/** Beside the button after the server refused the total shown; `total` is the new one shown. */
function amountChangedMessage(total: number): string {
  return total > 0
    ? `The amount due has changed. The new total is ${formatUsd(total)}: please check it above before you pay.`
    : 'The amount due has changed: nothing is due now. Please check it above before you save.';
}

/** The save's result token in the address (`?result=`): a reload after paying reads it again. */
const resultInAddress = () => new URLSearchParams(window.location.search).get('result');

/**
 * The public single-payment page reached from an e-mailed (`email`) or texted (`sms`) link. The
 * visitor identifies the client first, then (and only then) sees what is due and saves a card or
 * bank account for overdue and future annual storage fees. A signed link (`?t=`) identifies the
 * client without the form; it is kept in the page's history entry, so a reload (or Back to the
 * page) confirms the client again with it and shows the bill again. After saving, the address
 * names the save (`?result=`), so a reload shows what was paid, read from the server: nothing of
 * either is kept in the browser's storage, and no card or account number anywhere.
 */
export function PublicPaymentPage({ page }: { page: 'email' | 'sms' }) {
  const today = todayFor(new Date());
  const book = usePriceBook();
  const verifyClient = useVerifyClient();
  const save = usePublicPaymentSave();
  const queryClient = useQueryClient();
  const [verification, setVerification] = useState<string | null>(null);
  const [amountDue, setAmountDue] = useState<AmountDue | null>(null);
  /** The signed link the page was opened with, from the address or, after a reload, its history entry. */
  const [signedLink] = useState(() => (resultInAddress() ? null : takeSignedLink()));
  /** The client the signed link confirmed (its Client ID), once the server has said so. */
  const [byLink, setByLink] = useState<string | null>(null);
  /** The signed link is being checked: the page says so rather than showing the form it may not need. */
  const [checkingLink, setCheckingLink] = useState(signedLink !== null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [mode, setMode] = useState<IdentificationMode>('');
  const [resultToken, setResultToken] = useState<string | null>(resultInAddress);
  const result = usePublicPaymentResult(resultToken);
  /** The server refused the total shown (409): the figures were read again, and the page says so. */
  const [amountChanged, setAmountChanged] = useState(false);
  const linkChecked = useRef(false);
  /** The confirmation that read the amount due, to read it again if the server says it changed. */
  const confirmedBy = useRef<ClientVerificationRequest | null>(null);

  const confirm = ({ request, verification, amountDue }: Confirmation) => {
    confirmedBy.current = request;
    setVerification(verification);
    setAmountDue(amountDue);
  };
  const forgetConfirmation = () => {
    setVerification(null);
    setAmountDue(null);
    setByLink(null);
    confirmedBy.current = null;
  };

  const form = usePayingForm<PublicPaymentValues, object, Awaited<ReturnType<typeof save.mutateAsync>>>({
    initialValues: { method: page === 'email' ? 'card' : '', card: emptyCard, ach: emptyAch, agree: false },
    validate: (values) => {
      const found: Record<string, string> = {};
      if (!verification && !mode) found.mode = v.chooseOption;
      if (!verification) found.verify = v.confirmFirst;
      if (!values.method) found.method = v.chooseMethod;
      if (!values.agree) found.agree = v.agree;
      return found;
    },
    payment: {
      choice: choiceOf,
      onFile: { card: false, ach: false },
      today,
      requestFields: newMethodRequestFields,
    },
    // The total this page showed: if the bill changed meanwhile, the server charges nothing.
    amount: (values) => (amountDue ? totalFor(amountDue, values.method) : null),
    request: () => ({ verification, agree: true as const, page, ClientSFRecordId: undefined }),
    send: (request, idempotencyKey) =>
      save.mutateAsync({ request: request as SetPublicPaymentInfoRequest, idempotencyKey }),
    onSuccess: (response) => {
      replaceSignedLinkWith(`?result=${encodeURIComponent(response.result)}`);
      setResultToken(response.result);
      window.scrollTo({ top: 0 });
    },
    fieldsOnPage: (fields, values) => newMethodFieldsOnPage(fields, values.method),
    onRefused: async (error) => {
      // The confirmation expired (15 minutes): ask for it again.
      if (error.fields.verify) forgetConfirmation();
      // The new figures are shown (summary and button): the client checks them before paying.
      if (error.code === 'AMOUNT_CHANGED' && (await readAmountDueAgain())) {
        setAmountChanged(true);
        return true;
      }
      return false;
    },
  });
  const { values, errors } = form;
  const { setErrors } = form.form;

  // A signed link identifies the client, on opening and again on each reload of the page.
  useEffect(() => {
    if (linkChecked.current || !signedLink) return;
    linkChecked.current = true;
    const request = { mode: 'link' as const, t: signedLink };
    verifyClient.mutate(request, {
      onSuccess: (data) => {
        confirmedBy.current = request;
        setVerification(data.verification);
        setAmountDue(data.amountDue);
        setByLink(data.ClientId ?? '');
      },
      onError: (error) => setLinkError(error.message),
      onSettled: () => setCheckingLink(false),
    });
  }, [verifyClient, signedLink]);

  /**
   * After a 409 AMOUNT_CHANGED: reads the amount due (and the price book, for the card fee) again,
   * as the confirmation read it, so the page shows, and the next save sends, the server's total.
   * False if it could not be read: the client then confirms again, which reads it.
   */
  const readAmountDueAgain = async (): Promise<boolean> => {
    const request = confirmedBy.current;
    try {
      if (!request) throw new Error('not confirmed');
      const [data] = await Promise.all([
        verifyClient.mutateAsync(request),
        queryClient.invalidateQueries({ queryKey: priceBookQueryKey }),
      ]);
      setVerification(data.verification);
      setAmountDue(data.amountDue);
      return true;
    } catch {
      forgetConfirmation();
      setErrors({ verify: v.confirmFirst });
      return false;
    }
  };

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    setAmountChanged(false);
    form.onSubmit(event);
  };

  const onCancel = () => {
    form.patch({ card: emptyCard, ach: emptyAch, agree: false });
    setErrors({});
    form.setFailure(null);
    setAmountChanged(false);
  };

  // A field's message goes as soon as the field changes.
  const edit =
    <K extends 'card' | 'ach'>(key: K) =>
    (next: PublicPaymentValues[K]) => {
      setErrors((current) => withoutChangedFields(current as Record<string, string>, values[key], next));
      form.patch({ [key]: next } as Partial<PublicPaymentValues>);
    };

  const confirmed = verification !== null;
  const total = amountDue && values.method ? totalFor(amountDue, values.method) : 0;
  const saveLabel =
    total > 0
      ? `Pay ${formatUsd(total)} and save ${values.method === 'card' ? 'card' : 'bank account'}`
      : values.method === 'card'
        ? 'Save card'
        : values.method === 'ach'
          ? 'Save bank account'
          : 'Save';

  // A result token the server does not know (expired, altered): say so above the form.
  const resultGone = resultToken !== null && result.isError;
  if (resultToken !== null && !resultGone) {
    return (
      <PublicShell title="Update Payment Information" width={760}>
        {result.data ? (
          <PaidNotice result={result.data} token={resultToken} />
        ) : (
          <LoadingSpinner label="Loading the payment" mx="auto" display="block" />
        )}
      </PublicShell>
    );
  }

  return (
    <PublicShell title="Update Payment Information" width={760}>
      <form {...form.formProps} onSubmit={onSave} aria-label="Update payment information">
        <Stack gap="lg">
          {resultGone && <ResultGoneNotice message={result.error.message} />}
          <ClientIdentificationFieldset
            today={today}
            checkingLink={checkingLink}
            byLink={byLink}
            linkError={linkError}
            mode={mode}
            onModeChange={setMode}
            confirmed={confirmed}
            onConfirmed={confirm}
            errors={errors}
            setErrors={setErrors}
          />

          {!confirmed && (
            <Text size="sm">
              Once the client is confirmed, this page shows what is due and asks for the card or bank account.
            </Text>
          )}
          {confirmed && (
            <>
              <Fieldset legend="Payment Method" radius="md">
                <Stack>
                  <Radio.Group
                    label="Pay by"
                    value={values.method}
                    onChange={(method) => form.patch({ method: method as PublicPaymentMethod })}
                    error={errors.method}
                  >
                    <Group mt="xs">
                      <Radio value="card" label="Credit Card" />
                      <Radio value="ach" label="ACH Payment" />
                    </Group>
                  </Radio.Group>
                  <Text size="sm">
                    A {cardFeePercent(book)} processing fee applies to card payments. Pay by ACH to avoid it.
                  </Text>
                  {values.method === 'card' && (
                    <CardFields
                      values={values.card}
                      onChange={edit('card')}
                      errors={errors}
                      today={today}
                      disabled={form.submitting}
                    />
                  )}
                  {values.method === 'ach' && (
                    <AchFields
                      values={values.ach}
                      onChange={edit('ach')}
                      errors={errors}
                      disabled={form.submitting}
                    />
                  )}
                </Stack>
              </Fieldset>

              {amountDue && <AmountDueSummary amountDue={amountDue} method={values.method} />}

              <Checkbox
                {...form.form.getInputProps('agree', { type: 'checkbox' })}
                label="I am the owner of this card or bank account, and I authorize the bank to store this payment information and use it for overdue and future annual storage fees."
              />
              <Stack gap="xs">
                <Group>
                  <Button type="submit" loading={form.submitting}>
                    {saveLabel}
                  </Button>
                  <Button variant="default" onClick={onCancel} disabled={form.submitting}>
                    Cancel
                  </Button>
                </Group>
                <SubmitFailure message={amountChanged ? amountChangedMessage(total) : form.failure} />
              </Stack>
            </>
          )}
        </Stack>
      </form>
    </PublicShell>
  );
}
