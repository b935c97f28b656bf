import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { todayFor } from '../../../../domain/client';
import { type CheckEntry, checkEntryProblems } from '../../../../domain/staff-queues';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { ApiError } from '../../../lib/api-client';
import { QueueTable, type QueueTableProps } from './queue-table';

const EMPTY: CheckEntry = { checkNumber: '', checkAmount: '', checkDate: '' };

type Problems = Partial<Record<keyof CheckEntry, string>>;

/**
 * The check as it arrived (number, amount, date), on every check queue's card: judged by the
 * domain's rule before it is sent, and the server's problems shown by field, or above the button.
 */
export function CheckEntryForm({
  label,
  dueCents,
  pending,
  error,
  onRecord,
}: {
  /** The form's accessible name: "Record the check of <client>". */
  label: string;
  dueCents: number;
  pending: boolean;
  error: Error | null;
  /** Sends the check; calls `onFields` with the server's problems by field when it refuses it. */
  onRecord: (entry: CheckEntry, onFields: (problems: Problems) => void) => void;
}) {
  const [entry, setEntry] = useState<CheckEntry>(EMPTY);
  const [problems, setProblems] = useState<Problems>({});
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
    if (pending) return;
    const found = checkEntryProblems(entry, { dueCents, today: todayFor(new Date()) });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    onRecord(entry, setProblems);
  };
  const failure =
    error instanceof ApiError
      ? Object.keys(error.fields).length > 0
        ? null
        : error.message
      : error
        ? 'Something went wrong. Please try again.'
        : null;

  return (
    <form onSubmit={onSubmit} noValidate aria-label={label}>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput label="Check number" inputMode="numeric" autoComplete="off" {...field('checkNumber')} />
        <TextInput label="Check amount" inputMode="decimal" autoComplete="off" {...field('checkAmount')} />
        <TextInput
          label="Check date"
          inputMode="numeric"
          autoComplete="off"
          placeholder="MM/DD/YYYY"
          {...field('checkDate')}
        />
      </SimpleGrid>
      <Group mt="sm" gap="sm" align="center">
        <Button type="submit" loading={pending}>
          Record check
        </Button>
        {failure && (
          <Text c="red.8" size="sm" role="alert">
            {failure}
          </Text>
        )}
      </Group>
    </form>
  );
}

/** The server's problems by field, when it refused the check for them. */
export const fieldsOf = (error: unknown): Problems | null =>
  error instanceof ApiError ? error.fields : null;

/**
 * A check queue's page: its title and what recording does, the last check recorded, and its items
 * as a table (oldest first), each row opening the item's card with its check form; or the line
 * saying none waits.
 */
export function CheckQueuePage<Item>({
  title,
  intro,
  items,
  card,
  ...table
}: {
  title: string;
  intro: string;
  items: { data: Item[] | undefined; error: Error | null; isPending: boolean };
  card: (item: Item, onRecorded: (message: string) => void) => ReactNode;
} & Omit<QueueTableProps<Item>, 'rows' | 'detail'>) {
  const [done, setDone] = useState<string | null>(null);
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text size="sm">{intro}</Text>
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
      {items.error && (
        <Alert color="red" role="alert">
          {items.error instanceof ApiError ? items.error.message : 'Something went wrong. Please try again.'}
        </Alert>
      )}
      {items.isPending && <LoadingSpinner label="Loading" />}
      {items.data && <QueueTable {...table} rows={items.data} detail={(item) => card(item, setDone)} />}
    </Stack>
  );
}
