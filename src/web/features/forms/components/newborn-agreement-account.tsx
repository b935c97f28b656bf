import { Alert, Button, Checkbox, Fieldset, Group, Radio, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import { todayFor } from '../../../../domain/client-basics';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import {
  type AgreementAccount,
  type AgreementPaymentRequest,
  accountInstallmentStateLabel,
  INSTALLMENT_METHOD_AUTHORIZATION,
  installmentAccountMessages as m,
  type SetAgreementMethodRequest,
} from '../../../../domain/newborn-installments';
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
import { SubmitFailure } from '../../../components/submit-failure';
import { ApiError } from '../../../lib/api-client';
import { withoutChangedFields } from '../../../lib/field-errors';
import { paymentErrorsAfter, usePayingForm } from '../../../lib/paying-form';
import {
  type NewMethodKind,
  newMethodChoice,
  newMethodFieldsOnPage,
  newMethodRequestFields,
} from '../../../lib/payment/new-method';
import { usePriceBook } from '../../../lib/price-book';
import {
  useAgreementAccount,
  useChangeAgreementMethod,
  usePayAgreement,
} from '../api/newborn-agreement-account';

/** The schedule as the server states it: each installment's date, amount and state. */
function Schedule({ account }: { account: AgreementAccount }) {
  const titleId = useId();
  return (
    <Stack gap="xs" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId}>
        Your payment schedule
      </Title>
      <Table fz="sm" horizontalSpacing={6} verticalSpacing={4} striped aria-labelledby={titleId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">#</Table.Th>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col" ta="right">
              Amount
            </Table.Th>
            <Table.Th scope="col">Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {account.installments.map((row) => (
            <Table.Tr key={row.number}>
              <Table.Td>{row.number}</Table.Td>
              <Table.Td>{isoToUsDate(row.dueDate)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatUsd(row.paidCents ?? row.paymentCents + row.lateChargeCents)}
              </Table.Td>
              <Table.Td>
                <Text
                  size="sm"
                  fw={row.state === 'overdue' ? 700 : undefined}
                  c={row.state === 'overdue' ? 'red.9' : undefined}
                >
                  {accountInstallmentStateLabel[row.state]}
                  {row.state === 'paid' && row.paidOn ? ` ${isoToUsDate(row.paidOn)}` : ''}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** One payment button naming its amount, once per press (its key kept while no answer came). */
function PayButton({
  id,
  pay,
  totalCents,
  label,
  disabled,
  onPaid,
}: {
  id: string;
  pay: AgreementPaymentRequest['pay'];
  totalCents: number;
  label: string;
  disabled: boolean;
  /** The answer outlives the button: once paid, the amount it named is gone from the page. */
  onPaid(message: string): void;
}) {
  const paying = usePayAgreement(id);
  const key = useRef<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Stack gap={6} align="flex-start">
      <Button
        loading={paying.isPending}
        disabled={disabled}
        variant={pay === 'overdue' ? 'filled' : 'default'}
        onClick={() => {
          if (paying.isPending) return;
          key.current ??= crypto.randomUUID();
          setFailure(null);
          paying.mutate(
            { body: { ClientId: id, pay, expectedTotalCents: totalCents }, idempotencyKey: key.current },
            {
              onSuccess: (answer) => {
                key.current = null;
                onPaid(
                  `${answer.message} We charged ${formatUsd(answer.amountChargedCents)}${answer.TransactionId ? ` (transaction ${answer.TransactionId})` : ''}; the receipt was e-mailed to you.`,
                );
              },
              onError: (error) => {
                if (!(error instanceof ApiError) || error.status !== 0) key.current = null;
                setFailure(error.message);
              },
            },
          );
        }}
      >
        {label}
      </Button>
      <SubmitFailure message={failure} />
    </Stack>
  );
}

interface MethodValues {
  method: NewMethodKind;
  card: CardFormValues;
  ach: AchFormValues;
  authorize: boolean;
}

const choiceOf = (values: MethodValues) => newMethodChoice(values.method, values);

/** A new card or bank account for the installments, tokenized by the gateway in the browser. */
function ChangeMethodForm({ id, onSaved }: { id: string; onSaved(message: string): void }) {
  const today = todayFor(new Date());
  const book = usePriceBook();
  const change = useChangeAgreementMethod(id);
  const form = usePayingForm<MethodValues, object, { message: string; method: string }>({
    initialValues: { method: 'card', card: emptyCard, ach: emptyAch, authorize: false },
    validate: (values): Record<string, string> => (values.authorize ? {} : { authorize: m.authorize }),
    payment: {
      choice: choiceOf,
      onFile: { card: false, ach: false },
      today,
      requestFields: newMethodRequestFields,
    },
    amount: () => null,
    charges: () => false,
    request: () => ({ ClientId: id, authorizeCharges: true as const }),
    send: (request, idempotencyKey) =>
      change.mutateAsync({ body: request as unknown as SetAgreementMethodRequest, idempotencyKey }),
    onSuccess: (answer) => onSaved(`${answer.message} ${answer.method}.`),
    fieldsOnPage: (fields, values) =>
      newMethodFieldsOnPage(fields, values.method, { authorizeCharges: 'authorize' }),
  });
  const { values, errors } = form;
  const busy = form.submitting;
  const { setErrors } = form.form;
  const edit =
    <K extends 'card' | 'ach'>(key: K) =>
    (next: MethodValues[K]) => {
      setErrors((current) => withoutChangedFields(current as Record<string, string>, values[key], next));
      form.patch({ [key]: next } as Partial<MethodValues>);
    };
  return (
    <form {...form.formProps} aria-label="Change the payment method">
      <Fieldset legend="New payment method" radius="md">
        <Stack>
          <Radio.Group
            label="Pay by"
            value={values.method}
            onChange={(method) => {
              const next = { ...values, method: method as NewMethodKind };
              setErrors((current) =>
                paymentErrorsAfter(current as Record<string, string>, choiceOf(values), choiceOf(next)),
              );
              form.patch({ method: next.method });
            }}
          >
            <Group mt="xs">
              <Radio value="card" label="Credit Card" disabled={busy} />
              <Radio value="ach" label="ACH Payment" disabled={busy} />
            </Group>
          </Radio.Group>
          <Text size="sm">
            Nothing is charged now. A {cardFeePercent(book)} processing fee applies to card payments. Pay by
            ACH to avoid it.
          </Text>
          {values.method === 'card' && (
            <CardFields
              values={values.card}
              onChange={edit('card')}
              errors={errors}
              today={today}
              disabled={busy}
            />
          )}
          {values.method === 'ach' && (
            <AchFields values={values.ach} onChange={edit('ach')} errors={errors} disabled={busy} />
          )}
          <Checkbox
            {...form.form.getInputProps('authorize', { type: 'checkbox' })}
            label={INSTALLMENT_METHOD_AUTHORIZATION}
            disabled={busy}
            required
          />
          <Stack gap={6}>
            <Button type="submit" loading={busy} disabled={!form.ready} style={{ alignSelf: 'flex-start' }}>
              Save the payment method
            </Button>
            <SubmitFailure message={form.failure} />
          </Stack>
        </Stack>
      </Fieldset>
    </form>
  );
}

/**
 * The signed agreement's own page (issue 21), under the done notice: the schedule with each
 * installment's state from the server, the method the installments are charged to and a new one,
 * paying what is overdue, and paying the balance off early. Every amount is the server's.
 */
export function NewbornAgreementAccount({ id }: { id: string }) {
  const account = useAgreementAccount(id, true);
  const [changing, setChanging] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [paid, setPaid] = useState<string | null>(null);
  // The answer is where the page begins, above the schedule it changed: brought into view and focused.
  const paidRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!paid) return;
    paidRef.current?.scrollIntoView({ block: 'center' });
    paidRef.current?.focus({ preventScroll: true });
  }, [paid]);
  if (account.isPending)
    return <LoadingSpinner label="Loading your payment schedule" mx="auto" display="block" />;
  if (account.error) {
    return (
      <Alert color="red" variant="light" role="alert">
        {account.error.message}
      </Alert>
    );
  }
  const data = account.data;
  const noMethod = data.method === null;
  return (
    <Stack gap="lg">
      {paid && (
        <Alert ref={paidRef} tabIndex={-1} color="green" variant="light" role="status">
          {paid}
        </Alert>
      )}
      <Schedule account={data} />
      <Stack gap="xs" component="section" aria-labelledby="installment-method-title">
        <Title order={2} size="h4" id="installment-method-title">
          Payment method
        </Title>
        <Text size="sm">
          {data.method
            ? `Your installments are charged to your ${data.method}.`
            : 'No payment method is on file for your installments.'}
        </Text>
        {saved && (
          <Alert color="green" variant="light" role="status">
            {saved}
          </Alert>
        )}
        {changing ? (
          <ChangeMethodForm
            id={id}
            onSaved={(message) => {
              setSaved(message);
              setChanging(false);
            }}
          />
        ) : (
          <Button
            variant="default"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => {
              setSaved(null);
              setChanging(true);
            }}
          >
            Change the payment method
          </Button>
        )}
      </Stack>
      {(data.overdue || data.payoff) && (
        <Stack gap="sm" component="section" aria-labelledby="installment-pay-title">
          <Title order={2} size="h4" id="installment-pay-title">
            Pay now
          </Title>
          {noMethod && <Text size="sm">{m.noMethod}</Text>}
          {data.overdue && (
            <Stack gap={4}>
              <Text size="sm">
                Overdue installments: {formatUsd(data.overdue.amountCents)}
                {data.overdue.feeCents > 0
                  ? ` and the ${formatUsd(data.overdue.feeCents)} card processing fee`
                  : ''}
                .
              </Text>
              <PayButton
                id={id}
                pay="overdue"
                totalCents={data.overdue.totalCents}
                label={`Pay the overdue ${formatUsd(data.overdue.totalCents)}`}
                disabled={noMethod}
                onPaid={setPaid}
              />
            </Stack>
          )}
          {data.payoff && (
            <Stack gap={4}>
              <Text size="sm">
                Pay off the balance early: the principal still owed, {formatUsd(data.payoff.amountCents)},
                with no interest for the months ahead (installments already due are owed in full)
                {data.payoff.feeCents > 0
                  ? `, and the ${formatUsd(data.payoff.feeCents)} card processing fee`
                  : ''}
                .
              </Text>
              <PayButton
                id={id}
                pay="payoff"
                totalCents={data.payoff.totalCents}
                label={`Pay off ${formatUsd(data.payoff.totalCents)}`}
                disabled={noMethod}
                onPaid={setPaid}
              />
            </Stack>
          )}
        </Stack>
      )}
      {!data.payoff && <Text>{m.nothingOwed}</Text>}
    </Stack>
  );
}
