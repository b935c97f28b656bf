import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconUserQuestion } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The physician's list of clients, and where a page for a client sends them to choose one. */
export const MY_CLIENTS_PATH = '/my-clients';

/**
 * The pages of the Physician Portal that are about the client acted for: My Clients takes the
 * physician back to one of these once a client is chosen (`?next=`), and to nothing else.
 */
export const PAGES_FOR_A_CLIENT = [
  '/client-consent',
  '/infectious-disease',
  '/store',
  '/request-cells',
  '/cell-requests',
] as const;
export type PageForAClient = (typeof PAGES_FOR_A_CLIENT)[number];

export function isPageForAClient(path: string | null): path is PageForAClient {
  return (PAGES_FOR_A_CLIENT as readonly string[]).includes(path ?? '');
}

/**
 * What a physician's page for a client shows while no client is chosen: says so, and offers the
 * way to choose one that comes back to this page (never a spinner waiting for a client).
 */
export function NoClientChosen({ page, purpose }: { page: PageForAClient; purpose: string }) {
  return (
    <Alert
      color="yellow"
      variant="light"
      role="status"
      icon={<IconUserQuestion size={20} aria-hidden />}
      data-testid="no-client-chosen"
    >
      <Stack gap="xs" align="flex-start">
        <Text fw={700}>No client chosen</Text>
        <Text size="sm">Choose the client you act for on My Clients {purpose}.</Text>
        <Button component={Link} to={`${MY_CLIENTS_PATH}?next=${encodeURIComponent(page)}`} size="sm">
          Choose a client
        </Button>
      </Stack>
    </Alert>
  );
}
