import { Alert, Button, Card, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useRef, useState } from 'react';
import { isoToUsDate, usDateToIso } from '../../../../domain/dates';
import { formatRate, formatUsd } from '../../../../domain/money';
import {
  isRate,
  PRICE_ENTRIES,
  PRICE_KEYS,
  PRICE_NOTE_MAX,
  type PriceAmounts,
  type PriceKey,
  type PriceVersion,
  priceEntryProblem,
  priceVersionMessages,
} from '../../../../domain/price-book';
import { amountToCents } from '../../../../domain/staff-queues';
import { focusField } from '../../../components/focus-first-invalid';
import { ApiError } from '../../../lib/api-client';
import { useChangePriceVersions, usePriceVersions } from '../api/staff-admin';
import { AdminOnly, errorText } from './admin-only';
import { bankMoment } from './queue-dates';

const GROUPS = [...new Set(PRICE_ENTRIES.map((entry) => entry.group))];
const labelOf = (key: PriceKey) => PRICE_ENTRIES.find((entry) => entry.key === key)?.label ?? key;
/** As typed: dollars and cents, or a rate's percent to the hundredth (300 basis points: "3.00"). */
const typedOf = (units: number) => (units / 100).toFixed(2);
/** As read: "$500.00", or "3%" for a rate. */
const shownOf = (key: PriceKey, units: number) => (isRate(key) ? formatRate(units) : formatUsd(units));

/** Mantine dims descriptions and the $ / % sections below AA contrast on white; these read as text. */
const READABLE = {
  description: { color: 'var(--mantine-color-text)' },
  section: { color: 'var(--mantine-color-text)' },
};

const STATE_LABELS: Record<PriceVersion['state'], string> = {
  'in force': 'In force',
  scheduled: 'Scheduled',
  past: 'Past',
  withdrawn: 'Withdrawn',
  'awaiting approval': 'Awaiting approval',
};

/** Dark enough for AA contrast on white and on the striped rows; grey for what no longer applies. */
const STATE_COLOURS: Record<PriceVersion['state'], string> = {
  'in force': 'teal.9',
  scheduled: 'blue.8',
  past: 'gray.7',
  withdrawn: 'gray.7',
  'awaiting approval': 'orange.9',
};

/** The entries whose amount differs between two versions. */
function changesBetween(from: PriceAmounts, to: PriceAmounts) {
  return PRICE_ENTRIES.filter(({ key }) => from[key] !== to[key]).map(({ key }) => ({
    key,
    label: labelOf(key),
    from: from[key],
    to: to[key],
  }));
}

export function PriceBookPage() {
  return (
    <AdminOnly>
      <PriceBook />
    </AdminOnly>
  );
}

/** What the last version added came to, said under the form. */
interface AddedVersion {
  version: number;
  effectiveOn: string;
  unchanged: boolean;
  awaitingApproval: boolean;
}

function PriceBook() {
  const versions = usePriceVersions();
  const inForce = versions.data?.versions.find((v) => v.state === 'in force');
  // Kept here: a version taking effect today starts the form afresh from its prices, and the
  // confirmation must outlive that.
  const [added, setAdded] = useState<AddedVersion | null>(null);
  return (
    <Stack>
      <Title order={1} size="h2">
        Price Book
      </Title>
      <Text>
        Every order is priced by the version in force on the day it is placed. A new version takes effect on
        the day you choose, today or later; orders already placed keep their prices.
      </Text>
      {versions.error && (
        <Alert color="red" role="alert">
          {errorText(versions.error)}
        </Alert>
      )}
      {versions.data && inForce && (
        <>
          <NewVersion
            key={inForce.version}
            today={versions.data.today}
            current={inForce}
            added={added}
            onAdded={setAdded}
          />
          <VersionList versions={versions.data.versions} />
        </>
      )}
    </Stack>
  );
}

function NewVersion({
  today,
  current,
  added,
  onAdded: setAdded,
}: {
  today: string;
  current: PriceVersion;
  added: AddedVersion | null;
  onAdded: (added: AddedVersion | null) => void;
}) {
  const create = useChangePriceVersions<{ effectiveOn: string; note: string; amounts: PriceAmounts }>(
    'create_price_version',
  );
  const [typed, setTyped] = useState<Record<PriceKey, string>>(
    () =>
      Object.fromEntries(PRICE_ENTRIES.map(({ key }) => [key, typedOf(current.amounts[key])])) as Record<
        PriceKey,
        string
      >,
  );
  // Typed as the back office types every date (MM/DD/YYYY), not the browser's own date field.
  const [effectiveOnTyped, setEffectiveOnTyped] = useState(() => isoToUsDate(today));
  const effectiveOn = usDateToIso(effectiveOnTyped);
  const [note, setNote] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const errorRef = useRef<HTMLDivElement>(null);

  const amounts: Partial<Record<PriceKey, number>> = {};
  const entryProblems: Partial<Record<PriceKey, string>> = {};
  for (const { key } of PRICE_ENTRIES) {
    const checked = priceEntryProblem(key, amountToCents(typed[key]));
    if ('value' in checked) amounts[key] = checked.value;
    else entryProblems[key] = checked.problem;
  }
  const whole = PRICE_ENTRIES.every(({ key }) => amounts[key] !== undefined);
  const changes = whole ? changesBetween(current.amounts, amounts as PriceAmounts) : [];
  const serverFields = create.error instanceof ApiError ? create.error.fields : {};
  // A refusal the form has no field for (an amount the server refused as a whole) is said under the button.
  const onAField = Object.keys(serverFields).some(
    (field) =>
      field === 'effectiveOn' || field === 'note' || (PRICE_KEYS as readonly string[]).includes(field),
  );
  const shown = { ...serverFields, ...problems };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = { ...entryProblems };
    if (!effectiveOnTyped.trim()) found.effectiveOn = priceVersionMessages.effectiveOn;
    else if (!effectiveOn) found.effectiveOn = priceVersionMessages.effectiveOnTyped;
    else if (effectiveOn < today) found.effectiveOn = priceVersionMessages.notPast;
    if (!note.trim()) found.note = priceVersionMessages.note;
    setProblems(found);
    setAdded(null);
    if (Object.keys(found).length > 0 || !whole || !effectiveOn) {
      const first = Object.keys(found)[0];
      const field = document.getElementById(`price-${first}`);
      if (field) focusField(field);
      return;
    }
    create.mutate(
      { effectiveOn, note: note.trim(), amounts: amounts as PriceAmounts },
      {
        onSuccess: (answer) =>
          setAdded({
            version: answer.version ?? 0,
            effectiveOn,
            unchanged: changes.length === 0,
            awaitingApproval: answer.awaitingApproval ?? false,
          }),
        onError: () => requestAnimationFrame(() => errorRef.current?.scrollIntoView({ block: 'center' })),
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb={4}>
        New version
      </Title>
      <Text size="sm" mb="sm">
        In force now: version {current.version}
        {current.effectiveOn ? `, since ${isoToUsDate(current.effectiveOn)}` : ' (the prices as shipped)'}.
        The amounts below start as its prices; change those that change.
      </Text>
      <form onSubmit={submit} noValidate aria-label="New price book version">
        <Stack gap="md">
          <Group align="flex-start" wrap="wrap">
            <TextInput
              id="price-effectiveOn"
              label="Takes effect on"
              placeholder="MM/DD/YYYY"
              inputMode="numeric"
              autoComplete="off"
              required
              value={effectiveOnTyped}
              onChange={(e) => setEffectiveOnTyped(e.currentTarget.value)}
              error={shown.effectiveOn}
            />
            <TextInput
              id="price-note"
              label="Reason"
              description="Kept with the version, for the audit trail"
              styles={READABLE}
              required
              maxLength={PRICE_NOTE_MAX}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
              error={shown.note}
              style={{ flex: '1 1 16rem' }}
            />
          </Group>
          {GROUPS.map((group) => (
            <fieldset key={group} style={{ border: 0, padding: 0, margin: 0 }}>
              <Text component="legend" fw={600} mb="xs">
                {group}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                {PRICE_ENTRIES.filter((entry) => entry.group === group).map(({ key, label }) => (
                  <TextInput
                    key={key}
                    id={`price-${key}`}
                    label={label}
                    description={`Now ${shownOf(key, current.amounts[key])}`}
                    styles={READABLE}
                    leftSection={isRate(key) ? undefined : '$'}
                    rightSection={isRate(key) ? '%' : undefined}
                    inputMode="decimal"
                    value={typed[key]}
                    onChange={(e) => {
                      const value = e.currentTarget.value;
                      setTyped((t) => ({ ...t, [key]: value }));
                      setProblems(({ [key]: _cleared, ...rest }) => rest);
                    }}
                    error={shown[key]}
                  />
                ))}
              </SimpleGrid>
            </fieldset>
          ))}
          <div aria-live="polite">
            {changes.length === 0 ? (
              <Text size="sm">No price changes yet.</Text>
            ) : (
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {changes.length === 1 ? '1 price changes' : `${changes.length} prices change`}
                  {effectiveOn ? ` from ${isoToUsDate(effectiveOn)}` : ''}:
                </Text>
                {changes.map((c) => (
                  <Text size="sm" key={c.key}>
                    {c.label}: {shownOf(c.key, c.from)} → {shownOf(c.key, c.to)}
                  </Text>
                ))}
              </Stack>
            )}
          </div>
          <Group>
            <Button type="submit" loading={create.isPending} disabled={whole && changes.length === 0}>
              Add version
            </Button>
          </Group>
          {create.error && !onAField && (
            <Text size="sm" c="red.8" role="alert" ref={errorRef}>
              {errorText(create.error)}
            </Text>
          )}
          {added && (
            <Alert color="teal" role="status">
              {added.unchanged
                ? `These prices are in force on ${isoToUsDate(added.effectiveOn)} already (version ${added.version}); nothing was added.`
                : added.awaitingApproval
                  ? `Version ${added.version} raises the ACT VIP approval limit: it takes effect on ${isoToUsDate(added.effectiveOn)} once another admin approves it.`
                  : `Version ${added.version} takes effect on ${isoToUsDate(added.effectiveOn)}.`}
            </Alert>
          )}
        </Stack>
      </form>
    </Card>
  );
}

function VersionList({ versions }: { versions: PriceVersion[] }) {
  // Each version against the one before it in force (the next older one that counts: not withdrawn,
  // not awaiting approval).
  const previous = (index: number) =>
    versions.slice(index + 1).find((v) => v.state !== 'withdrawn' && v.state !== 'awaiting approval');
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="xs">
        Versions
      </Title>
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="price-versions" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Version</Table.Th>
              <Table.Th>Takes effect</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Changes</Table.Th>
              <Table.Th>Reason and author</Table.Th>
              <Table.Th>Action</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.map((version, index) => {
              const before = previous(index);
              const changes = before ? changesBetween(before.amounts, version.amounts) : [];
              return (
                <Table.Tr key={version.version}>
                  <Table.Td>{version.version}</Table.Td>
                  <Table.Td>{version.effectiveOn ? isoToUsDate(version.effectiveOn) : 'As shipped'}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Text size="sm" fw={700} c={STATE_COLOURS[version.state]}>
                      {STATE_LABELS[version.state]}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {version.version === 0
                      ? 'The first prices'
                      : changes.map((c) => (
                          <Text size="sm" key={c.key}>
                            {c.label}: {shownOf(c.key, c.from)} → {shownOf(c.key, c.to)}
                          </Text>
                        ))}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {version.note}
                    </Text>
                    {version.createdBy && (
                      <Text size="xs" c="gray.7">
                        {version.createdBy}
                        {version.createdAt ? `, ${bankMoment(version.createdAt)}` : ''}
                      </Text>
                    )}
                    {version.approvedBy && (
                      <Text size="xs" c="gray.7">
                        Approved by {version.approvedBy}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {version.state === 'awaiting approval' && (
                      <VersionAction action="approve" version={version.version} />
                    )}
                    {(version.state === 'scheduled' || version.state === 'awaiting approval') && (
                      <VersionAction action="withdraw" version={version.version} />
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/**
 * One action on a version (withdraw it; approve a version raising the ACT VIP approval limit, which
 * another admin than its author does), with its refusal under the button.
 */
function VersionAction({ version, action }: { version: number; action: 'withdraw' | 'approve' }) {
  const change = useChangePriceVersions<{ version: number }>(`${action}_price_version`);
  const error = errorText(change.error);
  const label = action === 'withdraw' ? 'Withdraw' : 'Approve';
  return (
    <Stack gap={4} align="flex-start" mb={action === 'approve' ? 4 : undefined}>
      <Button
        size="xs"
        variant={action === 'withdraw' ? 'default' : undefined}
        loading={change.isPending}
        onClick={() => change.mutate({ version })}
        aria-label={`${label} version ${version}`}
      >
        {label}
      </Button>
      {error && (
        <Text size="xs" c="red.8" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
