import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { planStoreQueueMessages as m, type PlanOrderAwaitingCheck } from '../../../../domain/staff-queues';
import { usePlanChecks, useRecordPlanCheck } from '../api/plan-store-queues';
import { CheckEntryForm, CheckQueuePage, fieldsOf } from './check-entry-form';
import { clientColumns, dateColumn, dayColumn, moneyColumn } from './queue-columns';
import { bankDay } from './queue-dates';
import type { QueueColumn } from './queue-table';

/** One plan order waiting for its check: who and what, then the check as it arrived. */
function PlanCheckCard({
  order,
  onRecorded,
}: {
  order: PlanOrderAwaitingCheck;
  onRecorded: (message: string) => void;
}) {
  const record = useRecordPlanCheck();
  const titleId = `plan-order-${order.orderId}`;
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
        <CheckEntryForm
          label={`Record the check of ${order.clientName}`}
          dueCents={order.amountDueCents}
          pending={record.isPending}
          error={record.error}
          onRecord={(entry, onFields) =>
            record.mutate(
              { orderId: order.orderId, ...entry },
              {
                onSuccess: (answer) =>
                  onRecorded(
                    `${order.clientName} (${answer.clientActId}): ${answer.message}${answer.paidUntil ? ` Storage is paid until ${isoToUsDate(answer.paidUntil)}.` : ''}`,
                  ),
                onError: (error) => onFields(fieldsOf(error) ?? {}),
              },
            )
          }
        />
      </Stack>
    </Card>
  );
}

const columns: QueueColumn<PlanOrderAwaitingCheck>[] = [
  ...clientColumns<PlanOrderAwaitingCheck>(),
  { header: 'Plans', text: (order) => order.plans },
  dayColumn('Ordered', (order) => order.orderedAt),
  moneyColumn('Amount due', (order) => order.amountDueCents),
  dateColumn('Storage paid until', (order) => order.paidUntil),
];

/** The queue of Banking and Storage Plans orders paid by check: record each check, oldest first. */
export function PlanChecksPage() {
  const orders = usePlanChecks();
  return (
    <CheckQueuePage
      title="Plan Orders Paid by Check"
      intro="Record each check when it arrives: the plan is applied (storage paid-until date, vials, Client Activity) and the client is e-mailed with the receipt."
      items={orders}
      empty={m.noPlanOrders}
      label="Plan orders paid by check"
      filterLabel="Filter by client, ID or plan"
      columns={columns}
      defaultSort={{ column: 'Ordered', direction: 'ascending' }}
      rowKey={(order) => order.orderId}
      rowName={(order) => `${order.clientName} (${order.clientActId}), ${order.plans}`}
      card={(order, onRecorded) => <PlanCheckCard order={order} onRecorded={onRecorded} />}
    />
  );
}
