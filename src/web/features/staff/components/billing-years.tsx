import { Box, Card, Group, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { isoToUsDate } from '../../../../domain/dates';
import type { BillingYear } from '../../../../domain/storage-billing';
import { Fact } from '../../../components/fact';

/** A calendar date of a storage year as MM/DD/YYYY, a dash when it has none. */
export const usDate = (iso: string | null) => (iso ? isoToUsDate(iso) : '—');

export interface BillingColumn {
  header: string;
  cell: (year: BillingYear) => ReactNode;
  /** Amounts and counts line up on the right in the table. */
  numeric?: boolean;
}

/** What leads each year: the table's first column, the card's title on a phone. */
export interface BillingLead {
  header: string;
  cell: (year: BillingYear) => ReactNode;
  cardTitle: (year: BillingYear) => ReactNode;
}

/**
 * Storage years as a table on a wide screen and a card per year on a phone (facts as terms and
 * descriptions), both named `label`. Each action is a column of the table and a line under the card.
 */
export function BillingYears({
  label,
  years,
  columns,
  lead,
  actions = [],
  minWidth = 720,
}: {
  label: string;
  years: BillingYear[];
  columns: BillingColumn[];
  lead?: BillingLead;
  actions?: BillingColumn[];
  minWidth?: number;
}) {
  return (
    <>
      <Table.ScrollContainer
        minWidth={minWidth}
        type="native"
        visibleFrom="sm"
        tabIndex={0}
        aria-label={`${label} table, scrolls sideways`}
      >
        <Table striped withTableBorder verticalSpacing="xs" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {[...(lead ? [lead] : []), ...columns, ...actions].map((column) => (
                <Table.Th
                  key={column.header}
                  scope="col"
                  ta={'numeric' in column && column.numeric ? 'right' : undefined}
                >
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {years.map((year) => (
              <Table.Tr key={year.id}>
                {lead && <Table.Td>{lead.cell(year)}</Table.Td>}
                {columns.map((column) => (
                  <Table.Td
                    key={column.header}
                    ta={column.numeric ? 'right' : undefined}
                    style={{ whiteSpace: column.numeric ? 'nowrap' : undefined }}
                  >
                    {column.cell(year)}
                  </Table.Td>
                ))}
                {actions.map((action) => (
                  <Table.Td key={action.header}>{action.cell(year)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Stack
        hiddenFrom="sm"
        gap="sm"
        component="ul"
        p={0}
        m={0}
        aria-label={label}
        style={{ listStyle: 'none' }}
      >
        {years.map((year) => (
          <Card key={year.id} component="li" withBorder padding="sm">
            {lead && <Text fw={600}>{lead.cardTitle(year)}</Text>}
            <Box component="dl" mt={lead ? 'xs' : 0} mb={0} style={{ display: 'grid', gap: 2 }}>
              {columns.map((column) => (
                <Fact key={column.header} term={column.header}>
                  {column.cell(year)}
                </Fact>
              ))}
            </Box>
            {actions.length > 0 && (
              <Group mt="xs" gap="xs" align="flex-start">
                {actions.map((action) => (
                  <Box key={action.header}>{action.cell(year)}</Box>
                ))}
              </Group>
            )}
          </Card>
        ))}
      </Stack>
    </>
  );
}
