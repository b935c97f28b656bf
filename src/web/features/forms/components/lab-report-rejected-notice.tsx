import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { bankDate } from './completed-notice';

/** Above the screening form when the bank rejected the last lab report: why, and what to do. */
export function LabReportRejectedNotice({
  rejection,
}: {
  rejection: { reason: string; rejectedAt: string };
}) {
  const on = bankDate(rejection.rejectedAt);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title="Your lab report was not accepted"
      mb="md"
      data-testid="lab-report-rejected"
    >
      <Text size="sm">
        The bank reviewed your lab report{on ? ` on ${on}` : ''} and could not accept it. Reason:
      </Text>
      <Text size="sm" fw={600} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {rejection.reason}
      </Text>
      <Text size="sm">Please submit the infectious disease screening form again.</Text>
    </Alert>
  );
}
