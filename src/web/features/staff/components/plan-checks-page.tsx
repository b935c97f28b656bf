import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { todayFor } from '../../../../domain/client';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import {
  type CheckEntry,
  checkEntryProblems,
  planStoreQueueMessages as m,
  type PlanOrderAwaitingCheck,
} from '../../../../domain/staff-queues';
import { ApiError } from '../../../lib/api-client';
import { usePlanChecks, useRecordPlanCheck } from '../api/plan-store-queues';
import { bankDay } from './queue-dates';

const EMPTY: CheckEntry = { checkNumber: '', checkAmount: '', checkDate: '' };

/** One plan order waiting for its check: who and what, then the check as it arrived. */
function PlanCheckCard({
  order,
  onRecorded,
}: {
  order: PlanOrderAwaitingCheck;
  onRecorded: (message: string) => void;
}) {
  const [entry, setEntry] = useState<CheckEntry>(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<keyof CheckEntry, string>>>({});
  const record = useRecordPlanCheck();
  const titleId = `plan-order-${order.orderId}`;
  const field = (name: keyof CheckEntry) => ({
    value: entry[name],
    error: problems[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setEntry((current) => ({ ...current, [name]: value }));
      setProblems((current) => ({ ...current, [name]: undefined }));
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (record.isPending) return;
    const found = checkEntryProblems(entry, { dueCents: order.amountDueCents, today: todayFor(new Date()) });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    record.mutate(
      { orderId: order.orderId, ...entry },
      {
        onSuccess: (answer) =>
          onRecorded(
            `${order.clientName} (${answer.clientActId}): ${answer.message}${answer.paidUntil ? ` Storage is paid until ${isoToUsDate(answer.paidUntil)}.` : ''}`,
          ),
        onError: (error) => {
          if (error instanceof ApiError) setProblems(error.fields);
        },
      },
    );
  };
  const failure =
    record.error instanceof ApiError
      ? Object.keys(record.error.fields).length > 0
        ? null
        : record.error.message
      : record.error
        ? 'Something went wrong. Please try again.'
        : null;

  return (
    <Card withBorder padding="md" radius="md" component="article" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={titleId}>
          {order.clientName} ·{' '}
          <Anchor component={Link} to={`/staff/clients/${order.clientActId}`}>
            {order.clientActId}
          </Anchor>
        </Title>
        <Text size="sm">
          {order.plans}, ordered {bankDay(order.orderedAt)}
        </Text>
        <Text size="sm">
          Amount due: <strong>{formatUsd(order.amountDueCents)}</strong> · Storage paid until:{' '}
          {order.paidUntil ? isoToUsDate(order.paidUntil) : 'None'}
        </Text>
        <form onSubmit={onSubmit} noValidate aria-label={`Record the check of ${order.clientName}`}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label="Check number"
              inputMode="numeric"
              autoComplete="off"
              {...field('checkNumber')}
            />
            <TextInput
              label="Check amount"
              inputMode="decimal"
              autoComplete="off"
              {...field('checkAmount')}
            />
            <TextInput
              label="Check date"
              inputMode="numeric"
              autoComplete="off"
              placeholder="MM/DD/YYYY"
              {...field('checkDate')}
            />
          </SimpleGrid>
          <Group mt="sm" gap="sm" align="center">
            <Button type="submit" loading={record.isPending}>
              Record check
            </Button>
            {failure && (
              <Text c="red.8" size="sm" role="alert">
                {failure}
              </Text>
            )}
          </Group>
        </form>
      </Stack>
    </Card>
  );
}

/** The queue of Banking and Storage Plans orders paid by check: record each check, oldest first. */
export function PlanChecksPage() {
  const orders = usePlanChecks();
  const [done, setDone] = useState<string | null>(null);
  return (
    <Stack>
      <Title order={1} size="h2">
        Plan Orders Paid by Check
      </Title>
      <Text size="sm">
        Record each check when it arrives: the plan is applied (storage paid-until date, vials, Client
        Activity) and the client is e-mailed with the receipt.
      </Text>
      {done && (
        <Alert
          color="green"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setDone(null)}
        >
          {done}
        </Alert>
      )}
      {orders.error && (
        <Alert color="red" role="alert">
          {orders.error instanceof ApiError
            ? orders.error.message
            : 'Something went wrong. Please try again.'}
        </Alert>
      )}
      {orders.isPending && <Loader aria-label="Loading" />}
      {orders.data?.length === 0 && <Text>{m.noPlanOrders}</Text>}
      {orders.data?.map((order) => (
        <PlanCheckCard key={order.orderId} order={order} onRecorded={setDone} />
      ))}
    </Stack>
  );
}
