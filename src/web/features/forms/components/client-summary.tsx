import { Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router';
import type { ClientRecord } from '../../../../domain/client';
import { formatUsPhone } from '../../../../domain/us-contact';
import { ReadOnlyFacts } from './read-only-facts';

/** The client's details of record, read-only here; they are changed on Client Information. */
export function ClientSummary({ client }: { client: ClientRecord | undefined }) {
  if (!client) return null;
  const address = [client.street, client.city, [client.state, client.zip].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return (
    <Stack gap="xs">
      <ReadOnlyFacts
        facts={[
          { label: 'Client ID', value: client.clientACTId },
          { label: 'Name', value: `${client.firstName} ${client.lastName}`.trim() },
          { label: 'Date of Birth', value: client.clientDob },
          { label: 'Email', value: client.email },
          { label: 'Phone', value: formatUsPhone(client.phone) },
          { label: 'Address', value: address },
          { label: 'Country', value: client.country },
        ]}
      />
      <Anchor component={Link} to="/client-information?edit=1" size="sm">
        Change client information
      </Anchor>
    </Stack>
  );
}
