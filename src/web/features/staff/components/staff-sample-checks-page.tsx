import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { calendarDateToIso } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { staffQueueMessages as m, type SampleAwaitingCheck } from '../../../../domain/staff-queues';
import { useRecordCheck, useSampleChecks } from '../api/sample-checks';
import { CheckEntryForm, CheckQueuePage, fieldsOf } from './check-entry-form';
import { clientColumns, dayColumn, moneyColumn } from './queue-columns';
import { bankDay } from './queue-dates';
import type { QueueColumn } from './queue-table';

/** One sample waiting for its check: who and what, then the check as it arrived. */
function SampleCheckCard({
  sample,
  onRecorded,
}: {
  sample: SampleAwaitingCheck;
  onRecorded: (message: string) => void;
}) {
  const record = useRecordCheck();
  const titleId = `sample-${sample.sampleId}`;
  return (
    <Card withBorder padding="md" radius="md" component="article" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={titleId}>
          {sample.clientName} ·{' '}
          <Anchor component={Link} to={`/staff/clients/${sample.clientActId}`}>
            {sample.clientActId}
          </Anchor>
        </Title>
        <Text size="sm">
          {sample.tissue} sample from {sample.physicianName}, sent {bankDay(sample.submittedAt)}, shipping{' '}
          {sample.shipDate}
        </Text>
        <Text size="sm">
          Amount due: <strong>{formatUsd(sample.amountDueCents)}</strong>
          {sample.billingName ? ` · Billing contact: ${sample.billingName}` : ''}
          {sample.billingEmail ? ` (${sample.billingEmail})` : ''}
        </Text>
        <CheckEntryForm
          label={`Record the check of ${sample.clientName}`}
          dueCents={sample.amountDueCents}
          pending={record.isPending}
          error={record.error}
          onRecord={(entry, onFields) =>
            record.mutate(
              { sampleId: sample.sampleId, ...entry },
              {
                onSuccess: (answer) =>
                  onRecorded(`${sample.clientName} (${answer.clientActId}): ${answer.message}`),
                onError: (error) => onFields(fieldsOf(error) ?? {}),
              },
            )
          }
        />
      </Stack>
    </Card>
  );
}

const columns: QueueColumn<SampleAwaitingCheck>[] = [
  ...clientColumns<SampleAwaitingCheck>(),
  { header: 'Sample', text: (sample) => `${sample.tissue} from ${sample.physicianName}` },
  dayColumn('Sent', (sample) => sample.submittedAt),
  {
    header: 'Shipping',
    text: (sample) => sample.shipDate,
    sort: 'date',
    sortValue: (sample) => calendarDateToIso(sample.shipDate),
    nowrap: true,
  },
  moneyColumn('Amount due', (sample) => sample.amountDueCents),
];

/** The queue of new samples paid by check: record each check as it arrives, oldest first. */
export function StaffSampleChecksPage() {
  const samples = useSampleChecks();
  return (
    <CheckQueuePage
      title="New Samples Paid by Check"
      intro="Record each check when it arrives with the sample: the client's initial processing becomes paid, their consent agreement opens, and they are told by e-mail."
      items={samples}
      empty={m.noSamples}
      label="New samples paid by check"
      filterLabel="Filter by client, ID or physician"
      columns={columns}
      defaultSort={{ column: 'Sent', direction: 'ascending' }}
      rowKey={(sample) => sample.sampleId}
      rowName={(sample) => `${sample.clientName} (${sample.clientActId})`}
      card={(sample, onRecorded) => <SampleCheckCard sample={sample} onRecorded={onRecorded} />}
    />
  );
}
