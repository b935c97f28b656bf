import {
  Badge,
  Box,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconChevronDown, IconSearch, IconSelector } from '@tabler/icons-react';
import {
  type CSSProperties,
  Fragment,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';

export type SortDirection = 'ascending' | 'descending';
export interface QueueSort {
  /** The column's header. */
  column: string;
  direction: SortDirection;
}

/**
 * One column of a queue's table. Its words (`text`) are what the filter searches and, unless the
 * column gives a `sortValue`, what it sorts by.
 */
export interface QueueColumn<Row> {
  /** The header, also the cell's label when the table stacks on a phone. */
  header: string;
  text: (row: Row) => string;
  /** The cell when it shows more than its words: a link, a status. */
  cell?: (row: Row) => ReactNode;
  /**
   * How the column sorts, which also names its orders on a phone's "Sort by": dates oldest or
   * newest first, amounts and counts lowest or highest first, words A to Z. `false`: it does not sort.
   */
  sort?: 'text' | 'date' | 'number' | false;
  /** What it sorts by when its words would sort wrongly: an ISO date, cents. */
  sortValue?: (row: Row) => string | number | null;
  /** Amounts and counts line up on the right (and, like `nowrap`, stay on one line). */
  numeric?: boolean;
  /** Dates and short codes stay on one line. */
  nowrap?: boolean;
}

/** A column of buttons (Billing's "Send payment link"): not sorted, not searched. */
export interface QueueAction<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
}

/** A queue whose rows have states: the filter's label, each row's state, and the states in order. */
export interface QueueStatusFilter<Row> {
  label: string;
  of: (row: Row) => string;
  values: readonly string[];
}

const ORDER_WORDS: Record<'text' | 'date' | 'number', Record<SortDirection, string>> = {
  text: { ascending: 'A to Z', descending: 'Z to A' },
  date: { ascending: 'oldest first', descending: 'newest first' },
  number: { ascending: 'lowest first', descending: 'highest first' },
};

const AS_LISTED = '';
const ALL = '';

/** Below Mantine's `sm` breakpoint (48em) the table stacks: one block per row, each cell with its label. */
const PHONE = '(max-width: 47.99em)';

/** A row's words, lower case and without accents, for the filter. */
const searchable = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Each word typed must be in the row; "1000" finds $1,000.00. */
function matches(haystack: string, query: string): boolean {
  const words = searchable(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const plain = haystack.replace(/,/g, '');
  return words.every((word) => haystack.includes(word) || plain.includes(word.replace(/,/g, '')));
}

function compareValues(a: string | number | null, b: string | number | null): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en-US', { numeric: true, sensitivity: 'base' });
}

/** Clicks on the row's own links, buttons and fields do their own thing, not open the row. */
function fromControl(event: MouseEvent): boolean {
  const target = event.target as HTMLElement;
  return target.closest('a, button, input, select, textarea, label') !== null;
}

/** A status as a light badge, red only for a problem (DESIGN: red only for problems). */
export function QueueStatus({ children, problem = false }: { children: string; problem?: boolean }) {
  return (
    <Badge
      variant="light"
      color={problem ? 'red' : 'gray'}
      tt="none"
      size="md"
      styles={{ label: { overflow: 'visible' } }}
    >
      {children}
    </Badge>
  );
}

export interface QueueTableProps<Row> {
  /** The table's accessible name. */
  label: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Who and what a row is ("Grace Park (ACT10007), 1 vial"): names its Open button. */
  rowName: (row: Row) => string;
  columns: QueueColumn<Row>[];
  /** The column the server's order follows: shown as sorted, and the rows kept in the server's order. */
  defaultSort?: QueueSort;
  filterLabel?: string;
  /** Words a row is found by beyond its cells' (a tracking number, a physician). */
  searchText?: (row: Row) => string;
  status?: QueueStatusFilter<Row>;
  /** The item's card, with its actions: each row then opens and closes it. */
  detail?: (row: Row) => ReactNode;
  actions?: QueueAction<Row>[];
  /** Said when the queue has no rows. */
  empty: string;
  /** Said when rows there are, but none matches the filters. */
  noMatch?: string;
  sortable?: boolean;
  filterable?: boolean;
  /** Attributes of a row's `<tr>` (a `data-` id a journey finds it by). */
  rowProps?: (row: Row) => Record<`data-${string}`, string>;
}

/**
 * A work queue as a table, the back office's one way of listing: columns given by the queue,
 * sortable headers (`aria-sort`, buttons), a text filter over each row's words, and a status filter
 * where the queue has states. The server's order (oldest first) stays the default; sorting and
 * filtering happen in the browser, over the rows the queue answered. With `detail`, each row opens
 * the item's card under it (its actions), focus moving into it. On a phone the table stacks: one
 * block per row with each cell's label, and "Sort by" in place of the headers.
 */
export function QueueTable<Row>({
  label,
  rows,
  rowKey,
  rowName,
  columns,
  defaultSort,
  filterLabel = 'Filter by client, ID or order',
  searchText,
  status,
  detail,
  actions = [],
  empty,
  noMatch = 'Nothing here matches the filter.',
  sortable = true,
  filterable = true,
  rowProps,
}: QueueTableProps<Row>) {
  const stacked = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  const [query, setQuery] = useState('');
  const [state, setState] = useState(ALL);
  const [sort, setSort] = useState<QueueSort | null>(defaultSort ?? null);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const details = useRef(new Map<string, HTMLElement>());
  const toggles = useRef(new Map<string, HTMLButtonElement>());
  const baseId = useId();

  const sortColumn =
    sortable && sort ? columns.find((c) => c.header === sort.column && c.sort !== false) : undefined;
  const isDefault =
    !sort || (defaultSort?.column === sort.column && defaultSort.direction === sort.direction);

  const shown = useMemo(() => {
    const words = rows.map((row) =>
      searchable(
        [
          ...columns.map((column) => column.text(row)),
          status ? status.of(row) : '',
          searchText ? searchText(row) : '',
        ].join(' '),
      ),
    );
    const kept = rows
      .map((row, index) => ({ row, index }))
      .filter(
        ({ row, index }) =>
          (!status || state === ALL || status.of(row) === state) && matches(words[index] ?? '', query),
      );
    if (!sortColumn || isDefault || !sort) return kept.map(({ row }) => row);
    const sortingValue = sortColumn.sortValue ?? sortColumn.text;
    const sign = sort.direction === 'ascending' ? 1 : -1;
    return kept
      .map((entry) => ({ ...entry, value: sortingValue(entry.row) }))
      .sort((a, b) => {
        // Rows with nothing to sort by go last either way; equal ones keep the server's order.
        if (a.value === null || a.value === '')
          return b.value === null || b.value === '' ? a.index - b.index : 1;
        if (b.value === null || b.value === '') return -1;
        return sign * compareValues(a.value, b.value) || a.index - b.index;
      })
      .map(({ row }) => row);
  }, [rows, columns, status, state, searchText, query, sortColumn, sort, isDefault]);

  useEffect(() => {
    if (!focusKey) return;
    const region = details.current.get(focusKey);
    const target = region?.querySelector<HTMLElement>('h1, h2, h3, h4, h5, h6') ?? region;
    if (target) {
      if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
      target.focus();
    }
    setFocusKey(null);
  }, [focusKey]);

  if (rows.length === 0) return <Text>{empty}</Text>;

  const toggle = (key: string) => {
    const opening = !open.has(key);
    // Closed from inside its card (a click on the row), the keyboard goes back to the row's button.
    if (!opening && details.current.get(key)?.contains(document.activeElement))
      toggles.current.get(key)?.focus();
    setOpen((current) => {
      const next = new Set(current);
      if (opening) next.add(key);
      else next.delete(key);
      return next;
    });
    if (opening) setFocusKey(key);
  };
  const sortBy = (column: string) =>
    setSort((current) =>
      current?.column === column
        ? { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : { column, direction: 'ascending' },
    );
  const sortableColumns = sortable ? columns.filter((column) => column.sort !== false) : [];
  const filtered = query.trim() !== '' || state !== ALL;
  const count = detail ? columns.length + actions.length + 1 : columns.length + actions.length;

  const cellStyle: CSSProperties | undefined = stacked
    ? {
        display: 'grid',
        gridTemplateColumns: 'minmax(6.5rem, 38%) 1fr',
        columnGap: 'var(--mantine-spacing-sm)',
        padding: '2px 0',
        border: 0,
        textAlign: 'left',
        overflowWrap: 'anywhere',
      }
    : undefined;
  const leadStyle: CSSProperties = {
    display: 'block',
    padding: '0 0 4px',
    border: 0,
    overflowWrap: 'anywhere',
  };
  const cellLabel = (header: string) =>
    stacked ? (
      <Text span size="sm" c="gray.7">
        {header}
      </Text>
    ) : null;

  return (
    <Stack gap="xs">
      {(filterable || status || (stacked && sortableColumns.length > 0 && rows.length > 1)) && (
        <Group align="flex-end" gap="sm" wrap="wrap">
          {filterable && (
            <TextInput
              type="search"
              label={filterLabel}
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
              leftSection={<IconSearch size={16} aria-hidden />}
              autoComplete="off"
              style={{ flex: '1 1 240px', maxWidth: stacked ? undefined : 420 }}
            />
          )}
          {status && (
            <NativeSelect
              label={status.label}
              value={state}
              onChange={(event) => setState(event.currentTarget.value)}
              data={[
                { value: ALL, label: `All (${rows.length})` },
                ...status.values.map((value) => ({
                  value,
                  label: `${value} (${rows.filter((row) => status.of(row) === value).length})`,
                })),
              ]}
              style={{ flex: stacked ? '1 1 100%' : '0 1 240px' }}
            />
          )}
          {stacked && sortableColumns.length > 0 && rows.length > 1 && (
            <NativeSelect
              label="Sort by"
              value={sort ? `${sort.column}:${sort.direction}` : AS_LISTED}
              onChange={(event) => {
                const value = event.currentTarget.value;
                const at = value.lastIndexOf(':');
                setSort(
                  at > 0
                    ? { column: value.slice(0, at), direction: value.slice(at + 1) as SortDirection }
                    : null,
                );
              }}
              data={[
                ...(defaultSort ? [] : [{ value: AS_LISTED, label: 'As listed' }]),
                ...sortableColumns.flatMap((column) =>
                  (['ascending', 'descending'] as const).map((direction) => ({
                    value: `${column.header}:${direction}`,
                    label: `${column.header}, ${ORDER_WORDS[column.sort || 'text'][direction]}`,
                  })),
                ),
              ]}
              style={{ flex: '1 1 100%' }}
            />
          )}
        </Group>
      )}
      {/* Said as the filters change: how many rows are left, or that none is. */}
      <Group gap="sm" align="center">
        <Text size="sm" c={shown.length === 0 ? undefined : 'gray.7'} aria-live="polite" aria-atomic="true">
          {shown.length === 0 ? noMatch : filtered ? `Showing ${shown.length} of ${rows.length}.` : ''}
        </Text>
        {shown.length === 0 && (
          <Button
            variant="default"
            size="xs"
            onClick={() => {
              setQuery('');
              setState(ALL);
            }}
          >
            Clear the filters
          </Button>
        )}
      </Group>
      {shown.length === 0 ? null : (
        <Box style={{ overflowX: stacked ? undefined : 'auto' }}>
          <Table
            aria-label={label}
            verticalSpacing="xs"
            withTableBorder={!stacked}
            withRowBorders={!stacked}
            highlightOnHover={!stacked && detail !== undefined}
            style={stacked ? { display: 'block' } : undefined}
          >
            <Table.Thead style={stacked ? { display: 'none' } : undefined}>
              <Table.Tr>
                {columns.map((column) => {
                  const sorted = sort?.column === column.header ? sort.direction : undefined;
                  const canSort = sortable && column.sort !== false;
                  return (
                    <Table.Th
                      key={column.header}
                      scope="col"
                      ta={column.numeric ? 'right' : undefined}
                      aria-sort={canSort ? sorted : undefined}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {canSort ? (
                        <UnstyledButton
                          onClick={() => sortBy(column.header)}
                          fw={600}
                          fz="sm"
                          style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
                        >
                          {column.header}
                          {sorted === 'ascending' ? (
                            <IconArrowUp size={14} aria-hidden />
                          ) : sorted === 'descending' ? (
                            <IconArrowDown size={14} aria-hidden />
                          ) : (
                            <IconSelector size={14} aria-hidden color="var(--mantine-color-gray-6)" />
                          )}
                        </UnstyledButton>
                      ) : (
                        column.header
                      )}
                    </Table.Th>
                  );
                })}
                {actions.map((action) => (
                  <Table.Th key={action.header} scope="col">
                    {action.header}
                  </Table.Th>
                ))}
                {detail && (
                  <Table.Th scope="col">
                    <VisuallyHidden>Details</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={stacked ? { display: 'block' } : undefined}>
              {shown.map((row) => {
                const key = rowKey(row);
                const isOpen = detail !== undefined && open.has(key);
                const detailId = `${baseId}-${key}`;
                return (
                  <Fragment key={key}>
                    <Table.Tr
                      {...rowProps?.(row)}
                      onClick={
                        detail
                          ? (event) => {
                              if (fromControl(event) || window.getSelection()?.toString()) return;
                              toggle(key);
                            }
                          : undefined
                      }
                      bg={isOpen ? 'blue.0' : undefined}
                      style={{
                        cursor: detail ? 'pointer' : undefined,
                        ...(stacked
                          ? {
                              display: 'block',
                              border: '1px solid var(--mantine-color-gray-3)',
                              borderRadius: isOpen
                                ? 'var(--mantine-radius-md) var(--mantine-radius-md) 0 0'
                                : 'var(--mantine-radius-md)',
                              padding: 'var(--mantine-spacing-xs) var(--mantine-spacing-sm)',
                              marginTop: 'var(--mantine-spacing-sm)',
                            }
                          : {}),
                      }}
                    >
                      {columns.map((column, index) => (
                        <Table.Td
                          key={column.header}
                          ta={column.numeric && !stacked ? 'right' : undefined}
                          fw={stacked && index === 0 ? 600 : undefined}
                          style={
                            stacked
                              ? index === 0
                                ? leadStyle
                                : cellStyle
                              : column.numeric || column.nowrap
                                ? { whiteSpace: 'nowrap' }
                                : { overflowWrap: 'break-word' }
                          }
                        >
                          {/* On a phone the first column is the block's title; the others say what they are. */}
                          {index === 0 ? null : cellLabel(column.header)}
                          <span>{column.cell ? column.cell(row) : column.text(row)}</span>
                        </Table.Td>
                      ))}
                      {actions.map((action) => (
                        <Table.Td
                          key={action.header}
                          style={stacked ? { display: 'block', border: 0, padding: '6px 0 0' } : undefined}
                        >
                          {/* A button says what it does: on a phone it needs no label beside it. */}
                          {action.cell(row)}
                        </Table.Td>
                      ))}
                      {detail && (
                        <Table.Td
                          ta="right"
                          style={
                            stacked
                              ? { display: 'block', border: 0, padding: '6px 0 0' }
                              : { whiteSpace: 'nowrap' }
                          }
                        >
                          <Button
                            size="xs"
                            variant={isOpen ? 'filled' : 'light'}
                            fullWidth={stacked}
                            aria-label={`${isOpen ? 'Close' : 'Open'} ${rowName(row)}`}
                            aria-expanded={isOpen}
                            aria-controls={isOpen ? detailId : undefined}
                            rightSection={
                              <IconChevronDown
                                size={14}
                                aria-hidden
                                style={{ transform: isOpen ? 'rotate(180deg)' : undefined }}
                              />
                            }
                            onClick={() => toggle(key)}
                            ref={(element: HTMLButtonElement | null) => {
                              if (element) toggles.current.set(key, element);
                              else toggles.current.delete(key);
                            }}
                          >
                            {isOpen ? 'Close' : 'Open'}
                          </Button>
                        </Table.Td>
                      )}
                    </Table.Tr>
                    {isOpen && detail && (
                      <Table.Tr style={stacked ? { display: 'block' } : undefined}>
                        <Table.Td
                          colSpan={count}
                          id={detailId}
                          ref={(element) => {
                            if (element) details.current.set(key, element);
                            else details.current.delete(key);
                          }}
                          bg="gray.0"
                          p={stacked ? 'xs' : 'sm'}
                          style={
                            stacked
                              ? {
                                  display: 'block',
                                  border: '1px solid var(--mantine-color-gray-3)',
                                  borderTop: 0,
                                  borderRadius: '0 0 var(--mantine-radius-md) var(--mantine-radius-md)',
                                }
                              : undefined
                          }
                        >
                          {detail(row)}
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Box>
      )}
    </Stack>
  );
}
