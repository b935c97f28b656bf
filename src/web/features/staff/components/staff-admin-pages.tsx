import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { weekdayOf } from '../../../../domain/carrier-calendar';
import { isoToUsDate } from '../../../../domain/dates';
import {
  type AuditSearchQuery,
  auditActions,
  auditLine,
  type StaffLevel,
  type StaffMember,
} from '../../../../domain/staff';
import { ApiError } from '../../../lib/api-client';
import {
  useAuditSearch,
  useBlackoutDates,
  useChangeBlackoutDate,
  useCreateStaff,
  useDisableStaff,
  useStaffAccounts,
} from '../api/staff-admin';
import { useStaffSession } from '../api/staff-session';
import { AdminOnly, errorText } from './admin-only';
import { bankMoment } from './queue-dates';

/** What a `staff`-level member sees at an admin address: the page does not exist for them. */

function DisableButton({ member, self }: { member: StaffMember; self: boolean }) {
  const disable = useDisableStaff();
  const error = errorText(disable.error);
  if (member.disabledAt) return <Badge color="gray">Disabled</Badge>;
  if (self) return <Text size="sm">You</Text>;
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="default"
        loading={disable.isPending}
        onClick={() => disable.mutate(member.id)}
        aria-label={`Disable ${member.email}`}
      >
        Disable
      </Button>
      {error && (
        <Text size="xs" c="red.8" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

function CreateStaffForm() {
  const create = useCreateStaff();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [level, setLevel] = useState<StaffLevel>('staff');
  const fields = create.error instanceof ApiError ? create.error.fields : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { email, name, level },
      {
        onSuccess: () => {
          setEmail('');
          setName('');
        },
      },
    );
  };
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="xs">
        Create a staff account
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fields.name}
            />
            <TextInput
              label="Email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={fields.email}
            />
            <Select
              label="Level"
              data={[
                { value: 'staff', label: 'Staff' },
                { value: 'admin', label: 'Admin' },
              ]}
              value={level}
              onChange={(value) => setLevel((value as StaffLevel | null) ?? 'staff')}
              allowDeselect={false}
            />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create account
            </Button>
          </Group>
          {create.error && Object.keys(fields).length === 0 && (
            <Alert color="red" role="alert">
              {errorText(create.error)}
            </Alert>
          )}
          {create.data && (
            <Alert color="blue" role="status" title="Account created">
              <Stack gap={4}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {create.data.staff.email} signs in at /staff with this initial password, shown only now.
                  They choose their own password and enrol their authenticator at first sign-in.
                </Text>
                <Group gap="xs" wrap="wrap">
                  <Code data-testid="initial-password" fz="md" style={{ overflowWrap: 'anywhere' }}>
                    {create.data.initialPassword}
                  </Code>
                  <CopyButton value={create.data.initialPassword}>
                    {({ copied, copy }) => (
                      <Button size="xs" variant="default" onClick={copy}>
                        {copied ? 'Password copied' : 'Copy password'}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              </Stack>
            </Alert>
          )}
        </Stack>
      </form>
    </Card>
  );
}

function StaffAccounts() {
  const accounts = useStaffAccounts();
  const session = useStaffSession();
  const selfId = session.data?.stage === 'signed-in' ? session.data.staff.id : null;
  return (
    <Stack>
      <Title order={1} size="h2">
        Staff Accounts
      </Title>
      <CreateStaffForm />
      <Card withBorder radius="md" padding="md">
        {accounts.error && (
          <Alert color="red" role="alert">
            {errorText(accounts.error)}
          </Alert>
        )}
        <Table.ScrollContainer minWidth={560}>
          <Table striped data-testid="staff-accounts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Level</Table.Th>
                <Table.Th>Authenticator</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {accounts.data?.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td>{m.name}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.email}</Table.Td>
                  <Table.Td>{m.level}</Table.Td>
                  <Table.Td>{m.enrolled ? 'Enrolled' : 'Not yet'}</Table.Td>
                  <Table.Td>
                    <DisableButton member={m} self={m.id === selfId} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </Stack>
  );
}

/** Admins: the staff accounts (list, create with the initial password shown once, disable). */
export function StaffAccountsPage() {
  return (
    <AdminOnly>
      <StaffAccounts />
    </AdminOnly>
  );
}

const EMPTY: AuditSearchQuery = { clientId: '', actor: '', action: '', from: '', to: '' };

function AuditSearch() {
  const [draft, setDraft] = useState<AuditSearchQuery>(EMPTY);
  const [search, setSearch] = useState<AuditSearchQuery | null>(null);
  const results = useAuditSearch(search);
  const fields = results.error instanceof ApiError ? results.error.fields : {};
  const set = (key: keyof AuditSearchQuery) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setDraft({ ...draft, [key]: e.currentTarget.value });
  return (
    <Stack>
      <Title order={1} size="h2">
        Audit Trail
      </Title>
      <Card withBorder radius="md" padding="md">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setSearch({ ...draft });
          }}
        >
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
              <TextInput label="Client ID" value={draft.clientId ?? ''} onChange={set('clientId')} />
              <TextInput
                label="Actor (Client ID, Physician ID or staff email)"
                value={draft.actor ?? ''}
                onChange={set('actor')}
              />
              <Select
                label="Action"
                clearable
                data={Object.entries(auditActions).map(([value, label]) => ({ value, label }))}
                value={draft.action || null}
                onChange={(value) => setDraft({ ...draft, action: value ?? '' })}
              />
              <TextInput
                label="From"
                placeholder="MM/DD/YYYY"
                inputMode="numeric"
                autoComplete="off"
                value={draft.from ?? ''}
                onChange={set('from')}
                error={fields.from}
              />
              <TextInput
                label="To"
                placeholder="MM/DD/YYYY"
                inputMode="numeric"
                autoComplete="off"
                value={draft.to ?? ''}
                onChange={set('to')}
                error={fields.to}
              />
            </SimpleGrid>
            <Group>
              <Button type="submit" loading={results.isFetching}>
                Search
              </Button>
            </Group>
            {results.error && Object.keys(fields).length === 0 && (
              <Alert color="red" role="alert">
                {errorText(results.error)}
              </Alert>
            )}
          </Stack>
        </form>
      </Card>
      {results.data && (
        <Card withBorder radius="md" padding="md">
          {results.data.length === 0 ? (
            <Text size="sm">Nothing matches.</Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table striped data-testid="audit-search-results">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Who</Table.Th>
                    <Table.Th>Client</Table.Th>
                    <Table.Th>What</Table.Th>
                    <Table.Th>IP</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {results.data.map((e) => (
                    <Table.Tr key={e.id}>
                      <Table.Td>{bankMoment(e.at)}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        {e.actor} ({e.actorRole})
                      </Table.Td>
                      <Table.Td>{e.clientACTId ?? '—'}</Table.Td>
                      <Table.Td>{auditLine(e)}</Table.Td>
                      <Table.Td>{e.ip}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
      )}
    </Stack>
  );
}

/** Admins: search the whole audit trail by Client ID, actor, action and dates. */
export function AuditSearchPage() {
  return (
    <AdminOnly>
      <AuditSearch />
    </AdminOnly>
  );
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A calendar date as the back office shows it: MM/DD/YYYY and its weekday. */
function dayLabel(iso: string): string {
  return `${isoToUsDate(iso)} (${WEEKDAYS[weekdayOf(iso)]})`;
}

function RemoveBlackoutDate({ date }: { date: string }) {
  const remove = useChangeBlackoutDate('remove');
  const error = errorText(remove.error);
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="default"
        loading={remove.isPending}
        onClick={() => remove.mutate(date)}
        aria-label={`Remove ${isoToUsDate(date)}`}
      >
        Remove
      </Button>
      {error && (
        <Text size="xs" c="red.8" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

function AddBlackoutDate() {
  const add = useChangeBlackoutDate('add');
  const [date, setDate] = useState('');
  const fields = add.error instanceof ApiError ? add.error.fields : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(date, { onSuccess: () => setDate('') });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Blackout date"
          placeholder="MM/DD/YYYY"
          inputMode="numeric"
          autoComplete="off"
          value={date}
          onChange={(e) => setDate(e.currentTarget.value)}
          error={fields.date}
        />
        <Button type="submit" loading={add.isPending}>
          Add date
        </Button>
      </Group>
      {add.error && !fields.date && (
        <Text size="sm" c="red.8" role="alert" mt="xs">
          {errorText(add.error)}
        </Text>
      )}
    </form>
  );
}

function ShippingCalendar() {
  const calendar = useBlackoutDates();
  return (
    <Stack>
      <Title order={1} size="h2">
        Shipping Calendar
      </Title>
      <Text>
        No FedEx shipment arrives on a blackout date, nor on a FedEx holiday or the day after one. ACT VIP
        deliveries are not affected.
      </Text>
      {calendar.error && (
        <Alert color="red" role="alert">
          {errorText(calendar.error)}
        </Alert>
      )}
      {calendar.data && (
        <>
          <Card withBorder radius="md" padding="md">
            <Title order={2} size="h4" mb="xs">
              Blackout dates
            </Title>
            <Stack gap="sm">
              <AddBlackoutDate />
              {calendar.data.dates.length === 0 ? (
                <Text size="sm">No blackout dates.</Text>
              ) : (
                <Table striped data-testid="blackout-dates">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Date</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Remove</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {calendar.data.dates.map((date) => (
                      <Table.Tr key={date}>
                        <Table.Td>
                          {dayLabel(date)}
                          {date < calendar.data.today && (
                            <Badge color="gray" ml="xs">
                              Past
                            </Badge>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <RemoveBlackoutDate date={date} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Stack>
          </Card>
          <Card withBorder radius="md" padding="md">
            <Title order={2} size="h4" mb="xs">
              FedEx holidays
            </Title>
            <Text size="sm" mb="xs">
              Computed each year; no delivery on the holiday nor the day after.
            </Text>
            <Table striped data-testid="fedex-holidays">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Holiday</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {calendar.data.holidays.map((h) => (
                  <Table.Tr key={h.date}>
                    <Table.Td>{dayLabel(h.date)}</Table.Td>
                    <Table.Td>{h.name}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        </>
      )}
    </Stack>
  );
}

/** Admins: the carrier blackout dates (add, remove) beside FedEx's computed holidays. */
export function ShippingCalendarPage() {
  return (
    <AdminOnly>
      <ShippingCalendar />
    </AdminOnly>
  );
}
