import { Alert, Anchor, Button, Card, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { formatUsd } from '../../../../domain/money';
import type { PaymentInDoubt } from '../../../../domain/staff-queues';
import { ApiError } from '../../../lib/api-client';
import { usePaymentsInDoubt, useSettlePayment } from '../api/payments-in-doubt';
import { ActionAnswer } from './action-answer';
import { bankMoment } from './queue-dates';

const when = bankMoment;

function PaymentCard({ payment }: { payment: PaymentInDoubt }) {
  const headingId = useId();
  const settle = useSettlePayment(payment.id);
  const [answer, setAnswer] = useState<{ text: string; problem: boolean } | null>(null);
  const rows: Array<[string, string]> = [
    ['Started', when(payment.createdAt)],
    ['Ledger status', payment.status === 'in_progress' ? 'In progress' : 'Error'],
    ['For', `${payment.purpose.replace(/_/g, ' ')} (${payment.source})`],
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
      <Table variant="vertical" layout="fixed" withRowBorders={false} mb="sm">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={{ base: 120, sm: 200 }}>{label}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
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
      {queue.isPending && <Loader aria-label="Loading" />}
      {queue.data?.length === 0 && <Text role="status">No payment is in doubt.</Text>}
      {queue.data?.map((payment) => (
        <PaymentCard key={payment.id} payment={payment} />
      ))}
    </Stack>
  );
}
