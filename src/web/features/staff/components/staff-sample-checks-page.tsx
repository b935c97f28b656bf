import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { todayFor } from '../../../../domain/client';
import { formatUsd } from '../../../../domain/money';
import {
  type CheckEntry,
  checkEntryProblems,
  staffQueueMessages as m,
  type SampleAwaitingCheck,
} from '../../../../domain/staff-queues';
import { ApiError } from '../../../lib/api-client';
import { useRecordCheck, useSampleChecks } from '../api/sample-checks';
import { bankDay } from './queue-dates';

const EMPTY: CheckEntry = { checkNumber: '', checkAmount: '', checkDate: '' };

/** One sample waiting for its check: who and what, then the check as it arrived. */
function SampleCheckCard({
  sample,
  onRecorded,
}: {
  sample: SampleAwaitingCheck;
  onRecorded: (message: string) => void;
}) {
  const [entry, setEntry] = useState<CheckEntry>(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<keyof CheckEntry, string>>>({});
  const record = useRecordCheck();
  const titleId = `sample-${sample.sampleId}`;
  const field = (name: keyof CheckEntry) => ({
    value: entry[name],
    error: problems[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setEntry((current) => ({ ...current, [name]: value }));
      setProblems((current) => ({ ...current, [name]: undefined }));
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (record.isPending) return;
    const found = checkEntryProblems(entry, {
      dueCents: sample.amountDueCents,
      today: todayFor(new Date()),
    });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    record.mutate(
      { sampleId: sample.sampleId, ...entry },
      {
        onSuccess: (answer) => onRecorded(`${sample.clientName} (${answer.clientActId}): ${answer.message}`),
        onError: (error) => {
          if (error instanceof ApiError) setProblems(error.fields);
        },
      },
    );
  };
  const failure =
    record.error instanceof ApiError
      ? Object.keys(record.error.fields).length > 0
        ? null
        : record.error.message
      : record.error
        ? 'Something went wrong. Please try again.'
        : null;

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
        <form onSubmit={onSubmit} noValidate aria-label={`Record the check of ${sample.clientName}`}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label="Check number"
              inputMode="numeric"
              autoComplete="off"
              {...field('checkNumber')}
            />
            <TextInput
              label="Check amount"
              inputMode="decimal"
              autoComplete="off"
              {...field('checkAmount')}
            />
            <TextInput
              label="Check date"
              inputMode="numeric"
              autoComplete="off"
              placeholder="MM/DD/YYYY"
              {...field('checkDate')}
            />
          </SimpleGrid>
          <Group mt="sm" gap="sm" align="center">
            <Button type="submit" loading={record.isPending}>
              Record check
            </Button>
            {failure && (
              <Text c="red.8" size="sm" role="alert">
                {failure}
              </Text>
            )}
          </Group>
        </form>
      </Stack>
    </Card>
  );
}

/** The queue of new samples paid by check: record each check as it arrives, oldest first. */
export function StaffSampleChecksPage() {
  const samples = useSampleChecks();
  const [done, setDone] = useState<string | null>(null);
  return (
    <Stack>
      <Title order={1} size="h2">
        New Samples Paid by Check
      </Title>
      <Text size="sm">
        Record each check when it arrives with the sample: the client's initial processing becomes paid, their
        consent agreement opens, and they are told by e-mail.
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
      {samples.error && (
        <Alert color="red" role="alert">
          {samples.error instanceof ApiError
            ? samples.error.message
            : 'Something went wrong. Please try again.'}
        </Alert>
      )}
      {samples.data?.length === 0 && <Text>{m.noSamples}</Text>}
      {samples.data?.map((sample) => (
        <SampleCheckCard key={sample.sampleId} sample={sample} onRecorded={setDone} />
      ))}
    </Stack>
  );
}
