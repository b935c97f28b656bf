import { Alert, Anchor, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useStaffQueues } from '../api/queues';
import { queuePages, queuePath } from './queue-pages';

/**
 * While the counts load, a card per queue the web knows stands in its place (its line, with no
 * title or count yet), so the cards do not move when the counts arrive (Lighthouse's layout shift
 * was 0.15: Billing jumped from the first row to the last).
 */
const loadingQueues = Object.keys(queuePages).map((key) => ({ key, title: null, count: null }));

/** A card of the home page: its title (none yet while the counts load) and what waits, if it counts. */
interface HomeCard {
  key: string;
  title: string | null;
  text: string;
  to: string;
  count: number | null;
}

/** The back office's start page: client search, a card per work queue with what waits in it, and Billing. */
export function StaffHomePage() {
  const queues = useStaffQueues();
  const shown: Array<Pick<HomeCard, 'key' | 'title' | 'count'>> =
    queues.data ?? (queues.error ? [] : loadingQueues);
  const cards: HomeCard[] = [
    {
      key: 'clients',
      title: 'Clients',
      text: 'Find a client by Client ID, name, email or date of birth.',
      to: '/staff/clients',
      count: null,
    },
    ...shown.map((queue) => ({
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
              {card.title === null ? (
                <Skeleton height={26} width="60%" aria-hidden="true" />
              ) : (
                <Title order={2} size="h4">
                  <Anchor component={Link} to={card.to}>
                    {card.title}
                  </Anchor>
                </Title>
              )}
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
