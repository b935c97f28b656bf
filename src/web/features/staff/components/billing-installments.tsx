import { Box, Button, Card, Stack, Table, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import type { InstallmentBilling } from '../../../../domain/newborn-installments';
import { declineReasonLabel } from '../../../../domain/storage-billing';
import { Fact } from '../../../components/fact';
import { useSendInstallmentLink } from '../api/billing';
import { ActionAnswer } from './action-answer';
import { errorText } from './admin-only';

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
  const overdueId = useId();
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
      <Title order={3} size="h4" id={overdueId} mt="xs">
        Overdue installments
      </Title>
      {installments.overdueList.length === 0 ? (
        <Text size="sm">No installment is overdue.</Text>
      ) : (
        <Stack component="ul" aria-labelledby={overdueId} gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {installments.overdueList.map((row) => (
            <Card key={row.id} component="li" withBorder padding="sm">
              <Text fw={600}>
                {row.clientName} · {row.clientActId}
              </Text>
              <Box component="dl" mt="xs" mb={0} style={{ display: 'grid', gap: 2 }}>
                <Fact term="Main contact">{row.mainContact}</Fact>
                <Fact term="Installment">
                  {row.number} of {row.of}
                </Fact>
                <Fact term="Due">{isoToUsDate(row.dueDate)}</Fact>
                <Fact term="Amount">{formatUsd(row.amountCents)}</Fact>
                <Fact term="Tries">{row.tries}</Fact>
                <Fact term="Last decline">
                  {row.tries === 0 ? 'No method on file' : declineReasonLabel(row.lastDecline)}
                </Fact>
              </Box>
              <Box mt="xs">
                <InstallmentLinkAction row={row} />
              </Box>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
