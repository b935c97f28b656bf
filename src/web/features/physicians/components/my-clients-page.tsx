import {
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconDownload } from '@tabler/icons-react';
import { isoToUsDate } from '../../../../domain/dates';
import type { PhysicianClient } from '../../../../domain/physician';
import { FIRST_YEAR_INCLUDED } from '../../../../domain/storage-year';
import { useSession } from '../../../lib/session';
import { usePhysicianClients } from '../api/get-physician-clients';
import { useSetActingClient } from '../api/set-acting-client';

const DOCUMENT_NAMES: Record<PhysicianClient['documents'][number]['form'], string> = {
  consent: 'Consent',
  infectious_disease: 'Infectious Disease',
};

/** "My Clients": the physician's clients, what each has paid and signed, and whom to act for. */
export function MyClientsPage() {
  const session = useSession();
  const clients = usePhysicianClients();
  const choose = useSetActingClient();
  const actingId = session.data?.role === 'physician' ? session.data.actingFor?.id : undefined;

  const chooseButton = (client: PhysicianClient) =>
    client.id === actingId ? (
      <Group gap={4} wrap="nowrap">
        <IconCheck size={16} color="var(--mantine-color-green-9)" aria-hidden />
        <Text size="sm" fw={600}>
          Chosen
        </Text>
      </Group>
    ) : (
      <Button
        size="xs"
        variant="light"
        loading={choose.isPending && choose.variables === client.id}
        onClick={() => choose.mutate(client.id)}
        aria-label={`Choose ${client.name} (${client.clientACTId})`}
      >
        Choose
      </Button>
    );

  return (
    <Stack>
      <Title order={1} size="h2">
        My Clients
      </Title>
      {choose.error && (
        <Alert color="red" role="alert">
          {choose.error.message}
        </Alert>
      )}
      {clients.isPending && <Loader aria-label="Loading your clients" />}
      {clients.error && (
        <Alert color="red" role="alert">
          {clients.error.message}
        </Alert>
      )}
      {clients.data?.length === 0 && <Text>You have no clients in the portal yet.</Text>}
      {clients.data && clients.data.length > 0 && (
        <>
          {/* Nine columns need the width of a desktop; narrower screens get a card per client. */}
          <Table.ScrollContainer minWidth={900} visibleFrom="lg">
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Client ID</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Date of Birth</Table.Th>
                  <Table.Th>Initial Processing Paid</Table.Th>
                  <Table.Th>Consent Signed</Table.Th>
                  <Table.Th>Screening Done</Table.Th>
                  <Table.Th>Storage Paid Until</Table.Th>
                  <Table.Th>Signed Documents</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Act for</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {clients.data.map((client) => (
                  <Table.Tr
                    key={client.id}
                    data-client={client.clientACTId}
                    data-chosen={client.id === actingId || undefined}
                    aria-current={client.id === actingId ? 'true' : undefined}
                    bg={client.id === actingId ? 'green.0' : undefined}
                  >
                    <Table.Td>{client.clientACTId}</Table.Td>
                    <Table.Td>{client.name}</Table.Td>
                    <Table.Td>{isoToUsDate(client.dateOfBirth)}</Table.Td>
                    <Table.Td>{yesNo(client.initialProcessingPaid)}</Table.Td>
                    <Table.Td>{yesNo(client.consentSigned)}</Table.Td>
                    <Table.Td>{yesNo(client.screeningDone)}</Table.Td>
                    <Table.Td>{storageUntil(client)}</Table.Td>
                    <Table.Td>
                      <Documents client={client} />
                    </Table.Td>
                    <Table.Td>{chooseButton(client)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Stack hiddenFrom="lg" gap="sm">
            {clients.data.map((client) => (
              <Card
                key={client.id}
                withBorder
                padding="sm"
                data-client={client.clientACTId}
                data-chosen={client.id === actingId || undefined}
                aria-current={client.id === actingId ? 'true' : undefined}
                bg={client.id === actingId ? 'green.0' : undefined}
              >
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <div>
                    <Text fw={600}>{client.name}</Text>
                    <Text size="sm">{client.clientACTId}</Text>
                  </div>
                  {chooseButton(client)}
                </Group>
                <Box component="dl" fz="sm" mt="xs" style={{ display: 'grid', gap: 2 }}>
                  <Fact term="Date of Birth" value={isoToUsDate(client.dateOfBirth)} />
                  <Fact term="Initial Processing Paid" value={yesNo(client.initialProcessingPaid)} />
                  <Fact term="Consent Signed" value={yesNo(client.consentSigned)} />
                  <Fact term="Screening Done" value={yesNo(client.screeningDone)} />
                  <Fact term="Storage Paid Until" value={storageUntil(client)} />
                </Box>
                <Group mt="xs" gap={6} align="flex-start" wrap="nowrap">
                  <Text size="sm" c="gray.7">
                    Signed Documents:
                  </Text>
                  <Documents client={client} />
                </Group>
              </Card>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}

function yesNo(value: boolean): string {
  return value ? 'Yes' : 'No';
}

function storageUntil(client: PhysicianClient): string {
  if (client.storagePaidUntil) return isoToUsDate(client.storagePaidUntil);
  return client.dateBankedIn === null ? FIRST_YEAR_INCLUDED : 'Not paid';
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text component="dt" size="sm" c="gray.7">
        {term}:
      </Text>
      <Text component="dd" size="sm" m={0}>
        {value}
      </Text>
    </Group>
  );
}

/** The client's signed PDFs; the server serves them to the client and their physician only. */
function Documents({ client }: { client: PhysicianClient }) {
  if (client.documents.length === 0) return <Text size="sm">None</Text>;
  return (
    <Stack gap={2}>
      {client.documents.map((document) => (
        <Anchor
          key={document.id}
          href={`/api/pay/documents/${encodeURIComponent(document.id)}`}
          download
          size="sm"
          style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
          aria-label={`Download the signed ${DOCUMENT_NAMES[document.form]} form of ${client.name}`}
        >
          <IconDownload size={14} aria-hidden />
          {DOCUMENT_NAMES[document.form]}
        </Anchor>
      ))}
    </Stack>
  );
}
