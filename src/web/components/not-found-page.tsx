import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { homeOf, useSession } from '../lib/session';
import { PublicShell } from './public-shell';

const EXPLANATION = 'There is no page at this address. It may have been moved, or the link may be mistyped.';

const HOME_LABEL = { client: 'Go to Client Information', physician: 'Go to My Clients' } as const;

/** An unknown address inside the portal: a plain page with the way back to the signed-in person's home. */
export function NotFoundPage() {
  const role = useSession().data?.role ?? 'client';
  return (
    <Stack maw={640} align="flex-start">
      <Title order={1} size="h2">
        Page not found
      </Title>
      <Text>{EXPLANATION}</Text>
      <Button component={Link} to={homeOf[role]} variant="light">
        {HOME_LABEL[role]}
      </Button>
    </Stack>
  );
}

/** An unknown address for a visitor who is not signed in: the way home is the sign-in page. */
export function PublicNotFoundPage() {
  return (
    <PublicShell title="Page not found">
      <Stack align="flex-start">
        <Text>{EXPLANATION}</Text>
        <Button component={Link} to="/" variant="light">
          Go to sign-in
        </Button>
      </Stack>
    </PublicShell>
  );
}
