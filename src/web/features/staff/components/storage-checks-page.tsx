import { Anchor, Badge, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import {
  storageCheckMessages as m,
  type StorageYearAwaitingCheck,
  storageYearName,
} from '../../../../domain/storage-year-checks';
import { useRecordStorageCheck, useStorageChecks } from '../api/storage-checks';
import { CheckEntryForm, CheckQueuePage, fieldsOf } from './check-entry-form';
import { clientColumns, dateColumn, moneyColumn } from './queue-columns';
import { type QueueColumn, QueueStatus } from './queue-table';

/** One storage year waiting for its check: the client, the year, when it was due and how much. */
function StorageCheckCard({
  year,
  onRecorded,
}: {
  year: StorageYearAwaitingCheck;
  onRecorded: (message: string) => void;
}) {
  const record = useRecordStorageCheck();
  const titleId = `storage-year-${year.feeId}`;
  const name = storageYearName(year.yearNumber);
  return (
    <Card withBorder padding="md" radius="md" component="article" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={titleId}>
          {year.clientName} ·{' '}
          <Anchor component={Link} to={`/staff/clients/${year.clientActId}`}>
            {year.clientActId}
          </Anchor>
        </Title>
        <Text size="sm">
          {year.yearNumber === null ? 'Annual storage' : `Annual storage, ${name}`}: due{' '}
          {isoToUsDate(year.dueDate)}{' '}
          {year.overdue && (
            <Badge color="red" variant="light">
              Overdue
            </Badge>
          )}
        </Text>
        <Text size="sm">
          Amount due: <strong>{formatUsd(year.amountDueCents)}</strong> · Storage paid until:{' '}
          {year.paidUntil ? isoToUsDate(year.paidUntil) : 'None'}, then {isoToUsDate(year.paysUntil)}
        </Text>
        <CheckEntryForm
          label={`Record the check of ${year.clientName}`}
          dueCents={year.amountDueCents}
          pending={record.isPending}
          error={record.error}
          onRecord={(entry, onFields) =>
            record.mutate(
              { feeId: year.feeId, ...entry },
              {
                onSuccess: (answer) =>
                  onRecorded(
                    `${year.clientName} (${answer.clientActId}): ${answer.message}${answer.paidUntil ? ` Storage is paid until ${isoToUsDate(answer.paidUntil)}.` : ''}`,
                  ),
                onError: (error) => onFields(fieldsOf(error) ?? {}),
              },
            )
          }
        />
      </Stack>
    </Card>
  );
}

/** A year on the queue is overdue, or invoiced and not yet due. */
const statusOf = (year: StorageYearAwaitingCheck) => (year.overdue ? 'Overdue' : 'Invoiced');

const columns: QueueColumn<StorageYearAwaitingCheck>[] = [
  ...clientColumns<StorageYearAwaitingCheck>(),
  {
    header: 'Storage year',
    text: (year) => (year.yearNumber === null ? '—' : String(year.yearNumber)),
    sort: 'number',
    sortValue: (year) => year.yearNumber,
    numeric: true,
  },
  dateColumn('Due', (year) => year.dueDate),
  moneyColumn('Amount due', (year) => year.amountDueCents),
  dateColumn('Storage paid until', (year) => year.paidUntil),
  {
    header: 'Status',
    text: statusOf,
    cell: (year) => <QueueStatus problem={year.overdue}>{statusOf(year)}</QueueStatus>,
  },
];

/** The queue of storage years invoiced (no method on file) or overdue: record each check, oldest due first. */
export function StorageChecksPage() {
  const years = useStorageChecks();
  return (
    <CheckQueuePage
      title="Storage Years Paid by Check"
      intro="Storage years invoiced to clients with no payment method on file, and overdue years. Record each check when it arrives: the year is paid (storage paid-until date, Client Activity) and the client is e-mailed the receipt."
      items={years}
      empty={m.noYears}
      label="Storage years paid by check"
      filterLabel="Filter by client, ID or year"
      columns={columns}
      status={{ label: 'Status', of: statusOf, values: ['Overdue', 'Invoiced'] }}
      defaultSort={{ column: 'Due', direction: 'ascending' }}
      rowKey={(year) => year.feeId}
      rowName={(year) => `${year.clientName} (${year.clientActId}), ${storageYearName(year.yearNumber)}`}
      card={(year, onRecorded) => <StorageCheckCard year={year} onRecorded={onRecorded} />}
    />
  );
}
