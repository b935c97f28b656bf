import { Alert, Button, Card, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { ApiError } from '../../../lib/api-client';
import { subjectClientId, useSession } from '../../../lib/session';
import { useCellRequests } from '../api/get-cell-requests';
import { useSetCellRequestApproval } from '../api/set-cell-request-approval';

/** The physician's view of the acting-for client's vial requests, each to approve. */
export function PhysicianCellRequestsPage() {
  const session = useSession();
  const clientId = subjectClientId(session.data);
  const requests = useCellRequests(clientId);
  const approve = useSetCellRequestApproval();
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Cell Requests
      </Title>
      {!clientId ? (
        <Text>Choose a client on My Clients to see their cell requests.</Text>
      ) : requests.isError ? (
        <Alert color="red" role="alert">
          The requests could not be loaded. Please reload the page.
        </Alert>
      ) : !requests.data ? (
        <Loader aria-label="Loading" />
      ) : requests.data.requests.length === 0 ? (
        <Text>This client has no cell requests.</Text>
      ) : (
        <Card withBorder padding="md">
          <Table.ScrollContainer minWidth={0}>
            <Table aria-label="Cell requests">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Shipment date</Table.Th>
                  <Table.Th>Vials</Table.Th>
                  <Table.Th>Shipping</Table.Th>
                  <Table.Th>Total</Table.Th>
                  <Table.Th>Approved by you</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {requests.data.requests.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>{isoToUsDate(r.ShipmentDate)}</Table.Td>
                    <Table.Td>{r.NumberOfVials}</Table.Td>
                    <Table.Td>{r.shipping_method}</Table.Td>
                    <Table.Td>{formatUsd(r.totalCents)}</Table.Td>
                    <Table.Td>
                      {r.approvedByPractitionerAt ? (
                        'Approved'
                      ) : (
                        <Button
                          size="xs"
                          loading={approve.isPending && approve.variables === r.id}
                          onClick={() => approve.mutate(r.id)}
                          aria-label={`Approve the request for ${isoToUsDate(r.ShipmentDate)}`}
                        >
                          Approve
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {approve.error && (
        <Alert color="red" role="alert">
          {approve.error instanceof ApiError ? approve.error.message : 'The approval was not saved.'}
        </Alert>
      )}
    </Stack>
  );
}
