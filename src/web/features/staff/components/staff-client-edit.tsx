import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import {
  type ClientInformation,
  type ClientRecord,
  clientInformationFieldOrder,
} from '../../../../domain/client';
import type { StaffClientRecord } from '../../../../domain/staff-client';
import { ApiError } from '../../../lib/api-client';
import { useSendAgreementLink, useStaffUpdateClient } from '../api/staff-client-edit';
import { bankMoment } from './queue-dates';

const LABELS: Record<keyof ClientInformation, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  clientDob: 'Date of Birth (MM/DD/YYYY)',
  email: 'Email',
  phone: 'Phone',
  street: 'Street',
  city: 'City',
  state: 'State (code)',
  zip: 'Zip Code',
  country: 'Country',
  clinicName: 'Clinic Name',
  preferredAddressContactFullName: 'Clinic Contact Person Name',
  shippingClinicEmail: 'Shipping Email',
  preferredAddressPhone: 'Clinic Phone Number',
  preferredAddressStreet: 'Clinic Street',
  preferredAddressCity: 'Clinic City',
  preferredAddressState: 'Clinic State (code)',
  preferredAddressZip: 'Clinic Zip Code',
  preferredAddressCountry: 'Clinic Country',
};

function problemOf(error: unknown): string | null {
  if (!error) return null;
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}

/** The record's Edit form: staff correct the profile; every change is kept with who and when. */
export function StaffClientEdit({ recordId, client }: { recordId: string; client: ClientRecord }) {
  const update = useStaffUpdateClient(recordId);
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<ClientInformation>(() => valuesOf(client));
  const fields = update.error instanceof ApiError ? update.error.fields : {};
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ clientId: client.clientACTId, ...values }, { onSuccess: () => setOpen(false) });
  };
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          Edit profile
        </Title>
        {!open && (
          <Button
            variant="default"
            onClick={() => {
              setValues(valuesOf(client));
              update.reset();
              setOpen(true);
            }}
          >
            Edit
          </Button>
        )}
      </Group>
      {!open && update.data && (
        <Alert color="green" role="status">
          {update.data.message}{' '}
          {update.data.changed.length === 0
            ? 'Nothing changed.'
            : `Changed: ${update.data.changed.map((f) => LABELS[f as keyof ClientInformation] ?? f).join(', ')}.`}
        </Alert>
      )}
      {open && (
        <form onSubmit={onSubmit} noValidate aria-label="Edit client profile">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {clientInformationFieldOrder.map((field) => (
              <TextInput
                key={field}
                label={LABELS[field]}
                name={field}
                required
                value={values[field]}
                error={fields[field]}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setValues((v) => ({ ...v, [field]: value }));
                }}
              />
            ))}
          </SimpleGrid>
          <Stack gap="xs" mt="md">
            <Group gap="sm">
              <Button type="submit" loading={update.isPending}>
                Save changes
              </Button>
              <Button variant="default" onClick={() => setOpen(false)} disabled={update.isPending}>
                Cancel
              </Button>
            </Group>
            {update.error && (
              <Alert color="red" role="alert">
                {problemOf(update.error)}
              </Alert>
            )}
          </Stack>
        </form>
      )}
    </Card>
  );
}

function valuesOf(client: ClientRecord): ClientInformation {
  return Object.fromEntries(clientInformationFieldOrder.map((f) => [f, client[f]])) as ClientInformation;
}

/** "Profile changes": each staff correction of a field, newest first. */
export function ProfileChanges({ changes }: { changes: StaffClientRecord['profileChanges'] }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="xs">
        Profile changes
      </Title>
      {changes.length === 0 ? (
        <Text size="sm">No changes by staff.</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped data-testid="profile-changes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Field</Table.Th>
                <Table.Th>Old value</Table.Th>
                <Table.Th>New value</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((c) => (
                <Table.Tr key={`${c.at}-${c.field}`}>
                  <Table.Td>{bankMoment(c.at)}</Table.Td>
                  <Table.Td>{c.staff}</Table.Td>
                  <Table.Td>{LABELS[c.field as keyof ClientInformation] ?? c.field}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.oldValue}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.newValue}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

type Dollars = number | string;

/** Send a newborn finance agreement: the plan's figures, e-mailed as a link to the main contact. */
export function AgreementLinkSection({ client }: { client: ClientRecord }) {
  const send = useSendAgreementLink();
  const [mainContact, setMainContact] = useState(`${client.firstName} ${client.lastName}`);
  const [patientId, setPatientId] = useState('');
  const [amounts, setAmounts] = useState<Record<string, Dollars>>({
    annualBankingFee: 175,
    bioInsuranceFee: 300,
    downPayment: 250,
    initialProcessingFee: 1950,
    totalFinanced: '',
    rate: 6,
    installments: 12,
  });
  const fields = send.error instanceof ApiError ? send.error.fields : {};
  const cents = (v: Dollars) => Math.round(Number(v) * 100);
  const number = (
    key: string,
    label: string,
    props: { decimalScale?: number; prefix?: string; suffix?: string },
  ) => (
    <NumberInput
      label={label}
      value={amounts[key]}
      min={0}
      allowNegative={false}
      thousandSeparator=","
      {...props}
      onChange={(v) => setAmounts((a) => ({ ...a, [key]: v }))}
      error={fields[FIELD_OF[key] ?? key]}
    />
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate({
      clientId: client.clientACTId,
      mainContact,
      patientId,
      annualBankingFeeCents: cents(amounts.annualBankingFee ?? 0),
      bioInsuranceFeeCents: cents(amounts.bioInsuranceFee ?? 0),
      downPaymentCents: cents(amounts.downPayment ?? 0),
      initialProcessingFeeCents: cents(amounts.initialProcessingFee ?? 0),
      totalFinancedCents: cents(amounts.totalFinanced ?? 0),
      interestRateBasisPoints: Math.round(Number(amounts.rate) * 100),
      installments: Number(amounts.installments),
    });
  };
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="xs">
        Newborn finance agreement
      </Title>
      <form onSubmit={onSubmit} noValidate aria-label="Send newborn finance agreement">
        <Stack gap="xs">
          <Text size="sm">
            E-mail the client a link (valid 7 days) to review and sign the agreement with these figures.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            <TextInput
              label="Main contact"
              required
              value={mainContact}
              onChange={(e) => setMainContact(e.currentTarget.value)}
              error={fields.mainContact}
            />
            <TextInput
              label="Patient ID"
              required
              value={patientId}
              onChange={(e) => setPatientId(e.currentTarget.value)}
              error={fields.patientId}
            />
            {number('annualBankingFee', 'Annual banking fee', { decimalScale: 2, prefix: '$' })}
            {number('bioInsuranceFee', 'Bio-Insurance fee', { decimalScale: 2, prefix: '$' })}
            {number('downPayment', 'Down payment', { decimalScale: 2, prefix: '$' })}
            {number('initialProcessingFee', 'Initial processing fee', { decimalScale: 2, prefix: '$' })}
            {number('totalFinanced', 'Total amount financed', { decimalScale: 2, prefix: '$' })}
            {number('rate', 'Interest rate', { decimalScale: 2, suffix: '%' })}
            {number('installments', 'Number of installments', { decimalScale: 0 })}
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={send.isPending}>
              Send agreement link
            </Button>
          </Group>
          {send.error && (
            <Alert color="red" role="alert">
              {problemOf(send.error)}
            </Alert>
          )}
          {send.data && !send.isPending && !send.error && (
            <Alert color="green" role="status">
              Agreement link sent to {send.data.sentTo}; valid until {bankMoment(send.data.expiresAt)}.
            </Alert>
          )}
        </Stack>
      </form>
    </Card>
  );
}

const FIELD_OF: Record<string, string> = {
  annualBankingFee: 'annualBankingFeeCents',
  bioInsuranceFee: 'bioInsuranceFeeCents',
  downPayment: 'downPaymentCents',
  initialProcessingFee: 'initialProcessingFeeCents',
  totalFinanced: 'totalFinancedCents',
  rate: 'interestRateBasisPoints',
  installments: 'installments',
};
