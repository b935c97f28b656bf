import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSiteConfig } from '../lib/site';
import { PublicShell } from './public-shell';

/** What a link to a screen not built yet opens: a clear page, never a blank one. */
export function ComingSoonPage({
  title,
  backTo = '/client-information',
  backLabel = 'Back to Client Information',
}: {
  title: string;
  backTo?: string;
  backLabel?: string;
}) {
  const site = useSiteConfig();
  return (
    <Stack maw={640}>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Alert icon={<IconTools aria-hidden />} color="blue" title="Coming soon">
        <Text size="sm">
          This part of the portal is being prepared and will open here soon. For anything urgent in the
          meantime, please{' '}
          <Anchor href={site.data?.contactUrl} target="_blank" rel="noopener noreferrer" inherit>
            contact us
          </Anchor>
          .
        </Text>
      </Alert>
      <div>
        <Button component={Link} to={backTo} variant="light">
          {backLabel}
        </Button>
      </div>
    </Stack>
  );
}

/** A public link to a screen not built yet: the same page in the frame of the signed-out pages. */
export function PublicComingSoonPage({ title }: { title: string }) {
  return (
    <PublicShell title={title} width={640}>
      <ComingSoonPage title={title} backTo="/" backLabel="Go to sign-in" />
    </PublicShell>
  );
}
