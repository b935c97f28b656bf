import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconInfoCircle, IconX } from '@tabler/icons-react';
import {
  type ApprovalMark,
  CELL_REQUEST_NOTICE,
  toClientActivityRow,
} from '../../../../domain/client-activity';
import { useClientActivity } from '../api/get-client-activity';

const columns = [
  'Client ID',
  'Client Name',
  'Cell Vials Ordered',
  'Date',
  'Type',
  'Plan Purchased',
  'Status',
  'Cell Request Approved By Practitioner',
] as const;

function Approval({ mark }: { mark: ApprovalMark }) {
  if (mark === 'approved')
    return <IconCheck color="var(--mantine-color-green-8)" aria-label="Approved" role="img" />;
  if (mark === 'not-approved')
    return <IconX color="var(--mantine-color-red-9)" aria-label="Not approved" role="img" />;
  return <>NA</>;
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
        <Table.ScrollContainer
          minWidth={880}
          type="native"
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
                  <Table.Td>{row.type}</Table.Td>
                  <Table.Td>{row.planPurchased}</Table.Td>
                  <Table.Td>{row.status}</Table.Td>
                  <Table.Td>
                    <Approval mark={row.approval} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
