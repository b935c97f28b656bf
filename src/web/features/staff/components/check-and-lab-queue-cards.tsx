import { Anchor, Badge, Card, Group, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useLabReports } from '../api/lab-reports';
import { useSampleChecks } from '../api/sample-checks';

export const checkAndLabQueues = {
  checks: { to: '/staff/queues/checks', label: 'New Samples Paid by Check' },
  labReports: { to: '/staff/queues/lab-reports', label: 'Lab Reports' },
} as const;

function QueueCard({ to, title, text, count }: { to: string; title: string; text: string; count?: number }) {
  return (
    <Card withBorder padding="lg" radius="md">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={2} size="h4">
          <Anchor component={Link} to={to}>
            {title}
          </Anchor>
        </Title>
        {count !== undefined && (
          <Badge size="lg" variant={count > 0 ? 'filled' : 'light'} style={{ flexShrink: 0 }}>
            {count} waiting
          </Badge>
        )}
      </Group>
      <Text size="sm" mt={4}>
        {text}
      </Text>
    </Card>
  );
}

/** The home page's cards of the checks and lab reports queues, with how many items wait in each. */
export function CheckAndLabQueueCards() {
  const samples = useSampleChecks();
  const reports = useLabReports();
  return (
    <>
      <QueueCard
        to={checkAndLabQueues.checks.to}
        title={checkAndLabQueues.checks.label}
        text="Record the check that came with a new sample: initial processing paid."
        count={samples.data?.length}
      />
      <QueueCard
        to={checkAndLabQueues.labReports.to}
        title={checkAndLabQueues.labReports.label}
        text="Read the uploaded lab reports; accept, or reject with a reason."
        count={reports.data?.length}
      />
    </>
  );
}
