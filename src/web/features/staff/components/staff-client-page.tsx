import { Alert, Anchor, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { activityTypeLabel } from '../../../../domain/client-activity';
import { isoDateOf, isoToUsDate, usDateToIso } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { newbornAgreementApplies } from '../../../../domain/newborn-agreement';
import { auditLine } from '../../../../domain/staff';
import { formatUsPhone } from '../../../../domain/us-contact';
import { ReleaseChecklist } from '../../../components/release-checklist';
import { ApiError } from '../../../lib/api-client';
import { useClientAudit } from '../api/client-audit';
import { staffDocumentUrl, useStaffClient } from '../api/staff-client';
import { BillingSchedule } from './billing-schedule';
import { ClientPaymentsSection } from './client-payments-section';
import { ClientPlanOrdersSection } from './client-plan-orders-section';
import { PaymentLinkSection } from './payment-link-section';
import { bankDay, bankMoment } from './queue-dates';
import { Section } from './record-section';
import { AgreementLinkSection, ProfileChanges, StaffClientEdit } from './staff-client-edit';
import { NewbornAgreementsSection } from './staff-newborn-agreements';

const FORM_NAMES = {
  consent: 'Client Consent',
  infectious_disease: 'Client Infectious Disease Form',
} as const;
const DOCUMENT_KINDS = {
  signed_agreement: 'Signed agreement',
  lab_report: 'Lab report',
  signature: 'Signature',
  form_answers: 'Form answers',
  receipt: 'Receipt',
  shipping_label: 'Shipping label',
} as const;

/** A calendar date of the record as the back office shows dates: MM/DD/YYYY, or a dash. */
const usDay = (iso: string | null) => (iso ? isoToUsDate(iso) || iso : '—');
const dollarsToCents = (dollars: number) => Math.round(dollars * 100);

function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <Table variant="vertical" layout="fixed" withRowBorders={false}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={{ base: 120, sm: 180 }}>{label}</Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              {value === null || value === '' ? '—' : value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One client's record in the back office: every read of it is in the audit trail shown below. */
export function StaffClientPage() {
  const { id = '' } = useParams();
  const record = useStaffClient(id);
  if (record.error) {
    return (
      <Alert color="red" role="alert">
        {record.error instanceof ApiError && record.error.status === 404
          ? 'No client has this ID.'
          : 'Something went wrong. Please try again.'}
      </Alert>
    );
  }
  if (!record.data) return null;
  const { client, physician, forms, documents, paymentMethods, activity, releaseReadiness, profileChanges } =
    record.data;
  return (
    <Stack>
      <Anchor component={Link} to="/staff/clients" size="sm">
        Back to Clients
      </Anchor>
      <Title order={1} size="h2">
        {client.firstName} {client.lastName} ({client.clientACTId})
      </Title>
      {client.hasOverDuePayments && client.totalAnnualOverdueAmount > 0 && (
        <Alert color="red" variant="light" title="Payment overdue" data-testid="overdue-alert">
          {formatUsd(dollarsToCents(client.totalAnnualOverdueAmount))} of annual storage is overdue. See the
          billing schedule below, or send the client a payment link.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Section title="Profile">
          <Facts
            rows={[
              ['Client ID', client.clientACTId],
              ['Date of birth', client.clientDob],
              ['Email', client.email],
              ['Phone', formatUsPhone(client.phone)],
              [
                'Address',
                [client.street, client.city, client.state, client.zip, client.country]
                  .filter(Boolean)
                  .join(', '),
              ],
              ['Clinic', client.clinicName],
            ]}
          />
        </Section>
        <Section title="Physician and storage">
          <Facts
            rows={[
              ['Physician', physician ? `${physician.name} (${physician.physicianACTId})` : 'None'],
              ['Storage paid until', usDay(client.annualStoragePaidUntil)],
              ['Overdue amount', formatUsd(dollarsToCents(client.totalAnnualOverdueAmount))],
              ['Longevity vials', String(client.longevityVialsAvailable)],
              ['Bio-insurance vials', String(client.freeBioInsuranceVialsAvailble)],
              ['Banked in', usDay(client.dateBankedin)],
            ]}
          />
        </Section>
        <Section title="Forms and documents">
          <Stack gap="xs">
            {forms.length === 0 && <Text size="sm">No forms submitted.</Text>}
            {forms.map((f) => (
              <Text size="sm" key={`${f.form}-${f.status}-${f.completedAt}`}>
                {FORM_NAMES[f.form]}:{' '}
                {f.status === 'completed'
                  ? `signed ${bankDay(f.completedAt ?? '')}`
                  : f.status === 'rejected'
                    ? `lab report rejected (submitted ${bankDay(f.completedAt ?? '')})`
                    : 'pending'}
                {f.submittedByPhysician ? ' (by the physician)' : ''}
              </Text>
            ))}
            {documents.length === 0 && <Text size="sm">No documents.</Text>}
            {documents.map((d) => (
              <Text size="sm" key={d.id}>
                <Anchor href={staffDocumentUrl(d.id)} download={d.fileName}>
                  {DOCUMENT_KINDS[d.kind]}: {d.fileName}
                </Anchor>{' '}
                ({Math.ceil(d.sizeBytes / 1024)} KB, {bankDay(d.createdAt)})
              </Text>
            ))}
          </Stack>
        </Section>
        <Section title="Payment methods">
          {paymentMethods.length === 0 && <Text size="sm">None on file.</Text>}
          {paymentMethods.map((m) => (
            <Text size="sm" key={m.kind}>
              {m.kind === 'card'
                ? `${m.brand ?? 'Card'} ending ${m.last4}${m.expiry ? `, expires ${m.expiry}` : ''}`
                : `Bank account ending ${m.last4}${m.routingNumber ? `, routing ${m.routingNumber}` : ''}`}
              {m.holder ? ` — ${m.holder}` : ''}
            </Text>
          ))}
        </Section>
      </SimpleGrid>
      <ReleaseChecklist readiness={releaseReadiness} links={false} />
      <StaffClientEdit recordId={id} client={client} />
      <PaymentLinkSection
        clientId={client.clientACTId}
        hasPhone={client.phone.replace(/\D/g, '').length >= 10}
      />
      <Section title="Billing schedule">
        <BillingSchedule clientActId={client.clientACTId} />
      </Section>
      <Section title="Payments and refunds">
        <ClientPaymentsSection clientActId={client.clientACTId} />
      </Section>
      <Section title="Banking and Storage Plans">
        <ClientPlanOrdersSection clientActId={client.clientACTId} />
      </Section>
      {newbornAgreementApplies(usDateToIso(client.clientDob) ?? '', isoDateOf(new Date())) && (
        <AgreementLinkSection client={client} />
      )}
      <ProfileChanges changes={profileChanges} />
      <Section title="Client Activity">
        {activity.length === 0 ? (
          <Text size="sm">No activity.</Text>
        ) : (
          <Table.ScrollContainer
            minWidth={480}
            type="native"
            tabIndex={0}
            aria-label="Client Activity table, scrolls sideways"
          >
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Plan</Table.Th>
                  <Table.Th>Amount</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {activity.map((a) => (
                  <Table.Tr key={a.Id}>
                    <Table.Td>{usDay(a.CloseDate)}</Table.Td>
                    <Table.Td>{activityTypeLabel(a.Type)}</Table.Td>
                    <Table.Td>{a.Purchased_Plan_Name ?? '—'}</Table.Td>
                    <Table.Td>{a.Amount ? formatUsd(dollarsToCents(Number(a.Amount))) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>
      <NewbornAgreementsSection clientId={client.clientRecordId} />
      <AuditTrail clientId={client.clientRecordId} />
    </Stack>
  );
}

function AuditTrail({ clientId }: { clientId: string }) {
  const audit = useClientAudit(clientId);
  return (
    <Section title="Audit trail">
      {audit.data?.length === 0 && <Text size="sm">No reads or changes recorded.</Text>}
      {audit.data && audit.data.length > 0 && (
        <Table.ScrollContainer
          minWidth={560}
          type="native"
          tabIndex={0}
          aria-label="Audit trail table, scrolls sideways"
        >
          <Table striped data-testid="audit-trail">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>IP</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {audit.data.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{bankMoment(e.at)}</Table.Td>
                  <Table.Td>
                    {e.actor} ({e.actorRole})
                  </Table.Td>
                  <Table.Td>{auditLine(e)}</Table.Td>
                  <Table.Td>{e.ip}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}
