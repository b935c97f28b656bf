import { Anchor, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { CheckAndLabQueueCards } from './check-and-lab-queue-cards';

/**
 * The back office's start page. Each work queue (checks, lab reports, vial requests, store orders,
 * unknown payments) becomes a card here with its count, in a later round.
 */
const sections = [
  {
    title: 'Clients',
    text: 'Find a client by Client ID, name, email or date of birth.',
    to: '/staff/clients',
  },
] as const;

export function StaffHomePage() {
  return (
    <Stack>
      <Title order={1} size="h2">
        Home
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {sections.map((section) => (
          <Card key={section.to} withBorder padding="lg" radius="md">
            <Title order={2} size="h4">
              <Anchor component={Link} to={section.to}>
                {section.title}
              </Anchor>
            </Title>
            <Text size="sm" mt={4}>
              {section.text}
            </Text>
          </Card>
        ))}
        <CheckAndLabQueueCards />
      </SimpleGrid>
    </Stack>
  );
}
