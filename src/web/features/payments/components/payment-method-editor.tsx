import { Alert, Button, Group, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { todayFor } from '../../../../domain/client';
import { fieldMessages } from '../../../../domain/errors';
import { formatUsd } from '../../../../domain/money';
import type { SetPaymentInfoResponse } from '../../../../domain/payment-info';
import {
  achFormSchema,
  cardFeePercent,
  cardFormSchema,
  cardProcessingFee,
} from '../../../../domain/payments';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import {
  AchFields,
  type AchFormValues,
  CardFields,
  type CardFormValues,
  cardPrefilledFrom,
  emptyAch,
} from '../../../components/payment/card-fields';
import { SubmitFailure } from '../../../components/submit-failure';
import { ApiError } from '../../../lib/api-client';
import { useClient } from '../../../lib/client-record';
import { withoutChangedFields } from '../../../lib/field-errors';
import { tokenizerFor } from '../../../lib/payment/card-tokenizer';
import { submissionFailureMessage } from '../../../lib/payment/failure-message';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';
import { usePaymentConfig } from '../../../lib/payment/payment-config';
import { usePriceBook } from '../../../lib/price-book';
import { useSetPaymentInfo } from '../api/set-payment-info';

interface Props {
  kind: 'card' | 'ach';
  /** Dollars overdue now: saving the method pays them (a card adds the processing fee). */
  overdueAmount: number;
  onCancel(): void;
  onSaved(response: SetPaymentInfoResponse): void;
}

/** The Edit form of one payment method: validated here, tokenized by the gateway, saved by the server. */
export function PaymentMethodEditor({ kind, overdueAmount, onCancel, onSaved }: Props) {
  const today = todayFor(new Date());
  const config = usePaymentConfig();
  const book = usePriceBook();
  const save = useSetPaymentInfo();
  const queryClient = useQueryClient();
  const client = useClient();
  // The card's billing address starts as the client's address of record; the client may change it.
  const [card, setCard] = useState<CardFormValues>(() => cardPrefilledFrom(client.data));
  const [ach, setAch] = useState<AchFormValues>(emptyAch);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [tokenizing, setTokenizing] = useState(false);
  const submitting = useRef(false);

  const overdueCents = Math.round(overdueAmount * 100);
  const feeCents = cardProcessingFee(book, overdueCents, kind);
  const busy = tokenizing || save.isPending;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting.current || !config.data) return;
    const form = event.currentTarget;
    const parsed = kind === 'card' ? cardFormSchema(today).safeParse(card) : achFormSchema.safeParse(ach);
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    setFailure(null);
    submitting.current = true;
    setTokenizing(true);
    try {
      const tokenizer = tokenizerFor(config.data);
      const idempotencyKey = crypto.randomUUID();
      if (parsed.data && 'Credit_Card_Number' in parsed.data) {
        const token = await tokenizer.tokenizeCard(parsed.data);
        const { Credit_Card_Number: _number, CVV: _cvv, ...display } = parsed.data;
        setTokenizing(false);
        onSaved(
          await save.mutateAsync({
            request: { Payment_Type: 'CC', token, ...display, expectedTotalCents: overdueCents + feeCents },
            idempotencyKey,
          }),
        );
      } else if (parsed.data) {
        const token = await tokenizer.tokenizeBank(parsed.data);
        setTokenizing(false);
        onSaved(
          await save.mutateAsync({
            request: {
              Payment_Type: 'ACH',
              token,
              Name_On_Account: parsed.data.Name_On_Account,
              ABA_Routing_Number: parsed.data.ABA_Routing_Number,
              expectedTotalCents: overdueCents,
            },
            idempotencyKey,
          }),
        );
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'AMOUNT_CHANGED') {
        await queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey });
      }
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields);
      setFailure(submissionFailureMessage(error));
    } finally {
      submitting.current = false;
      setTokenizing(false);
    }
  };

  // A field's error goes as soon as the field changes.
  const edit =
    <T extends object>(current: T, setValues: (next: T) => void) =>
    (next: T) => {
      setErrors((e) => withoutChangedFields(e, current, next));
      setValues(next);
    };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={kind === 'card' ? 'Credit card' : 'ACH payment'}>
      <Stack>
        {kind === 'card' ? (
          <CardFields
            values={card}
            onChange={edit(card, setCard)}
            errors={errors}
            today={today}
            disabled={busy}
          />
        ) : (
          <AchFields values={ach} onChange={edit(ach, setAch)} errors={errors} disabled={busy} />
        )}
        {overdueCents > 0 && (
          <Alert color="yellow" variant="light" p="xs">
            Saving will pay the overdue total now: {formatUsd(overdueCents)}
            {feeCents > 0
              ? ` + ${formatUsd(feeCents)} card processing fee (${cardFeePercent(book)}) = ${formatUsd(overdueCents + feeCents)}`
              : ' (no fee by ACH)'}
            .
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy} disabled={!config.data}>
            Save
          </Button>
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        </Group>
        <SubmitFailure message={failure} />
      </Stack>
    </form>
  );
}
