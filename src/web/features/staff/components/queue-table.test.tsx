import { Title } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInPortal } from '../../../testing/render';
import { clientColumns, dateColumn, moneyColumn } from './queue-columns';
import { type QueueColumn, QueueTable, type QueueTableProps } from './queue-table';

interface Year {
  id: string;
  clientName: string;
  clientActId: string;
  dueDate: string;
  amountCents: number;
  overdue: boolean;
  reference: string;
}

/** Three rows in the server's order: oldest due first. */
const years: Year[] = [
  {
    id: 'a',
    clientName: 'Omar Haddad',
    clientActId: 'ACT10006',
    dueDate: '2024-11-07',
    amountCents: 33_981,
    overdue: true,
    reference: 'check-7301',
  },
  {
    id: 'b',
    clientName: 'John Roe',
    clientActId: 'ACT10002',
    dueDate: '2025-12-27',
    amountCents: 100_000,
    overdue: true,
    reference: '',
  },
  {
    id: 'c',
    clientName: 'Ivy Chen',
    clientActId: 'ACT10009',
    dueDate: '2026-12-17',
    amountCents: 35_000,
    overdue: false,
    reference: '',
  },
];

const statusOf = (year: Year) => (year.overdue ? 'Overdue' : 'Invoiced');
const columns: QueueColumn<Year>[] = [
  ...clientColumns<Year>(),
  dateColumn('Due', (year) => year.dueDate),
  moneyColumn('Amount', (year) => year.amountCents),
  { header: 'Status', text: statusOf },
];

function renderTable(props: Partial<QueueTableProps<Year>> = {}) {
  renderInPortal(
    <MemoryRouter>
      <QueueTable
        label="Storage years"
        rows={years}
        columns={columns}
        rowKey={(year) => year.id}
        rowName={(year) => `${year.clientName} (${year.clientActId})`}
        defaultSort={{ column: 'Due', direction: 'ascending' }}
        status={{ label: 'Status', of: statusOf, values: ['Overdue', 'Invoiced'] }}
        searchText={(year) => year.reference}
        empty="No storage years are waiting."
        detail={(year) => (
          <section aria-label={`The card of ${year.clientName}`}>
            <Title order={2}>{year.clientName}</Title>
            <button type="button">Record check</button>
          </section>
        )}
        {...props}
      />
    </MemoryRouter>,
  );
  return screen.getByRole('table', { name: 'Storage years' });
}

/** The table's rows of items (not their opened cards), top to bottom. */
const itemRows = (table: HTMLElement) =>
  [...table.querySelectorAll<HTMLTableRowElement>('tbody > tr')].filter((row) => row.cells.length > 1);

/** The client names of the table's rows, top to bottom. */
const order = (table: HTMLElement) => itemRows(table).map((row) => row.cells[0]?.textContent);

const header = (table: HTMLElement, name: string) => within(table).getByRole('columnheader', { name });

afterEach(() => vi.unstubAllGlobals());

describe('a queue as a table', () => {
  it("keeps the server's order at first, its column marked as sorted oldest first", () => {
    const table = renderTable();
    expect(order(table)).toEqual(['Omar Haddad', 'John Roe', 'Ivy Chen']);
    expect(header(table, 'Due').getAttribute('aria-sort')).toBe('ascending');
    expect(header(table, 'Amount').getAttribute('aria-sort')).toBeNull();
    expect(within(table).getByText('$1,000.00')).toBeTruthy();
    expect(within(table).getByText('12/27/2025')).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'ACT10002' }).getAttribute('href')).toBe(
      '/staff/clients/ACT10002',
    );
  });

  it('sorts by a header, ascending then descending, each header a button saying its order in aria-sort', async () => {
    const user = userEvent.setup();
    const table = renderTable();
    await user.click(within(table).getByRole('button', { name: 'Amount' }));
    expect(order(table)).toEqual(['Omar Haddad', 'Ivy Chen', 'John Roe']);
    expect(header(table, 'Amount').getAttribute('aria-sort')).toBe('ascending');
    expect(header(table, 'Due').getAttribute('aria-sort')).toBeNull();

    await user.click(within(table).getByRole('button', { name: 'Amount' }));
    expect(order(table)).toEqual(['John Roe', 'Ivy Chen', 'Omar Haddad']);
    expect(header(table, 'Amount').getAttribute('aria-sort')).toBe('descending');

    // By keyboard: Tab to a header's button, Enter sorts.
    within(table).getByRole('button', { name: 'Client' }).focus();
    await user.keyboard('{Enter}');
    expect(order(table)).toEqual(['Ivy Chen', 'John Roe', 'Omar Haddad']);
    expect(header(table, 'Client').getAttribute('aria-sort')).toBe('ascending');
    await user.keyboard(' ');
    expect(order(table)).toEqual(['Omar Haddad', 'John Roe', 'Ivy Chen']);
    expect(header(table, 'Client').getAttribute('aria-sort')).toBe('descending');

    // Back to the due date, newest first.
    await user.click(within(table).getByRole('button', { name: 'Due' }));
    await user.click(within(table).getByRole('button', { name: 'Due' }));
    expect(order(table)).toEqual(['Ivy Chen', 'John Roe', 'Omar Haddad']);
    expect(header(table, 'Due').getAttribute('aria-sort')).toBe('descending');
  });

  it("filters on the row's words, whatever the case, the amount typed without its comma, and words beyond the cells", async () => {
    const user = userEvent.setup();
    const table = renderTable();
    const filter = screen.getByRole('searchbox', { name: 'Filter by client, ID or order' });
    await user.type(filter, 'roe');
    expect(order(table)).toEqual(['John Roe']);
    expect(screen.getByText('Showing 1 of 3.')).toBeTruthy();
    await user.clear(filter);
    await user.type(filter, 'act1000');
    expect(order(table)).toEqual(['Omar Haddad', 'John Roe', 'Ivy Chen']);
    await user.clear(filter);
    await user.type(filter, '1000.00');
    expect(order(table)).toEqual(['John Roe']);
    await user.clear(filter);
    await user.type(filter, 'CHECK-7301');
    expect(order(table)).toEqual(['Omar Haddad']);
    // Each word must be found in the row, wherever it is: her name, the year's status.
    await user.clear(filter);
    await user.type(filter, 'ivy invoiced');
    expect(order(table)).toEqual(['Ivy Chen']);
  });

  it('filters by status, each state with its count, together with the text filter', async () => {
    const user = userEvent.setup();
    const table = renderTable();
    const status = screen.getByRole('combobox', { name: 'Status' });
    expect(
      within(status)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All (3)', 'Overdue (2)', 'Invoiced (1)']);
    await user.selectOptions(status, 'Overdue');
    expect(order(table)).toEqual(['Omar Haddad', 'John Roe']);
    expect(screen.getByText('Showing 2 of 3.')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Filter by client, ID or order' }), 'omar');
    expect(order(table)).toEqual(['Omar Haddad']);
  });

  it('says when no row matches the filters, and clears them', async () => {
    const user = userEvent.setup();
    renderTable();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Invoiced');
    await user.type(screen.getByRole('searchbox', { name: 'Filter by client, ID or order' }), 'roe');
    expect(screen.getByText('Nothing here matches the filter.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Clear the filters' }));
    const table = screen.getByRole('table', { name: 'Storage years' });
    expect(order(table)).toEqual(['Omar Haddad', 'John Roe', 'Ivy Chen']);
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('');
  });

  it('says the queue is empty in words, with no table and no filter', () => {
    renderInPortal(
      <QueueTable
        label="Storage years"
        rows={[]}
        columns={columns}
        rowKey={(year) => year.id}
        rowName={(year) => year.clientName}
        empty="No storage years are waiting."
      />,
    );
    expect(screen.getByText('No storage years are waiting.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it("opens a row's card under it with the keyboard in it, and closes it", async () => {
    const user = userEvent.setup();
    const table = renderTable();
    const open = within(table).getByRole('button', { name: 'Open John Roe (ACT10002)' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    await user.click(open);
    const card = within(table).getByRole('region', { name: 'The card of John Roe' });
    await waitFor(() => expect(document.activeElement).toBe(within(card).getByRole('heading')));
    const close = within(table).getByRole('button', { name: 'Close John Roe (ACT10002)' });
    expect(close.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(close.getAttribute('aria-controls') ?? '')?.contains(card)).toBe(true);
    // The card stays open while the rows are sorted.
    await user.click(within(table).getByRole('button', { name: 'Amount' }));
    expect(within(table).getByRole('region', { name: 'The card of John Roe' })).toBeTruthy();
    await user.click(close);
    expect(within(table).queryByRole('region')).toBeNull();
    // A click on the row itself opens it too; its links do not.
    await user.click(within(table).getByText('Ivy Chen'));
    expect(within(table).getByRole('region', { name: 'The card of Ivy Chen' })).toBeTruthy();
  });

  it('puts rows with nothing to sort by last, either way', async () => {
    const user = userEvent.setup();
    const table = renderTable({
      rows: [...years, { ...years[0], id: 'd', clientName: 'Ana Lima', dueDate: '' } as Year],
      columns: [...columns, dateColumn('Paid on', (year) => (year.id === 'b' ? '2026-01-05' : null))],
    });
    await user.click(within(table).getByRole('button', { name: 'Paid on' }));
    expect(order(table)[0]).toBe('John Roe');
    await user.click(within(table).getByRole('button', { name: 'Paid on' }));
    expect(order(table)[0]).toBe('John Roe');
    expect(within(table).getAllByText('—').length).toBe(4);
  });
});

describe('a queue on a phone', () => {
  it('stacks each row with its labels, and sorts with "Sort by" in place of the headers', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    const user = userEvent.setup();
    const table = renderTable();
    const sortBy = screen.getByRole('combobox', { name: 'Sort by' });
    expect((sortBy as HTMLSelectElement).value).toBe('Due:ascending');
    expect(
      within(sortBy)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toContain('Amount, highest first');
    await user.selectOptions(sortBy, 'Amount, highest first');
    expect(order(table)).toEqual(['John Roe', 'Ivy Chen', 'Omar Haddad']);
    // Each cell but the first (the block's title) says what it is.
    const [john] = itemRows(table);
    expect(within(john as HTMLElement).getByText('Amount')).toBeTruthy();
    expect(within(john as HTMLElement).getByText('$1,000.00')).toBeTruthy();
  });
});
