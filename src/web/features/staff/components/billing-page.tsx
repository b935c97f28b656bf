import { Alert, Anchor, Box, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { paymentLinkMessages } from '../../../../domain/staff';
import { type BillingYear, declineReasonLabel } from '../../../../domain/storage-billing';
import { Fact } from '../../../components/fact';
import { useBillingOverview } from '../api/billing';
import { useSendPaymentLink } from '../api/payment-link';
import { useStaffSession } from '../api/staff-session';
import { errorText } from './admin-only';
import { RunBillingForm } from './run-billing-form';

const usDate = (iso: string | null) => (iso ? isoToUsDate(iso) : '—');

interface Column {
  header: string;
  cell: (year: BillingYear) => ReactNode;
  /** Amounts and counts line up on the right in the table. */
  numeric?: boolean;
}

const clientLink = (year: BillingYear) => (
  <Anchor component={Link} to={`/staff/clients/${year.clientActId}`} size="sm">
    {year.clientActId}
  </Anchor>
);

const common: Column[] = [
  { header: 'Storage year', cell: (y) => y.yearNumber ?? '—', numeric: true },
  { header: 'Due', cell: (y) => usDate(y.dueDate) },
  { header: 'Amount', cell: (y) => formatUsd(y.amountCents), numeric: true },
  { header: 'Method', cell: (y) => y.method },
];
const tries: Column = { header: 'Tries', cell: (y) => y.tries, numeric: true };
const retryColumns: Column[] = [
  tries,
  { header: 'Next try', cell: (y) => usDate(y.nextTryOn) },
  { header: 'Last decline', cell: (y) => declineReasonLabel(y.lastDecline) },
];
const paidOn: Column = { header: 'Paid on', cell: (y) => usDate(y.paidOn) };

type LinkAnswer = { text: string; problem: boolean };

/**
 * The Overdue section's "Send payment link": one e-mail at a time, its answer kept per client so
 * the table (wide screens) and the cards (phones) say the same.
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
      {answer && (
        <Text size="sm" c={answer.problem ? 'red.8' : undefined} role={answer.problem ? 'alert' : 'status'}>
          {answer.text}
        </Text>
      )}
    </Stack>
  );
}

/** One section of the page: a table on a wide screen, a card per year on a phone. */
function BillingSection({
  title,
  empty,
  years,
  columns,
  action,
}: {
  title: string;
  empty: string;
  years: BillingYear[];
  columns: Column[];
  action?: { header: string; cell: (year: BillingYear) => ReactNode };
}) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs">
      <Title order={2} size="h3" id={headingId}>
        {title}
      </Title>
      {years.length === 0 ? (
        <Text size="sm">{empty}</Text>
      ) : (
        <>
          <Table.ScrollContainer
            minWidth={720}
            type="native"
            visibleFrom="sm"
            tabIndex={0}
            aria-label={`${title} table, scrolls sideways`}
          >
            <Table striped withTableBorder verticalSpacing="xs" aria-label={title}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Client</Table.Th>
                  {columns.map((column) => (
                    <Table.Th key={column.header} scope="col" ta={column.numeric ? 'right' : undefined}>
                      {column.header}
                    </Table.Th>
                  ))}
                  {action && <Table.Th scope="col">{action.header}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {years.map((year) => (
                  <Table.Tr key={year.id}>
                    <Table.Td>
                      <Text size="sm">{year.clientName}</Text>
                      {clientLink(year)}
                    </Table.Td>
                    {columns.map((column) => (
                      <Table.Td
                        key={column.header}
                        ta={column.numeric ? 'right' : undefined}
                        style={{ whiteSpace: column.numeric ? 'nowrap' : undefined }}
                      >
                        {column.cell(year)}
                      </Table.Td>
                    ))}
                    {action && <Table.Td>{action.cell(year)}</Table.Td>}
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
            aria-label={title}
            style={{ listStyle: 'none' }}
          >
            {years.map((year) => (
              <Card key={year.id} component="li" withBorder padding="sm">
                <Text fw={600}>
                  {year.clientName} · {clientLink(year)}
                </Text>
                <Box component="dl" mt="xs" mb={0} style={{ display: 'grid', gap: 2 }}>
                  {columns.map((column) => (
                    <Fact key={column.header} term={column.header}>
                      {column.cell(year)}
                    </Fact>
                  ))}
                </Box>
                {action && <Box mt="xs">{action.cell(year)}</Box>}
              </Card>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}

/** Billing: the storage renewals of the billing day, and the demo's "Run billing as of…". */
export function BillingPage() {
  const overview = useBillingOverview();
  const session = useStaffSession();
  const links = usePaymentLinks();
  const isAdmin = session.data?.stage === 'signed-in' && session.data.staff.level === 'admin';
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
      {overview.isPending && <Loader aria-label="Loading" />}
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
            columns={[...common, { header: 'Charge on', cell: (y) => usDate(y.chargeOn) }]}
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
          />
          <BillingSection
            title="Overdue"
            empty="No renewal is overdue."
            years={data.overdue}
            columns={[
              ...common,
              tries,
              { header: 'Last decline', cell: (y) => declineReasonLabel(y.lastDecline) },
            ]}
            action={{
              header: 'Payment link',
              cell: (year) => <PaymentLinkAction year={year} links={links} />,
            }}
          />
          <BillingSection
            title="Recovered after a retry"
            empty="No renewal was recovered after a retry."
            years={data.recovered}
            columns={[...common, tries, paidOn]}
          />
        </>
      )}
    </Stack>
  );
}
