import { Alert, Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useStaffQueues } from '../api/queues';
import { queuePages, queuePath } from './queue-pages';

/** The back office's start page: client search, a card per work queue with what waits in it, and Billing. */
export function StaffHomePage() {
  const queues = useStaffQueues();
  const cards = [
    {
      key: 'clients',
      title: 'Clients',
      text: 'Find a client by Client ID, name, email or date of birth.',
      to: '/staff/clients',
      count: null as number | null,
    },
    ...(queues.data ?? []).map((queue) => ({
      key: queue.key,
      title: queue.title,
      text: queuePages[queue.key]?.description ?? '',
      to: queuePath(queue.key),
      count: queue.count,
    })),
    {
      key: 'billing',
      title: 'Billing',
      text: 'Storage renewals: due in the next 30 days, charged today, waiting for a retry, overdue, and recovered after a retry.',
      to: '/staff/billing',
      count: null,
    },
  ];
  return (
    <Stack>
      <Title order={1} size="h2">
        Home
      </Title>
      {queues.error && (
        <Alert color="red" role="alert">
          {queues.error instanceof ApiError
            ? queues.error.message
            : 'The work queues could not be loaded. Please reload the page.'}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {cards.map((card) => (
          <Card key={card.key} withBorder padding="lg" radius="md" data-testid={`queue-${card.key}`}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Title order={2} size="h4">
                <Anchor component={Link} to={card.to}>
                  {card.title}
                </Anchor>
              </Title>
              {card.count !== null && (
                <Badge variant={card.count > 0 ? 'filled' : 'light'} color={card.count > 0 ? 'blue' : 'gray'}>
                  {card.count} waiting
                </Badge>
              )}
            </Group>
            <Text size="sm" mt={4}>
              {card.text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
