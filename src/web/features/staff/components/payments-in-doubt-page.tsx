import { Alert, Anchor, Button, Card, Stack, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { formatUsd } from '../../../../domain/money';
import type { PaymentInDoubt } from '../../../../domain/staff-queues';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { ApiError } from '../../../lib/api-client';
import { usePaymentsInDoubt, useSettlePayment } from '../api/payments-in-doubt';
import { ActionAnswer } from './action-answer';
import { clientColumns, moneyColumn, QueueFacts } from './queue-columns';
import { bankMoment } from './queue-dates';
import { type QueueColumn, QueueStatus, QueueTable } from './queue-table';

const when = bankMoment;

const ledgerStatus = (payment: PaymentInDoubt) =>
  payment.status === 'in_progress' ? 'In progress' : 'Error';
const purposeOf = (payment: PaymentInDoubt) => `${payment.purpose.replace(/_/g, ' ')} (${payment.source})`;

function PaymentCard({ payment }: { payment: PaymentInDoubt }) {
  const headingId = useId();
  const settle = useSettlePayment(payment.id);
  const [answer, setAnswer] = useState<{ text: string; problem: boolean } | null>(null);
  const rows: Array<[string, string]> = [
    ['Started', when(payment.createdAt)],
    ['Ledger status', ledgerStatus(payment)],
    ['For', purposeOf(payment)],
    ['Method', payment.method],
    ['Our reference', payment.reference ?? 'Never sent to the gateway'],
    ['Last message', payment.message ?? '—'],
  ];
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="xs">
        {formatUsd(payment.totalCents)} from{' '}
        <Anchor component={Link} to={`/staff/clients/${payment.clientActId}`}>
          {payment.clientName} ({payment.clientActId})
        </Anchor>
      </Title>
      <QueueFacts facts={rows} />
      <Stack gap={4} align="flex-start">
        <Button
          loading={settle.isPending}
          disabled={answer !== null && !answer.problem}
          onClick={() =>
            settle.mutate(undefined, {
              onSuccess: (result) => setAnswer({ text: result.message, problem: false }),
              onError: (error) =>
                setAnswer({
                  text: error instanceof ApiError ? error.message : 'Something went wrong. Please try again.',
                  problem: true,
                }),
            })
          }
        >
          Look up and settle
        </Button>
        <ActionAnswer answer={answer} />
      </Stack>
    </Card>
  );
}

const columns: QueueColumn<PaymentInDoubt>[] = [
  ...clientColumns<PaymentInDoubt>(),
  moneyColumn('Amount', (payment) => payment.totalCents),
  { header: 'For', text: purposeOf },
  { header: 'Method', text: (payment) => payment.method },
  {
    header: 'Started',
    text: (payment) => when(payment.createdAt),
    sort: 'date',
    sortValue: (payment) => payment.createdAt,
  },
  {
    header: 'Ledger status',
    text: ledgerStatus,
    cell: (payment) => (
      <QueueStatus problem={payment.status === 'error'}>{ledgerStatus(payment)}</QueueStatus>
    ),
  },
];

/** Payments in doubt: the ledger's rows whose outcome is unknown, oldest first. */
export function PaymentsInDoubtPage() {
  const queue = usePaymentsInDoubt();
  return (
    <Stack>
      <Title order={1} size="h2">
        Payments in Doubt
      </Title>
      {queue.error && (
        <Alert color="red" role="alert">
          {queue.error instanceof ApiError
            ? queue.error.message
            : 'Something went wrong. Please reload the page.'}
        </Alert>
      )}
      {queue.isPending && <LoadingSpinner label="Loading" />}
      {queue.data && (
        <QueueTable
          label="Payments in doubt"
          filterLabel="Filter by client, ID or reference"
          rows={queue.data}
          columns={columns}
          status={{ label: 'Ledger status', of: ledgerStatus, values: ['In progress', 'Error'] }}
          defaultSort={{ column: 'Started', direction: 'ascending' }}
          searchText={(payment) => `${payment.reference ?? ''} ${payment.message ?? ''}`}
          rowKey={(payment) => payment.id}
          rowName={(payment) =>
            `${formatUsd(payment.totalCents)} from ${payment.clientName} (${payment.clientActId})`
          }
          empty="No payment is in doubt."
          detail={(payment) => <PaymentCard payment={payment} />}
        />
      )}
    </Stack>
  );
}
