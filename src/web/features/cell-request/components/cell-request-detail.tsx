import { Alert, Anchor, Card, SimpleGrid, Stack, Table, Title } from '@mantine/core';
import { Link } from 'react-router';
import { type CellRequest, cellRequestMessages, tissueLabels } from '../../../../domain/cell-request';
import { isoDateOf, isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { shippedBy } from '../../../../domain/shipment';
import { vialsWithPrePaidText } from '../../../../domain/vial-request-price';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { ReleaseChecklist } from '../../../components/release-checklist';
import { subjectClientId, useSession } from '../../../lib/session';
import { useCellRequest } from '../api/get-cell-request';
import { useReleaseReadiness } from '../api/get-release-readiness';
import { CancelRequestCard } from './cancel-request-card';

const when = (instant: string | null) => (instant ? isoToUsDate(isoDateOf(new Date(instant))) : 'Not yet');

function Facts({ caption, rows }: { caption: string; rows: [string, string][] }) {
  return (
    <Card withBorder padding="md">
      <Title order={2} size="h4" mb="xs">
        {caption}
      </Title>
      <Table layout="fixed">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={400} w="40%">
                {label}
              </Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

const whenTime = (instant: string) =>
  new Date(instant).toLocaleString('en-US', {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone: 'America/New_York',
  });

function shippedText(request: CellRequest): string {
  if (!request.shippedAt) return 'Not yet';
  return `${when(request.shippedAt)}${shippedBy({ courier: request.shipping?.courier, trackingNumber: request.trackingNumber })}`;
}

export function timelineOf(request: CellRequest): [string, string][] {
  return [
    ['Requested', when(request.requestedAt)],
    ['Approved by the practitioner', when(request.approvedByPractitionerAt)],
    ...(request.shippingPriceToBeConfirmed
      ? [['ACT VIP price confirmed', when(request.vipPriceConfirmedAt)] as [string, string]]
      : []),
    ['Shipped', shippedText(request)],
    // The carrier's delivery scan is the Delivered row itself.
    ...(request.shipping?.scans ?? [])
      .filter((scan) => scan.status !== 'delivered')
      .map(
        (scan) =>
          [scan.label, `${whenTime(scan.at)}${scan.place ? `, ${scan.place}` : ''}`] as [string, string],
      ),
    ['Delivered', when(request.deliveredAt)],
    ...(request.shipping?.deliveryConfirmation
      ? [
          [
            'Confirmed by the clinic',
            request.shipping.deliveryConfirmation.arrivedFrozen
              ? 'Arrived frozen'
              : `A problem was reported: ${request.shipping.deliveryConfirmation.note}`,
          ] as [string, string],
        ]
      : []),
    ...(request.cancellation?.state === 'cancelled'
      ? [['Cancelled', when(request.cancellation.cancelledAt)] as [string, string]]
      : []),
  ];
}

/** One request of the client: what was ordered and paid, and where it stands. */
export function CellRequestDetail({ id }: { id: string }) {
  const session = useSession();
  const clientId = subjectClientId(session.data);
  const request = useCellRequest(clientId, id);
  const readiness = useReleaseReadiness(clientId, id);
  if (request.isError) {
    return (
      <Alert color="red" role="alert">
        This request was not found.{' '}
        <Anchor component={Link} to="/stem-cell-request">
          Back to the form
        </Anchor>
      </Alert>
    );
  }
  if (!request.data) return <LoadingSpinner label="Loading" />;
  const r = request.data;
  const cancelCard = session.data?.role === 'client' && <CancelRequestCard request={r} clientId={clientId} />;
  const cancelled = r.cancellation?.state === 'cancelled';
  return (
    <Stack gap="md">
      {/* A cancelled request says so first; one still open offers its cancellation last. */}
      {cancelled && cancelCard}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Facts
          caption="What was ordered"
          rows={[
            [
              'Vials',
              vialsWithPrePaidText(r.NumberOfVials, {
                bioInsurance: r.BioInsuranceVialsUsed,
                longevity: r.LongevityVialsUsed,
                coveredVials: r.PrePaidVials,
              }),
            ],
            ['Sample type', tissueLabels[r.Tissue_Info]],
            [
              'Infectious disease',
              r.Infectious_Disease === 'treated' ? `Treated: ${r.Infectious_Disease_Name}` : 'Not treated',
            ],
            ['Cell Protection Plan', r.CPP ? 'Yes' : 'No'],
            ['Shipping method', r.shipping_method],
            ['Shipment arrival date', isoToUsDate(r.ShipmentDate)],
            [
              'Ship to',
              `${r.clinicName ? `${r.clinicName}, ` : ''}${r.ShippingContactName}, ${r.street}, ${r.city}, ${r.state} ${r.ZipCode}`,
            ],
          ]}
        />
        <Facts
          caption="What was paid"
          rows={[
            ['Vials', formatUsd(r.vialsCents)],
            ['Cell Protection Plan', formatUsd(r.cppCents)],
            [
              'Shipping',
              r.shippingPriceToBeConfirmed
                ? r.vipPriceConfirmedAt
                  ? `${formatUsd(r.shippingCents)} (ACT VIP price, charged when confirmed)`
                  : cellRequestMessages.vipToBeConfirmed
                : formatUsd(r.shippingCents),
            ],
            ...(r.overdueStorageYears > 0
              ? [
                  [
                    `Overdue annual storage (${r.overdueStorageYears} ${r.overdueStorageYears === 1 ? 'year' : 'years'})`,
                    formatUsd(r.overdueStorageCents),
                  ] as [string, string],
                ]
              : []),
            ['Processing fee', formatUsd(r.processingFeeCents)],
            ['Total charged', formatUsd(r.totalCents)],
            ['Payment', r.paymentDescription],
            ['Transaction', r.TransactionId ?? 'None'],
          ]}
        />
      </SimpleGrid>
      <Facts caption="Timeline" rows={timelineOf(r)} />
      {readiness.data && !cancelled && (
        <ReleaseChecklist readiness={readiness.data} links={session.data?.role === 'client'} />
      )}
      {!cancelled && cancelCard}
    </Stack>
  );
}
