import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { bankDay } from './queue-dates';
import type { QueueColumn } from './queue-table';

/** The columns every queue starts with: the client's name, and their Client ID linking to their record. */
export function clientColumns<Row extends { clientName: string; clientActId: string }>(): QueueColumn<Row>[] {
  return [
    { header: 'Client', text: (row) => row.clientName },
    {
      header: 'Client ID',
      text: (row) => row.clientActId,
      nowrap: true,
      cell: (row) => (
        <Anchor component={Link} to={`/staff/clients/${row.clientActId}`} size="sm">
          {row.clientActId}
        </Anchor>
      ),
    },
  ];
}

/**
 * The client in one column, their name over their Client ID (a link to their record): for the
 * wider tables of the Billing page. Sorted by name; the filter finds either.
 */
export function clientColumn<Row extends { clientName: string; clientActId: string }>(): QueueColumn<Row> {
  return {
    header: 'Client',
    text: (row) => `${row.clientName} ${row.clientActId}`,
    sortValue: (row) => row.clientName,
    cell: (row) => (
      <>
        {row.clientName}
        <br />
        <Anchor component={Link} to={`/staff/clients/${row.clientActId}`} size="sm">
          {row.clientActId}
        </Anchor>
      </>
    ),
  };
}

/** An amount as the back office shows one ($1,000.00), sorted by its cents. */
export function moneyColumn<Row>(header: string, cents: (row: Row) => number): QueueColumn<Row> {
  return {
    header,
    text: (row) => formatUsd(cents(row)),
    sort: 'number',
    sortValue: cents,
    numeric: true,
  };
}

/** An instant as the bank's day (MM/DD/YYYY), sorted by the instant. */
export function dayColumn<Row>(header: string, instant: (row: Row) => string | null): QueueColumn<Row> {
  return {
    header,
    text: (row) => {
      const at = instant(row);
      return at ? bankDay(at) : '—';
    },
    sort: 'date',
    sortValue: instant,
    nowrap: true,
  };
}

/** A calendar date (YYYY-MM-DD) as MM/DD/YYYY, sorted by the date. */
export function dateColumn<Row>(header: string, iso: (row: Row) => string | null): QueueColumn<Row> {
  return {
    header,
    text: (row) => {
      const date = iso(row);
      return date ? isoToUsDate(date) : '—';
    },
    sort: 'date',
    sortValue: iso,
    nowrap: true,
  };
}

/** An item's facts on its card, a label and its value per line. */
export function QueueFacts({ facts }: { facts: Array<[string, string]> }) {
  return (
    <Table variant="vertical" layout="fixed" withRowBorders={false} mb="sm">
      <Table.Tbody>
        {facts.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={{ base: 120, sm: 200 }}>{label}</Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
