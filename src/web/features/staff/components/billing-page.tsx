import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Fragment, useEffect, useId, useRef, useState } from 'react';
import { isoToUsDate } from '../../../../domain/dates';
import { paymentLinkMessages } from '../../../../domain/staff';
import { type BillingYear, declineReasonLabel } from '../../../../domain/storage-billing';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { useBillingOverview } from '../api/billing';
import { useSendPaymentLink } from '../api/payment-link';
import { useStaffSession } from '../api/staff-session';
import { ActionAnswer } from './action-answer';
import { errorText } from './admin-only';
import { BillingInstallments } from './billing-installments';
import { clientColumn, dateColumn, moneyColumn } from './queue-columns';
import { type QueueAction, type QueueColumn, QueueTable } from './queue-table';
import { RunBillingForm } from './run-billing-form';
import { WaiveOrDeferModal } from './waive-or-defer-modal';

type BillingColumn = QueueColumn<BillingYear>;

const common: BillingColumn[] = [
  clientColumn<BillingYear>(),
  {
    header: 'Storage year',
    text: (y) => (y.yearNumber === null ? '—' : String(y.yearNumber)),
    sort: 'number',
    sortValue: (y) => y.yearNumber,
    numeric: true,
  },
  dateColumn('Due', (y) => y.dueDate),
  moneyColumn('Amount', (y) => y.amountCents),
  { header: 'Method', text: (y) => y.method },
];
const tries: BillingColumn = {
  header: 'Tries',
  text: (y) => String(y.tries),
  sort: 'number',
  sortValue: (y) => y.tries,
  numeric: true,
};
const lastDecline: BillingColumn = { header: 'Last decline', text: (y) => declineReasonLabel(y.lastDecline) };
const retryColumns: BillingColumn[] = [tries, dateColumn('Next try', (y) => y.nextTryOn), lastDecline];
const paidOn = dateColumn<BillingYear>('Paid on', (y) => y.paidOn);

type LinkAnswer = { text: string; problem: boolean };

/**
 * The Overdue section's "Send payment link": one e-mail at a time, its answer kept per client (on
 * each of the client's overdue years).
 */
function usePaymentLinks() {
  const send = useSendPaymentLink();
  const [answers, setAnswers] = useState<Record<string, LinkAnswer>>({});
  const answer = (clientActId: string, value: LinkAnswer) =>
    setAnswers((current) => ({ ...current, [clientActId]: value }));
  return {
    answers,
    busy: send.isPending,
    sendingTo: send.isPending ? (send.variables?.clientId ?? null) : null,
    send(clientActId: string) {
      if (send.isPending) return;
      send.mutate(
        { clientId: clientActId, channel: 'email' },
        {
          onSuccess: (sent) =>
            answer(clientActId, {
              text: `${paymentLinkMessages.sentEmail} Sent to ${sent.sentTo}.`,
              problem: false,
            }),
          onError: (error) => answer(clientActId, { text: errorText(error) ?? '', problem: true }),
        },
      );
    },
  };
}

function PaymentLinkAction({
  year,
  links,
}: {
  year: BillingYear;
  links: ReturnType<typeof usePaymentLinks>;
}) {
  const answer = links.answers[year.clientActId];
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="default"
        aria-label={`Send payment link to ${year.clientName}`}
        loading={links.sendingTo === year.clientActId}
        disabled={links.busy}
        onClick={() => links.send(year.clientActId)}
      >
        Send payment link
      </Button>
      <ActionAnswer answer={answer} />
    </Stack>
  );
}

/**
 * One section of the page: its title, then its years as a sortable table, or a line saying there
 * are none. The overdue years can be filtered too.
 */
function BillingSection({
  title,
  empty,
  years,
  columns,
  actions,
  filterable = false,
}: {
  title: string;
  empty: string;
  years: BillingYear[];
  columns: BillingColumn[];
  actions?: QueueAction<BillingYear>[];
  filterable?: boolean;
}) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs">
      <Title order={2} size="h3" id={headingId}>
        {title}
      </Title>
      <QueueTable
        label={title}
        rows={years}
        columns={columns}
        actions={actions}
        rowKey={(year) => year.id}
        rowName={(year) => `${year.clientName} (${year.clientActId})`}
        empty={empty}
        filterable={filterable}
        filterLabel="Filter by client, ID or method"
        searchText={(year) => year.note ?? ''}
      />
    </Stack>
  );
}

/**
 * The admins' "Waive or defer" of an open year: the year the modal is open for, and the server's
 * answer shown on the page once it closes.
 */
function useWaiveOrDefer(isAdmin: boolean) {
  const [year, setYear] = useState<BillingYear | null>(null);
  const [opened, setOpened] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // The row acted on may have left its list: focus goes to the answer, where the page begins.
  const noticeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);
  const action: QueueAction<BillingYear> = {
    header: 'Waive or defer',
    cell: (row) => (
      <Button
        size="xs"
        variant="default"
        aria-label={`Waive or defer the storage year of ${row.clientName}`}
        onClick={() => {
          setNotice(null);
          setYear(row);
          setOpened(true);
        }}
      >
        Waive or defer
      </Button>
    ),
  };
  return {
    actions: isAdmin ? [action] : [],
    notice,
    noticeRef,
    dismissNotice: () => setNotice(null),
    modal: (
      <WaiveOrDeferModal
        year={year}
        opened={opened}
        onClose={() => setOpened(false)}
        onChanged={(message) => {
          setOpened(false);
          setNotice(message);
        }}
      />
    ),
  };
}

/** Billing: the storage renewals of the billing day, and the demo's "Run billing as of…". */
export function BillingPage() {
  const overview = useBillingOverview();
  const session = useStaffSession();
  const links = usePaymentLinks();
  const isAdmin = session.data?.stage === 'signed-in' && session.data.staff.level === 'admin';
  const waiveOrDefer = useWaiveOrDefer(isAdmin);
  const data = overview.data;
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Billing
      </Title>
      {overview.error && (
        <Alert color="red" role="alert">
          {errorText(overview.error)}
        </Alert>
      )}
      {waiveOrDefer.notice && (
        <Alert
          ref={waiveOrDefer.noticeRef}
          tabIndex={-1}
          color="green"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={waiveOrDefer.dismissNotice}
        >
          {waiveOrDefer.notice}
        </Alert>
      )}
      {overview.isPending && <LoadingSpinner label="Loading" />}
      {data && (
        <>
          {/* Side by side on a wide screen; on a phone one under the other, close together. */}
          <Group style={{ columnGap: 'var(--mantine-spacing-xl)', rowGap: 4 }}>
            <Text>Billing day: {isoToUsDate(data.today)}</Text>
            <Text>Last run: {data.lastRunDay ? isoToUsDate(data.lastRunDay) : 'not yet'}</Text>
          </Group>
          {data.demo && isAdmin && <RunBillingForm lastRunDay={data.lastRunDay} />}
          <BillingSection
            title="Renewals due in the next 30 days"
            empty="Nothing due in the next 30 days."
            years={data.dueSoon}
            columns={[...common, dateColumn('Charge on', (y) => y.chargeOn)]}
            actions={waiveOrDefer.actions}
          />
          <BillingSection
            title="Charged today"
            empty="Nothing was charged today."
            years={data.chargedToday}
            columns={common}
          />
          <BillingSection
            title="Failed, waiting for a retry"
            empty="No renewal is waiting for a retry."
            years={data.retrying}
            columns={[...common, ...retryColumns]}
            actions={waiveOrDefer.actions}
          />
          <BillingSection
            title="Overdue"
            empty="No renewal is overdue."
            years={data.overdue}
            columns={[...common, tries, lastDecline]}
            filterable
            // One column of buttons, one under the other: the table fits a laptop's width.
            actions={[
              {
                header: 'Actions',
                cell: (year) => (
                  <Stack gap={6} align="flex-start">
                    <PaymentLinkAction year={year} links={links} />
                    {waiveOrDefer.actions.map((action) => (
                      <Fragment key={action.header}>{action.cell(year)}</Fragment>
                    ))}
                  </Stack>
                ),
              },
            ]}
          />
          <BillingSection
            title="Recovered after a retry"
            empty="No renewal was recovered after a retry."
            years={data.recovered}
            columns={[...common, tries, paidOn]}
          />
          <BillingInstallments installments={data.installments} />
        </>
      )}
      {waiveOrDefer.modal}
    </Stack>
  );
}
