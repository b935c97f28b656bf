import { Button, Stack, Table, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { formatUsd } from '../../../../domain/money';
import type { InstallmentBilling } from '../../../../domain/newborn-installments';
import { declineReasonLabel } from '../../../../domain/storage-billing';
import { useSendInstallmentLink } from '../api/billing';
import { ActionAnswer } from './action-answer';
import { errorText } from './admin-only';
import { clientColumn, dateColumn, moneyColumn } from './queue-columns';
import { type QueueColumn, QueueTable } from './queue-table';

type Overdue = InstallmentBilling['overdueList'][number];

/** "Send payment link" of one overdue installment, and the server's answer under it. */
function InstallmentLinkAction({ row }: { row: Overdue }) {
  const send = useSendInstallmentLink();
  const [answer, setAnswer] = useState<{ text: string; problem: boolean } | null>(null);
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="default"
        aria-label={`Send payment link to ${row.mainContact} for installment ${row.number} of ${row.clientName}`}
        loading={send.isPending}
        onClick={() =>
          send.mutate(row.id, {
            onSuccess: (sent) =>
              setAnswer({ text: `Payment link e-mailed to ${sent.sentTo}.`, problem: false }),
            onError: (error) => setAnswer({ text: errorText(error) ?? '', problem: true }),
          })
        }
      >
        Send payment link
      </Button>
      <ActionAnswer answer={answer} />
    </Stack>
  );
}

const overdueColumns: QueueColumn<Overdue>[] = [
  clientColumn<Overdue>(),
  { header: 'Main contact', text: (row) => row.mainContact },
  {
    header: 'Installment',
    text: (row) => `${row.number} of ${row.of}`,
    sort: 'number',
    sortValue: (row) => row.number,
  },
  dateColumn('Due', (row) => row.dueDate),
  moneyColumn('Amount', (row) => row.amountCents),
  {
    header: 'Tries',
    text: (row) => String(row.tries),
    sort: 'number',
    sortValue: (row) => row.tries,
    numeric: true,
  },
  {
    header: 'Last decline',
    text: (row) => (row.tries === 0 ? 'No method on file' : declineReasonLabel(row.lastDecline)),
  },
];

const lines: { key: 'dueSoon' | 'chargedToday' | 'retrying' | 'overdue'; label: string }[] = [
  { key: 'dueSoon', label: 'Due in the next 30 days' },
  { key: 'chargedToday', label: 'Charged today' },
  { key: 'retrying', label: 'Failed, waiting for a retry' },
  { key: 'overdue', label: 'Overdue' },
];

/**
 * The Billing page's newborn installments: how many and how much in each state (the server's
 * amounts), then each overdue installment with "Send payment link".
 */
export function BillingInstallments({ installments }: { installments: InstallmentBilling }) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs">
      <Title order={2} size="h3" id={headingId}>
        Newborn installments
      </Title>
      <Table withTableBorder verticalSpacing="xs" aria-labelledby={headingId} maw={560}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Installments</Table.Th>
            <Table.Th scope="col" ta="right">
              Count
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Amount
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.key}>
              <Table.Th scope="row" fw={400}>
                {line.label}
              </Table.Th>
              <Table.Td ta="right">{installments[line.key].count}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatUsd(installments[line.key].amountCents)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Title order={3} size="h4" mt="xs">
        Overdue installments
      </Title>
      <QueueTable
        label="Overdue installments"
        rows={installments.overdueList}
        columns={overdueColumns}
        actions={[{ header: 'Payment link', cell: (row) => <InstallmentLinkAction row={row} /> }]}
        rowKey={(row) => row.id}
        rowName={(row) => `${row.clientName} (${row.clientActId}), installment ${row.number}`}
        empty="No installment is overdue."
        filterLabel="Filter by client, ID or contact"
      />
    </Stack>
  );
}
