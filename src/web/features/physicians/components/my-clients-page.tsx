import { Alert, Anchor, Box, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconDownload, IconUserCheck } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FIRST_YEAR_INCLUDED } from '../../../../domain/client-basics';
import { isoToUsDate } from '../../../../domain/dates';
import type { PhysicianClient } from '../../../../domain/physician';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { isPageForAClient, type PageForAClient } from '../../../components/no-client-chosen';
import { useSession } from '../../../lib/session';
import { usePhysicianClients } from '../api/get-physician-clients';
import { useSetActingClient } from '../api/set-acting-client';

const DOCUMENT_NAMES: Record<PhysicianClient['documents'][number]['form'], string> = {
  consent: 'Consent',
  infectious_disease: 'Infectious Disease',
};

/** The pages a chosen client leads on to, by the names of the physician's menu. */
const PAGE_NAMES: Record<PageForAClient, string> = {
  '/client-consent': 'Client Consent',
  '/infectious-disease': 'Client Infectious Disease Form',
  '/store': 'Store',
  '/request-cells': 'Request Cells',
  '/cell-requests': 'Cell Requests',
};

/** What a row offers to do for its client: the forms still to do, and the store. */
function rowActionsOf(client: PhysicianClient): Array<{ label: string; to: PageForAClient }> {
  return [
    ...(client.consentSigned ? [] : [{ label: 'Sign consent', to: '/client-consent' as const }]),
    ...(client.screeningDone ? [] : [{ label: 'Screening', to: '/infectious-disease' as const }]),
    { label: 'Order serum', to: '/store' as const },
  ];
}

/**
 * "My Clients": the physician's clients, what each has paid and signed, and whom to act for.
 * Choosing a client makes every page for a client about them (the header names them); the page
 * says so and leads on, or goes straight back to the page that sent the physician to choose
 * (`?next=`). A row's actions choose its client and open the form for them.
 */
export function MyClientsPage() {
  const session = useSession();
  const clients = usePhysicianClients();
  const choose = useSetActingClient();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const nextPage = search.get('next');
  const next = isPageForAClient(nextPage) ? nextPage : null;
  const acting = session.data?.role === 'physician' ? session.data.actingFor : null;
  const actingId = acting?.id;

  // The confirmation takes the focus from the Choose button it replaces, and is read out.
  const confirmation = useRef<HTMLDivElement>(null);
  const justChosen = useRef(false);
  useEffect(() => {
    if (acting && justChosen.current) {
      justChosen.current = false;
      confirmation.current?.focus();
    }
  }, [acting]);

  /** Acts for the client (unless already), then opens `to`, if given. */
  const actFor = async (client: PhysicianClient, to: PageForAClient | null) => {
    if (client.id !== actingId) {
      try {
        await choose.mutateAsync(client.id);
      } catch {
        return; // choose.error says why, above the list
      }
    }
    if (to) navigate(to);
    else justChosen.current = true;
  };

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
        onClick={() => void actFor(client, next)}
        aria-label={`Choose ${client.name} (${client.clientACTId})`}
      >
        Choose
      </Button>
    );

  /** In a table row, one under the other at one width; on a card, side by side. */
  const rowActions = (client: PhysicianClient, stacked: boolean) => {
    const Layout = stacked ? Stack : Group;
    return (
      <Layout gap={6} {...(stacked ? {} : { wrap: 'wrap' as const })}>
        {rowActionsOf(client).map((action) => (
          <Button
            key={action.to}
            size="compact-sm"
            variant="default"
            fullWidth={stacked}
            disabled={choose.isPending}
            onClick={() => void actFor(client, action.to)}
            aria-label={`${action.label} for ${client.name} (${client.clientACTId})`}
          >
            {action.label}
          </Button>
        ))}
      </Layout>
    );
  };

  return (
    <Stack>
      <Title order={1} size="h2">
        My Clients
      </Title>
      {next && <Text>Choose the client you act for to go on to {PAGE_NAMES[next]}.</Text>}
      {acting && (
        <Card
          ref={confirmation}
          tabIndex={-1}
          withBorder
          padding="sm"
          bg="green.0"
          data-testid="acting-for-confirmation"
          style={{ borderColor: 'var(--mantine-color-green-7)' }}
        >
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconUserCheck size={20} color="var(--mantine-color-green-9)" aria-hidden />
            <Stack gap={6}>
              <Text fw={700}>
                You are acting for {acting.name} ({acting.clientACTId}).
              </Text>
              <Text size="sm">
                The consent, screening, store and cell request pages are now for this client.
              </Text>
              <Group gap="md" wrap="wrap" style={{ rowGap: 4 }}>
                {(['/client-consent', '/infectious-disease', '/store', '/request-cells'] as const).map(
                  (to) => (
                    <Anchor key={to} component={Link} to={to} size="sm" c="blue.9">
                      {PAGE_NAMES[to]}
                    </Anchor>
                  ),
                )}
              </Group>
            </Stack>
          </Group>
        </Card>
      )}
      {choose.error && (
        <Alert color="red" role="alert">
          {choose.error.message}
        </Alert>
      )}
      {clients.isPending && <LoadingSpinner label="Loading your clients" />}
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
            <Table striped highlightOnHover horizontalSpacing="xs">
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
                  <Table.Th>Act for</Table.Th>
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
                    <Table.Td>
                      {/* A cell's min-width is not kept by tables: its content's is. */}
                      <Stack gap={6} w={128} align="stretch">
                        {chooseButton(client)}
                        {rowActions(client, true)}
                      </Stack>
                    </Table.Td>
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
                <Box mt="sm">{rowActions(client, false)}</Box>
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
