import { Alert, Anchor, Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { type LabReportAwaiting, staffQueueMessages as m } from '../../../../domain/staff-queues';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { ApiError } from '../../../lib/api-client';
import { useLabReports, useReviewLabReport } from '../api/lab-reports';
import { staffDocumentUrl } from '../api/staff-client';
import { clientColumns, dayColumn } from './queue-columns';
import { bankDay } from './queue-dates';
import { type QueueColumn, QueueTable } from './queue-table';

function sizeOf(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`;
}

/** One uploaded lab report: read it, then accept it, or reject it with a reason for the client. */
function LabReportCard({
  report,
  onReviewed,
}: {
  report: LabReportAwaiting;
  onReviewed: (message: string) => void;
}) {
  const review = useReviewLabReport();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const titleId = `lab-report-${report.submissionId}`;
  const done = (message: string) => onReviewed(`${report.clientName} (${report.clientActId}): ${message}`);
  const failure =
    review.error instanceof ApiError
      ? review.error.fields.reason
        ? null
        : review.error.message
      : review.error
        ? 'Something went wrong. Please try again.'
        : null;

  const accept = () => {
    if (review.isPending) return;
    review.mutate(
      { submissionId: report.submissionId, outcome: 'accepted' },
      { onSuccess: (answer) => done(answer.message) },
    );
  };
  const reject = (event: FormEvent) => {
    event.preventDefault();
    if (review.isPending) return;
    if (!reason.trim()) {
      setReasonError(m.reasonRequired);
      return;
    }
    review.mutate(
      { submissionId: report.submissionId, outcome: 'rejected', reason: reason.trim() },
      {
        onSuccess: (answer) => done(answer.message),
        onError: (error) => {
          if (error instanceof ApiError && error.fields.reason) setReasonError(error.fields.reason);
        },
      },
    );
  };

  return (
    <Card withBorder padding="md" radius="md" component="article" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={titleId}>
          {report.clientName} ·{' '}
          <Anchor component={Link} to={`/staff/clients/${report.clientActId}`}>
            {report.clientActId}
          </Anchor>
        </Title>
        <Text size="sm">
          Uploaded {bankDay(report.submittedAt)} by{' '}
          {report.submittedBy === 'Client' ? 'the client' : report.submittedBy}
        </Text>
        <Anchor
          href={staffDocumentUrl(report.documentId)}
          target="_blank"
          rel="noopener"
          size="sm"
          style={{ display: 'inline-flex', alignItems: 'center', gap: 6, overflowWrap: 'anywhere' }}
        >
          <IconExternalLink size={16} aria-hidden />
          View the lab report ({report.fileName}, {sizeOf(report.sizeBytes)}, opens in a new tab)
        </Anchor>
        {rejecting ? (
          <form onSubmit={reject} noValidate aria-label={`Reject the lab report of ${report.clientName}`}>
            <Textarea
              label="Reason for rejection"
              description="The client sees this on their screening form and in the e-mail."
              styles={{ description: { color: 'var(--mantine-color-text)' } }}
              autosize
              minRows={2}
              maxLength={1000}
              value={reason}
              error={reasonError}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setReasonError(null);
              }}
            />
            <Group mt="sm" gap="sm" align="center">
              <Button type="submit" color="red" loading={review.isPending}>
                Reject lab report
              </Button>
              <Button variant="default" onClick={() => setRejecting(false)} disabled={review.isPending}>
                Cancel
              </Button>
              {failure && (
                <Text c="red.8" size="sm" role="alert">
                  {failure}
                </Text>
              )}
            </Group>
          </form>
        ) : (
          <Group gap="sm" align="center">
            <Button onClick={accept} loading={review.isPending}>
              Accept
            </Button>
            <Button variant="default" onClick={() => setRejecting(true)} disabled={review.isPending}>
              Reject…
            </Button>
            {failure && (
              <Text c="red.8" size="sm" role="alert">
                {failure}
              </Text>
            )}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

const uploader = (report: LabReportAwaiting) =>
  report.submittedBy === 'Client' ? 'The client' : report.submittedBy;

const columns: QueueColumn<LabReportAwaiting>[] = [
  ...clientColumns<LabReportAwaiting>(),
  dayColumn('Uploaded', (report) => report.submittedAt),
  { header: 'Uploaded by', text: uploader },
  { header: 'File', text: (report) => `${report.fileName}, ${sizeOf(report.sizeBytes)}` },
];

/** The queue of uploaded lab reports: oldest first. */
export function StaffLabReportsPage() {
  const reports = useLabReports();
  const [done, setDone] = useState<string | null>(null);
  return (
    <Stack>
      <Title order={1} size="h2">
        Lab Reports
      </Title>
      <Text size="sm">
        Lab reports clients and physicians uploaded with the infectious disease screening form. Read each one,
        then accept it, or reject it with a reason: the client's screening form opens again and shows the
        reason, and the client is told by e-mail.
      </Text>
      {done && (
        <Alert
          color="green"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setDone(null)}
        >
          {done}
        </Alert>
      )}
      {reports.error && (
        <Alert color="red" role="alert">
          {reports.error instanceof ApiError
            ? reports.error.message
            : 'Something went wrong. Please try again.'}
        </Alert>
      )}
      {reports.isPending && <LoadingSpinner label="Loading" />}
      {reports.data && (
        <QueueTable
          label="Lab reports"
          filterLabel="Filter by client, ID or physician"
          rows={reports.data}
          columns={columns}
          defaultSort={{ column: 'Uploaded', direction: 'ascending' }}
          rowKey={(report) => report.submissionId}
          rowName={(report) => `${report.clientName} (${report.clientActId})`}
          empty={m.noLabReports}
          detail={(report) => <LabReportCard report={report} onReviewed={setDone} />}
        />
      )}
    </Stack>
  );
}
