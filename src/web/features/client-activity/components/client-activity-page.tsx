import { Alert, Anchor, Box, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconDownload, IconHourglassLow, IconInfoCircle, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  type ApprovalMark,
  CELL_REQUEST_NOTICE,
  type ClientActivityRow,
  toClientActivityRow,
} from '../../../../domain/client-activity';
import { Fact } from '../../../components/fact';
import { useClientActivity } from '../api/get-client-activity';

const columns = [
  'Client ID',
  'Client Name',
  'Cell Vials Ordered',
  'Date',
  'Type',
  'Plan Purchased',
  'Amount',
  'Status',
  'Cell Request Approved By Practitioner',
  'Receipt',
] as const;

function Approval({ mark }: { mark: ApprovalMark }) {
  if (mark === 'approved')
    return <IconCheck color="var(--mantine-color-green-8)" aria-label="Approved" role="img" />;
  if (mark === 'pending')
    return (
      <Group gap={4} wrap="nowrap">
        <IconHourglassLow size={18} color="var(--mantine-color-gray-7)" aria-hidden />
        <Text size="sm" c="gray.8">
          Pending
        </Text>
      </Group>
    );
  if (mark === 'not-approved')
    return <IconX color="var(--mantine-color-red-9)" aria-label="Not approved" role="img" />;
  return <>NA</>;
}

/** The row's type, linking to the request it records (what was ordered, paid, and its timeline). */
function ActivityType({ row }: { row: ClientActivityRow }) {
  if (!row.cellRequestId) return <>{row.type}</>;
  return (
    <Anchor
      component={Link}
      to={`/stem-cell-request/${encodeURIComponent(row.cellRequestId)}`}
      inherit
      aria-label={`${row.type}: view the request of ${row.date}`}
    >
      {row.type}
    </Anchor>
  );
}

/** A payment's or a refund's receipt PDF, drawn by the server from its ledger row. */
function ReceiptLink({ row }: { row: ClientActivityRow }) {
  if (!row.receiptId) return <>NA</>;
  const name =
    row.type === 'Refund'
      ? `Download the receipt of ${row.amount} refunded on ${row.date}`
      : `Download the receipt of ${row.amount} paid on ${row.date}`;
  return (
    <Anchor
      href={`/api/pay/receipts/${encodeURIComponent(row.receiptId)}`}
      download
      size="sm"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      aria-label={name}
    >
      <IconDownload size={14} aria-hidden />
      Receipt
    </Anchor>
  );
}

export function ClientActivityPage() {
  const activity = useClientActivity();
  const rows = (activity.data ?? []).map(toClientActivityRow);

  return (
    <Stack gap="lg" maw={1200}>
      <Title order={1} size="h2">
        Client Activity
      </Title>
      <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />}>
        {CELL_REQUEST_NOTICE}
      </Alert>
      {activity.isError && (
        <Alert color="red" role="alert">
          {activity.error.message}
        </Alert>
      )}
      {activity.isPending ? (
        <Text role="status">Loading…</Text>
      ) : (
        <>
          {/* Ten columns need a desktop's width; a phone gets a card per row instead. */}
          <Table.ScrollContainer
            minWidth={960}
            type="native"
            visibleFrom="md"
            tabIndex={0}
            aria-label="Client Activity table, scrolls sideways"
          >
            <Table striped highlightOnHover withTableBorder verticalSpacing="sm" aria-label="Client Activity">
              <Table.Thead>
                <Table.Tr>
                  {columns.map((column) => (
                    <Table.Th key={column} scope="col">
                      {column}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={columns.length}>No activity yet.</Table.Td>
                  </Table.Tr>
                )}
                {rows.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>{row.clientId}</Table.Td>
                    <Table.Td>{row.clientName}</Table.Td>
                    <Table.Td>{row.cellVialsOrdered}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.date}</Table.Td>
                    <Table.Td>
                      <ActivityType row={row} />
                    </Table.Td>
                    <Table.Td>{row.planPurchased}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap', textAlign: 'right' }}>{row.amount}</Table.Td>
                    <Table.Td>{row.status}</Table.Td>
                    <Table.Td>
                      <Approval mark={row.approval} />
                    </Table.Td>
                    <Table.Td>
                      <ReceiptLink row={row} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Stack
            hiddenFrom="md"
            gap="sm"
            component="ul"
            p={0}
            m={0}
            aria-label="Client Activity"
            style={{ listStyle: 'none' }}
          >
            {rows.length === 0 && <Text component="li">No activity yet.</Text>}
            {rows.map((row) => (
              <Card key={row.id} component="li" withBorder padding="sm">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <div>
                    <Text fw={600}>
                      <ActivityType row={row} />
                    </Text>
                    <Text size="sm">{row.date}</Text>
                  </div>
                  <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                    {row.amount}
                  </Text>
                </Group>
                <Box component="dl" mt="xs" mb={0} style={{ display: 'grid', gap: 2 }}>
                  <Fact term="Status">{row.status}</Fact>
                  <Fact term="Plan Purchased">{row.planPurchased}</Fact>
                  <Fact term="Cell Vials Ordered">{row.cellVialsOrdered}</Fact>
                  <Fact term="Cell Request Approved By Practitioner">
                    <Approval mark={row.approval} />
                  </Fact>
                  <Fact term="Client">{`${row.clientName} (${row.clientId})`}</Fact>
                </Box>
                {row.receiptId && (
                  <Box mt="xs">
                    <ReceiptLink row={row} />
                  </Box>
                )}
              </Card>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
