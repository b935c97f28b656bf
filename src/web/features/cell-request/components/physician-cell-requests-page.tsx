import { Alert, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { CellRequest } from '../../../../domain/cell-request';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { NoClientChosen } from '../../../components/no-client-chosen';
import { ReleaseChecklist } from '../../../components/release-checklist';
import { ApiError } from '../../../lib/api-client';
import { subjectClientId, useSession } from '../../../lib/session';
import { useCellRequests } from '../api/get-cell-requests';
import { useReleaseReadiness } from '../api/get-release-readiness';
import { useSetCellRequestApproval } from '../api/set-cell-request-approval';

type Approve = ReturnType<typeof useSetCellRequestApproval>;

/** ACT VIP's price is confirmed by the bank later. */
function shippingOf(r: CellRequest): string {
  return r.shippingPriceToBeConfirmed ? `${r.shipping_method} (price to be confirmed)` : r.shipping_method;
}

function Approval({ request, approve }: { request: CellRequest; approve: Approve }) {
  if (request.status === 'cancelled')
    return <Text size="sm">{request.objectedAt ? 'Cancelled: the client objected' : 'Cancelled'}</Text>;
  if (request.approvedByPractitionerAt) return <Text size="sm">Approved</Text>;
  return (
    <Button
      size="xs"
      loading={approve.isPending && approve.variables === request.id}
      onClick={() => approve.mutate(request.id)}
      aria-label={`Approve the request for ${isoToUsDate(request.ShipmentDate)}`}
    >
      Approve
    </Button>
  );
}

/**
 * The client's release checklist as the server computed it for their next request (issue 22), as
 * the client's form shows it: what a release waits for before the physician requests or approves
 * one. No links: the client's pages where they act are not the physician's.
 */
function ClientReleaseChecklist({ clientId }: { clientId: string }) {
  const readiness = useReleaseReadiness(clientId);
  if (readiness.isError) {
    return (
      <Alert color="red" role="alert">
        The release checklist could not be loaded. Please reload the page.
      </Alert>
    );
  }
  if (!readiness.data) return <LoadingSpinner label="Loading the release checklist" />;
  return <ReleaseChecklist readiness={readiness.data} links={false} />;
}

/** The physician's view of the acting-for client's vial requests, each to approve, and their release checklist. */
export function PhysicianCellRequestsPage() {
  const session = useSession();
  const clientId = subjectClientId(session.data);
  const requests = useCellRequests(clientId);
  const approve = useSetCellRequestApproval();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Cell Requests
        </Title>
        {clientId && (
          <Button component={Link} to="/request-cells">
            Request cells
          </Button>
        )}
      </Group>
      {!clientId ? (
        <NoClientChosen page="/cell-requests" purpose="to see their cell requests" />
      ) : requests.isError ? (
        <Alert color="red" role="alert">
          The requests could not be loaded. Please reload the page.
        </Alert>
      ) : !requests.data ? (
        <LoadingSpinner label="Loading" />
      ) : requests.data.requests.length === 0 ? (
        <Text>This client has no cell requests.</Text>
      ) : (
        <>
          {/* A table on a wide screen; a phone gets a card per request, the Approve button in reach. */}
          <Card withBorder padding="md" visibleFrom="sm">
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
                    <Table.Td>{shippingOf(r)}</Table.Td>
                    <Table.Td>{formatUsd(r.totalCents)}</Table.Td>
                    <Table.Td>
                      <Approval request={r} approve={approve} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
          <Stack
            gap="sm"
            component="ul"
            p={0}
            m={0}
            hiddenFrom="sm"
            aria-label="Cell requests"
            style={{ listStyle: 'none' }}
          >
            {requests.data.requests.map((r) => (
              <Card key={r.id} component="li" withBorder padding="sm">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <div>
                    <Text fw={600}>
                      {r.NumberOfVials} vial{r.NumberOfVials === 1 ? '' : 's'}, {shippingOf(r)}
                    </Text>
                    <Text size="sm">Shipment date {isoToUsDate(r.ShipmentDate)}</Text>
                  </div>
                  <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                    {formatUsd(r.totalCents)}
                  </Text>
                </Group>
                <Group mt="xs">
                  <Approval request={r} approve={approve} />
                </Group>
              </Card>
            ))}
          </Stack>
        </>
      )}
      {approve.error && (
        <Alert color="red" role="alert">
          {approve.error instanceof ApiError ? approve.error.message : 'The approval was not saved.'}
        </Alert>
      )}
      {clientId && <ClientReleaseChecklist clientId={clientId} />}
    </Stack>
  );
}
