import { Alert, Button, Group, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { todayFor } from '../../../../domain/client';
import { formatUsd } from '../../../../domain/money';
import type { SetPaymentInfoRequest, SetPaymentInfoResponse } from '../../../../domain/payment-info';
import { cardFeePercent, type StorageCharge } from '../../../../domain/payments';
import {
  AchFields,
  type AchFormValues,
  CardFields,
  type CardFormValues,
  cardPrefilledFrom,
  emptyAch,
  emptyCard,
} from '../../../components/payment/card-fields';
import { SubmitFailure } from '../../../components/submit-failure';
import { useClient } from '../../../lib/client-record';
import { withoutChangedFields } from '../../../lib/field-errors';
import { usePayingForm } from '../../../lib/paying-form';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';
import { newMethodChoice, newMethodRequestFields } from '../../../lib/payment/new-method';
import { usePriceBook } from '../../../lib/price-book';
import { useSetPaymentInfo } from '../api/set-payment-info';
import { useSetPhysicianPaymentInfo } from '../api/set-physician-payment-info';

interface Props {
  kind: 'card' | 'ach';
  /**
   * What saving this kind of method charges now for the overdue annual storage (the server's
   * figures: each year at the amount its notice fixed, an older year with the card fee).
   */
  overdue: StorageCharge;
  onCancel(): void;
  onSaved(response: SetPaymentInfoResponse): void;
}

interface EditorProps extends Props {
  initialCard: CardFormValues;
  send(request: SetPaymentInfoRequest, idempotencyKey: string): Promise<SetPaymentInfoResponse>;
}

interface MethodValues {
  card: CardFormValues;
  ach: AchFormValues;
}

/** The client's Edit form of one payment method: the card's billing address starts as theirs. */
export function PaymentMethodEditor(props: Props) {
  const save = useSetPaymentInfo();
  const client = useClient();
  return (
    <MethodEditor
      {...props}
      // The card's billing address starts as the client's address of record; the client may change it.
      initialCard={cardPrefilledFrom(client.data)}
      send={(request, idempotencyKey) => save.mutateAsync({ request, idempotencyKey })}
    />
  );
}

/**
 * The physician's own card or bank account (the physician portal's Payment Information page):
 * nothing is overdue, nothing is charged, and no client's address is offered.
 */
export function PhysicianPaymentMethodEditor(props: Omit<Props, 'overdue'>) {
  const save = useSetPhysicianPaymentInfo();
  return (
    <MethodEditor
      {...props}
      overdue={{ amountCents: 0, feeCents: 0, totalCents: 0 }}
      initialCard={emptyCard}
      send={(request, idempotencyKey) => save.mutateAsync({ request, idempotencyKey })}
    />
  );
}

/** The Edit form of one payment method: validated here, tokenized by the gateway, saved by the server. */
function MethodEditor({ kind, overdue, onCancel, onSaved, initialCard, send }: EditorProps) {
  const today = todayFor(new Date());
  const book = usePriceBook();
  const queryClient = useQueryClient();
  const { amountCents: overdueCents, feeCents, totalCents } = overdue;

  const form = usePayingForm<MethodValues, object, SetPaymentInfoResponse>({
    initialValues: { card: initialCard, ach: emptyAch },
    validate: () => ({}),
    payment: {
      choice: (values) => newMethodChoice(kind, values),
      onFile: { card: false, ach: false },
      today,
      requestFields: newMethodRequestFields,
    },
    // Saving pays the overdue total (the card with its fee): the server charges nothing if it differs.
    amount: () => totalCents,
    charges: () => overdueCents > 0,
    request: () => ({}),
    send: (request, idempotencyKey) => send(request as SetPaymentInfoRequest, idempotencyKey),
    onSuccess: onSaved,
    // The server's names are the page's (the card's Country included): no mapping.
    fieldsOnPage: (fields) => fields,
    onRefused: async (error) => {
      if (error.code === 'AMOUNT_CHANGED')
        await queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey });
    },
  });
  const { values, errors } = form;
  const busy = form.submitting;

  // A field's error goes as soon as the field changes.
  const edit =
    <K extends keyof MethodValues>(key: K) =>
    (next: MethodValues[K]) => {
      form.form.setErrors((current) =>
        withoutChangedFields(current as Record<string, string>, values[key], next),
      );
      form.patch({ [key]: next } as Partial<MethodValues>);
    };

  return (
    <form {...form.formProps} aria-label={kind === 'card' ? 'Credit card' : 'ACH payment'}>
      <Stack>
        {kind === 'card' ? (
          <CardFields
            values={values.card}
            onChange={edit('card')}
            errors={errors}
            today={today}
            disabled={busy}
          />
        ) : (
          <AchFields values={values.ach} onChange={edit('ach')} errors={errors} disabled={busy} />
        )}
        {overdueCents > 0 && (
          <Alert color="yellow" variant="light" p="xs">
            Saving will pay the overdue total now: {formatUsd(overdueCents)}
            {feeCents > 0
              ? ` + ${formatUsd(feeCents)} card processing fee (${cardFeePercent(book)}) = ${formatUsd(totalCents)}`
              : kind === 'ach'
                ? ' (no fee by ACH)'
                : ''}
            .
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy} disabled={!form.ready}>
            {form.payLabel('Save')}
            {overdueCents > 0 ? ` and save ${kind === 'card' ? 'card' : 'bank account'}` : ''}
          </Button>
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        </Group>
        <SubmitFailure message={form.failure} />
      </Stack>
    </form>
  );
}
