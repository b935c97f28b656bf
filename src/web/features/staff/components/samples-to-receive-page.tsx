import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { todayFor } from '../../../../domain/client';
import { calendarDateToIso, isoDateOf } from '../../../../domain/dates';
import {
  sampleReceiptMessages as m,
  type SampleReceiptEntry,
  type SampleToReceive,
  sampleReceiptProblems,
} from '../../../../domain/storage-year';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { ApiError } from '../../../lib/api-client';
import { useReceiveSample, useSamplesToReceive } from '../api/samples-to-receive';
import { clientColumns, dayColumn } from './queue-columns';
import { bankDay } from './queue-dates';
import { type QueueColumn, QueueStatus, QueueTable } from './queue-table';

const EMPTY: SampleReceiptEntry = { receivedOn: '', vialsBanked: '' };

/** One sample on its way: who and what, then the day it arrived and the vials banked. */
function SampleToReceiveCard({
  sample,
  onReceived,
}: {
  sample: SampleToReceive;
  onReceived: (message: string) => void;
}) {
  const [entry, setEntry] = useState<SampleReceiptEntry>(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<keyof SampleReceiptEntry, string>>>({});
  const receive = useReceiveSample();
  const titleId = `arrival-${sample.sampleId}`;
  const field = (name: keyof SampleReceiptEntry) => ({
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
    if (receive.isPending) return;
    const found = sampleReceiptProblems(entry, {
      today: todayFor(new Date()),
      submittedOn: isoDateOf(new Date(sample.submittedAt)),
    });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    receive.mutate(
      { sampleId: sample.sampleId, ...entry },
      {
        onSuccess: (answer) => onReceived(`${sample.clientName} (${answer.clientActId}): ${answer.message}`),
        onError: (error) => {
          if (error instanceof ApiError) setProblems(error.fields);
        },
      },
    );
  };
  const failure =
    receive.error instanceof ApiError
      ? Object.keys(receive.error.fields).length > 0
        ? null
        : receive.error.message
      : receive.error
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
          {sample.tissue} sample from {sample.physicianName}, form sent {bankDay(sample.submittedAt)},
          shipping {sample.shipDate}
        </Text>
        <Text size="sm">
          Initial processing:{' '}
          {sample.initialProcessingPaid
            ? `paid${sample.paidBy === 'card' ? ' by card' : ' by check'}`
            : 'check to come with the sample'}
        </Text>
        <form
          onSubmit={onSubmit}
          noValidate
          aria-label={`Record the arrival of ${sample.clientName}'s sample`}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Date received"
              inputMode="numeric"
              autoComplete="off"
              placeholder="MM/DD/YYYY"
              {...field('receivedOn')}
            />
            <TextInput
              label="Vials banked"
              inputMode="numeric"
              autoComplete="off"
              {...field('vialsBanked')}
            />
          </SimpleGrid>
          <Group mt="sm" gap="sm" align="center">
            <Button type="submit" loading={receive.isPending}>
              Record arrival
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

const PAYMENT_STATES = ['Paid by card', 'Paid by check', 'Check to come'] as const;

/** The initial processing's state, as the card says it. */
const paymentOf = (sample: SampleToReceive) =>
  sample.initialProcessingPaid
    ? sample.paidBy === 'card'
      ? 'Paid by card'
      : 'Paid by check'
    : 'Check to come';

const columns: QueueColumn<SampleToReceive>[] = [
  ...clientColumns<SampleToReceive>(),
  { header: 'Sample', text: (sample) => `${sample.tissue} from ${sample.physicianName}` },
  {
    header: 'Shipping',
    text: (sample) => sample.shipDate,
    sort: 'date',
    sortValue: (sample) => calendarDateToIso(sample.shipDate),
    nowrap: true,
  },
  dayColumn('Form sent', (sample) => sample.submittedAt),
  {
    header: 'Initial processing',
    text: paymentOf,
    cell: (sample) => <QueueStatus>{paymentOf(sample)}</QueueStatus>,
  },
];

/** The queue of samples on their way to the bank: record each arrival, earliest ship date first. */
export function SamplesToReceivePage() {
  const samples = useSamplesToReceive();
  const [done, setDone] = useState<string | null>(null);
  return (
    <Stack>
      <Title order={1} size="h2">
        Samples to Receive
      </Title>
      <Text size="sm">
        Record the day each sample's tissue arrives and the vials banked. That day is the client's banked
        date: the first year of storage is included, and the annual storage fee falls due on each anniversary
        of it.
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
      {samples.isPending && <LoadingSpinner label="Loading" />}
      {samples.data && (
        <QueueTable
          label="Samples to receive"
          filterLabel="Filter by client, ID or physician"
          rows={samples.data}
          columns={columns}
          status={{ label: 'Initial processing', of: paymentOf, values: PAYMENT_STATES }}
          defaultSort={{ column: 'Shipping', direction: 'ascending' }}
          rowKey={(sample) => sample.sampleId}
          rowName={(sample) => `${sample.clientName} (${sample.clientActId})`}
          empty={m.noSamples}
          detail={(sample) => <SampleToReceiveCard sample={sample} onReceived={setDone} />}
        />
      )}
    </Stack>
  );
}
