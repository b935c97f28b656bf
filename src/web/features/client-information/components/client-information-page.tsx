import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Fieldset,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, useSearchParams } from 'react-router';
import type { ClientInformation, ClientInformationUpdate, ClientRecord } from '../../../../domain/client';
import {
  annualStoragePaidUntilLabel,
  CLIENT_INFORMATION_UPDATED,
  type ClientAlertFix,
  clientAlertItems,
  clientInformationFieldOrder,
  clientPersonalFields,
  clientShippingFields,
  FIRST_YEAR_INCLUDED,
  todayFor,
} from '../../../../domain/client-basics';
import { isoToUsDate, usDateToIso } from '../../../../domain/dates';
import { formatUsPhone, isUnitedStates } from '../../../../domain/us-contact';
import { US_STATES } from '../../../../domain/us-states';
import { formLinks, navigation } from '../../../app/navigation';
import { DateOfBirthInput } from '../../../components/date-of-birth-input';
import { focusField } from '../../../components/focus-first-invalid';
import { LeaveGuard } from '../../../components/leave-guard';
import { SubmitFailure } from '../../../components/submit-failure';
import { ApiError } from '../../../lib/api-client';
import { useClient } from '../../../lib/client-record';
import { useFormDraftQuery, useSaveFormDraft } from '../../../lib/form-draft';
import { useStorageRenewal } from '../../../lib/payment/storage-renewal';
import { subjectClientId, useSession } from '../../../lib/session';
import { useUpdateClient } from '../api/update-client';

type FormValues = Record<keyof ClientInformation, string>;
type Block = 'personal' | 'shipping';
/** An unsaved edit kept on the server (a reload, an idle sign-out): the block being edited and its values. */
type Draft = { block: Block; values: Partial<FormValues> };

/** The draft the server kept, when it is one of this page's; null otherwise. */
function draftOf(kept: Record<string, unknown> | null | undefined): Draft | null {
  const block = kept?.block;
  const values = kept?.values;
  if ((block !== 'personal' && block !== 'shipping') || !values || typeof values !== 'object') return null;
  const strings = Object.entries(values).filter(
    (entry): entry is [keyof FormValues, string] => entry[0] in labels && typeof entry[1] === 'string',
  );
  return { block, values: Object.fromEntries(strings) };
}

// The save's checks (and zod with them) load on demand: showing the record needs none of them.
const loadRules = () => import('../lib/client-information-rules');

const labels: Record<keyof ClientInformation, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  clientDob: 'Date of Birth',
  email: 'Email',
  phone: 'Phone',
  street: 'Street',
  city: 'City',
  state: 'State',
  zip: 'Zip Code',
  country: 'Country',
  clinicName: 'Clinic Name',
  preferredAddressContactFullName: 'Clinic Contact Person Name',
  shippingClinicEmail: 'Shipping Email',
  preferredAddressPhone: 'Phone Number',
  preferredAddressStreet: 'Street',
  preferredAddressCity: 'City',
  preferredAddressState: 'State',
  preferredAddressZip: 'Zip Code',
  preferredAddressCountry: 'Country',
};

const stateOptions = US_STATES.map((s) => ({ value: s.code, label: s.name }));

/** The labels of the personal state and zip code for an address abroad, where they are free text. */
const labelsAbroad: Partial<Record<keyof ClientInformation, string>> = {
  state: 'State / Province',
  zip: 'Postal Code',
};

/**
 * Whether a field takes a state from the US list: the clinic's always (vials are shipped in the
 * US), the client's own when their Country is the United States.
 */
function isStateList(field: keyof ClientInformation, values: Pick<FormValues, 'country'>): boolean {
  return field === 'preferredAddressState' || (field === 'state' && isUnitedStates(values.country));
}

/** A field's label: the personal state and zip read "State / Province" and "Postal Code" abroad. */
function labelOf(field: keyof ClientInformation, values: Pick<FormValues, 'country'>): string {
  const abroad = (field === 'state' || field === 'zip') && !isUnitedStates(values.country);
  return (abroad ? labelsAbroad[field] : undefined) ?? labels[field];
}

/** The longest a typed value may be, where the schema holds a field to a length people could reach. */
const maxLengths: Partial<Record<keyof ClientInformation, number>> = { clinicName: 100, state: 80, zip: 20 };

const PHONE_FIELDS = new Set<keyof ClientInformation>(['phone', 'preferredAddressPhone']);

/** The form's values of a record: the date for the date picker, phone numbers as people read them. */
function valuesOf(client: ClientRecord): FormValues {
  const values = {} as FormValues;
  for (const field of clientInformationFieldOrder) {
    if (field === 'clientDob') values[field] = usDateToIso(client.clientDob) ?? '';
    else values[field] = PHONE_FIELDS.has(field) ? formatUsPhone(client[field]) : client[field];
  }
  return values;
}

function fieldId(field: string) {
  return `client-information-${field}`;
}

/** Where each alert is put right: every alert is a link there. */
const [consentLink, screeningLink] = formLinks;
const FIXED_AT: Record<ClientAlertFix, string> = {
  payment: navigation.paymentInformation.to,
  consent: consentLink.to,
  screening: screeningLink.to,
};

const sections = [
  { block: 'personal', legend: 'Personal Details', fields: clientPersonalFields },
  { block: 'shipping', legend: 'Preferred Shipping to Medical Professional', fields: clientShippingFields },
] as const;

const fieldsOf: Record<Block, readonly (keyof ClientInformation)[]> = {
  personal: clientPersonalFields,
  shipping: clientShippingFields,
};

/** A saved value as the view mode shows it: dates as MM/DD/YYYY, US states by name. */
function shownValue(field: keyof ClientInformation, values: FormValues): string {
  const value = values[field];
  if (!value) return '-';
  if (field === 'clientDob') return isoToUsDate(value) || value;
  if (isStateList(field, values)) return US_STATES.find((s) => s.code === value)?.name ?? value;
  if (PHONE_FIELDS.has(field)) return formatUsPhone(value);
  return value;
}

/** Values read as text, each under its label (a description list): the view mode is not a form of disabled fields. */
function Facts({ items }: { items: Array<{ id: string; label: string; value: ReactNode }> }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="xs" m={0}>
      {items.map(({ id, label, value }) => (
        <div key={id}>
          <Text component="dt" size="sm" c="gray.7">
            {label}
          </Text>
          <Text component="dd" m={0} fw={500}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

export function ClientInformationPage() {
  const client = useClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const session = useSession();
  const clientId = subjectClientId(session.data);
  const kept = useFormDraftQuery('client-information', clientId);

  // A draft that cannot be read leaves the page as saved.
  if (client.isPending || (kept.isPending && clientId !== null && !kept.isError))
    return (
      <Title order={1} size="h2">
        Client Information
      </Title>
    );
  if (client.isError) {
    return (
      <Stack>
        <Title order={1} size="h2">
          Client Information
        </Title>
        <Alert color="red" role="alert">
          {client.error.message}
        </Alert>
      </Stack>
    );
  }
  return (
    <ClientInformationView
      client={client.data}
      clientId={clientId}
      restored={draftOf(kept.data?.draft)}
      startEditing={searchParams.get('edit') === '1'}
      onEditStarted={() => setSearchParams({}, { replace: true })}
    />
  );
}

function ClientInformationView({
  client,
  clientId,
  restored,
  startEditing,
  onEditStarted,
}: {
  client: ClientRecord;
  clientId: string | null;
  /** Changes not saved yet, kept on the server: the page opens that block in edit mode with them. */
  restored: Draft | null;
  startEditing: boolean;
  onEditStarted(): void;
}) {
  const today = todayFor(new Date());
  const update = useUpdateClient();
  // One block is edited at a time (DESIGN.md 8.27); its Save sends that block only.
  const [editing, setEditing] = useState<Block | null>(restored?.block ?? (startEditing ? 'personal' : null));
  const [values, setValues] = useState<FormValues>(() => ({ ...valuesOf(client), ...restored?.values }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<ClientInformationUpdate | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (startEditing) {
      setEditing((block) => block ?? 'personal');
      setSaved(false);
      onEditStarted();
    }
  }, [startEditing, onEditStarted]);

  useEffect(() => {
    if (!editing) setValues(valuesOf(client));
  }, [client, editing]);

  const dirty = editing !== null && JSON.stringify(values) !== JSON.stringify(valuesOf(client));
  const draft = useSaveFormDraft(
    'client-information',
    clientId,
    dirty && editing ? { block: editing, values } : null,
  );
  // The Preferred Shipping block is optional until the client starts it; then all its fields are required.
  const shippingStarted = clientShippingFields.some((field) => values[field].trim() !== '');

  const paidUntil = annualStoragePaidUntilLabel(client.annualStoragePaidUntil, today, client.dateBankedin);
  const renewal = useStorageRenewal().data;
  const alerts = clientAlertItems(client);

  const showErrors = (next: Record<string, string>) => {
    setErrors(next);
    const first = clientInformationFieldOrder.find((field) => next[field]);
    if (!first) return;
    requestAnimationFrame(() => {
      const element = document.getElementById(fieldId(first));
      if (element) focusField(element);
    });
  };

  // Editing is when the save's checks will be needed: fetch them then, not on the first load.
  useEffect(() => {
    if (editing) void loadRules();
  }, [editing]);

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const candidate: Partial<FormValues> = {};
    for (const field of fieldsOf[editing]) {
      candidate[field] =
        field === 'clientDob' ? (values.clientDob ? isoToUsDate(values.clientDob) : '') : values[field];
    }
    const rules = await loadRules();
    const parsed = rules.clientInformationSchema(today).safeParse(candidate);
    if (!parsed.success) {
      // Rendered now: after the await, React would render after the frame that moves the focus.
      flushSync(() => showErrors(rules.fieldMessages(parsed.error)));
      return;
    }
    setErrors({});
    setConfirming(parsed.data);
  };

  const onConfirm = () => {
    if (!confirming || update.isPending) return;
    update.mutate(confirming, {
      onSuccess: () => {
        setConfirming(null);
        setEditing(null);
        setSaved(true);
        window.scrollTo({ top: 0 });
      },
      onError: (error) => {
        setConfirming(null);
        if (error instanceof ApiError && Object.keys(error.fields).length > 0) showErrors(error.fields);
      },
    });
  };

  const onCancel = () => {
    setEditing(null);
    setErrors({});
    update.reset();
    setValues(valuesOf(client));
  };

  const editSection = (block: Block, fields: readonly (keyof ClientInformation)[]) => {
    flushSync(() => {
      setEditing(block);
      update.reset();
    });
    const first = fields[0];
    if (first) document.getElementById(fieldId(first))?.focus();
  };

  // A field's error goes as soon as the field changes.
  const set = (field: keyof ClientInformation) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  const renderField = (field: keyof ClientInformation) => {
    const common = {
      id: fieldId(field),
      label: labelOf(field, values),
      name: field,
      error: errors[field],
      required: clientPersonalFields.some((f) => f === field) || shippingStarted,
    };
    if (field === 'clientDob') {
      return (
        <DateOfBirthInput
          key={field}
          {...common}
          value={values.clientDob}
          onChange={set('clientDob')}
          maxDate={today}
        />
      );
    }
    // The client's own state is a list in the United States, free text abroad (a province, a region).
    if (isStateList(field, values)) {
      return (
        <Select
          key={field}
          {...common}
          data={stateOptions}
          searchable
          value={values[field] || null}
          onChange={(value) => set(field)(value ?? '')}
          comboboxProps={{ withinPortal: true }}
        />
      );
    }
    const type =
      field === 'email' || field === 'shippingClinicEmail'
        ? 'email'
        : PHONE_FIELDS.has(field)
          ? 'tel'
          : 'text';
    return (
      <TextInput
        key={field}
        {...common}
        type={type}
        autoComplete={field === 'zip' ? 'postal-code' : field === 'phone' ? 'tel' : undefined}
        maxLength={maxLengths[field]}
        value={values[field]}
        onChange={(e) => set(field)(e.currentTarget.value)}
      />
    );
  };

  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} size="h2">
        Client Information
      </Title>

      {alerts.length > 0 && (
        <Stack gap="xs" role="region" aria-label="Alerts">
          {alerts.map(({ text, fix }) => (
            <Alert key={text} color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} p="xs">
              <Anchor component={Link} to={FIXED_AT[fix]} c="inherit" underline="always" inherit>
                {text}
              </Anchor>
            </Alert>
          ))}
        </Stack>
      )}

      <Card withBorder radius="md">
        <Facts
          items={[
            {
              id: 'paid-until',
              label: 'Annual Storage Paid Until',
              value: renewal?.retryingOn ? (
                // A declined renewal still being retried: due, not yet overdue (issue 21).
                <Text component="span" inherit fw={700}>
                  {renewal.retryingOn}
                </Text>
              ) : paidUntil === 'Overdue' ? (
                <Text component="span" inherit c="red.9" fw={700}>
                  Overdue
                </Text>
              ) : paidUntil === FIRST_YEAR_INCLUDED ? (
                FIRST_YEAR_INCLUDED
              ) : (
                isoToUsDate(paidUntil)
              ),
            },
            ...(renewal?.nextCharge
              ? [{ id: 'next-charge', label: 'Next Annual Storage Charge', value: renewal.nextCharge }]
              : []),
            {
              id: 'bio-insurance',
              label: 'Bio-Insurance Cells Available',
              value: String(client.freeBioInsuranceVialsAvailble),
            },
          ]}
        />
        <Group mt="md" gap="sm">
          <Button component={Link} to={navigation.paymentInformation.to}>
            Update Payment Information
          </Button>
          <Button component={Link} to={navigation.plans.to} variant="outline">
            Order Banking or Storage Plan
          </Button>
        </Group>
      </Card>

      {saved ? (
        <Alert
          color="green"
          icon={<IconCircleCheck aria-hidden />}
          role="status"
          title={CLIENT_INFORMATION_UPDATED}
        >
          <Button mt="sm" variant="light" color="green" onClick={() => setSaved(false)}>
            View Client Information
          </Button>
        </Alert>
      ) : (
        <form onSubmit={onSave} noValidate aria-label="Client information">
          <Stack gap="lg">
            {sections.map(({ block, legend, fields }) => (
              <Fieldset key={legend} legend={legend} radius="md">
                {editing === block ? (
                  <>
                    {block === 'shipping' && (
                      <Text size="sm" c="gray.7" mb="xs" id="client-information-shipping-hint">
                        Optional. Once you fill in one field of this block, all of them are required.
                      </Text>
                    )}
                    <SimpleGrid cols={{ base: 1, sm: 2 }}>{fields.map(renderField)}</SimpleGrid>
                  </>
                ) : (
                  <>
                    {editing === null && (
                      <Group justify="flex-end" mt={-8} mb={4}>
                        <Button
                          size="compact-sm"
                          variant="light"
                          aria-label={`Edit ${legend}`}
                          onClick={() => editSection(block, fields)}
                        >
                          Edit
                        </Button>
                      </Group>
                    )}
                    <Facts
                      items={fields.map((field) => ({
                        id: field,
                        label: labelOf(field, values),
                        value: shownValue(field, values),
                      }))}
                    />
                  </>
                )}
              </Fieldset>
            ))}
            <Fieldset legend="Forms and Payments" radius="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Checkbox
                  label="Initial Sample Form"
                  checked={client.initialProcessingFormCompleted}
                  readOnly
                />
                <Checkbox label="Client Consent Form" checked={client.clientConsentFormCompleted} readOnly />
                <Checkbox
                  label="Infectious Disease Screening"
                  checked={client.infectiousDiseaseFormCompleted}
                  readOnly
                />
                <Checkbox label="Annual Storage Paid" checked={paidUntil !== 'Overdue'} readOnly />
              </SimpleGrid>
              <Text size="xs" c="gray.7" mt="xs">
                These are kept up to date by the bank as forms and payments are completed.
              </Text>
            </Fieldset>
            {editing && (
              <Group>
                <Button type="submit" loading={update.isPending}>
                  Save
                </Button>
                <Button variant="default" onClick={onCancel}>
                  Cancel
                </Button>
              </Group>
            )}
            <SubmitFailure
              message={
                update.error &&
                !(update.error instanceof ApiError && Object.keys(update.error.fields).length > 0)
                  ? update.error.message
                  : null
              }
            />
          </Stack>
        </form>
      )}

      <LeaveGuard when={dirty && !update.isPending} onLeave={draft.discard} />
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Update client information"
        centered
      >
        <Text>Are you sure you want to update this information?</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(null)}>
            No
          </Button>
          <Button onClick={onConfirm} loading={update.isPending}>
            Yes
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
