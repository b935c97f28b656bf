import { Alert, Anchor, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  cancellationMessages,
  cutoffText,
  prePaidVialsText,
} from '../../../../domain/cell-request-cancellation';
import { objectionDeadlineText } from '../../../../domain/cell-request-objection';
import { isoToUsDate } from '../../../../domain/dates';
import { formatRate, formatUsd } from '../../../../domain/money';
import { feeAtRate } from '../../../../domain/payments';
import { createLabelSchema, shipmentMessages, shippedBy } from '../../../../domain/shipment';
import {
  amountToCents,
  queueMessages,
  trackingNumberSchema,
  type VialQueueItem,
} from '../../../../domain/staff-queues';
import { vialsWithPrePaidText } from '../../../../domain/vial-request-price';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { ApiError } from '../../../lib/api-client';
import {
  useVialRequestAction,
  useVialRequestsQueue,
  type VialRequestAction,
} from '../api/vial-requests-queue';
import { LabelTools, QueueActionForm, type QueueActionFormProps } from './queue-action-form';
import { clientColumns, dateColumn, dayColumn, moneyColumn, QueueFacts } from './queue-columns';
import { bankMoment } from './queue-dates';
import { type QueueColumn, QueueStatus, QueueTable } from './queue-table';

const when = (iso: string | null) => (iso ? bankMoment(iso) : 'Not yet');

/** One action's form on one request (the shared queue form on the request's action hook). */
function ActionForm({
  requestId,
  ...props
}: QueueActionFormProps<VialRequestAction> & { requestId: string }) {
  return <QueueActionForm mutation={useVialRequestAction(requestId)} {...props} />;
}

function VipPriceForm({ request, onDone }: { request: VialQueueItem; onDone: (message: string) => void }) {
  const [price, setPrice] = useState('');
  const method = request.paymentMethod === 'ACH Payment' ? 'bank account' : 'card';
  const amountCents = amountToCents(price);
  // The button names what will be charged: the price and the card fee of the request's price book.
  const charged =
    amountCents !== null && amountCents > 0
      ? ` ${formatUsd(amountCents + feeAtRate(request.cardFeeBasisPoints, amountCents))}`
      : '';
  return (
    <Stack gap={4}>
      <Text size="sm">
        The price is charged once to the {method} on file
        {request.cardFeeBasisPoints > 0
          ? `, plus the ${formatRate(request.cardFeeBasisPoints)} card processing fee`
          : ''}
        . A price above the price book's approval limit is charged once an admin other than the one who
        entered it approves it.
      </Text>
      <ActionForm
        requestId={request.id}
        label="Confirm price and charge"
        buttonLabel={`Confirm price and charge${charged}`}
        onDone={onDone}
        build={() => {
          if (!price.trim()) return { problem: queueMessages.amountRequired };
          const amountCents = amountToCents(price);
          if (amountCents === null || amountCents < 1) return { problem: queueMessages.amountInvalid };
          return { action: 'confirm_vip_price', body: { amountCents } };
        }}
      >
        <TextInput
          label="ACT VIP price ($)"
          inputMode="decimal"
          value={price}
          onChange={(e) => setPrice(e.currentTarget.value)}
          style={{ flex: '1 1 160px' }}
        />
      </ActionForm>
    </Stack>
  );
}

/** A price entered above the approval limit: its amount, who entered it, and for another admin the approval. */
function VipApproval({ request, onDone }: { request: VialQueueItem; onDone: (message: string) => void }) {
  const pending = request.vipPriceAwaitingApproval;
  if (!pending) return null;
  const amount = formatUsd(pending.amountCents);
  return pending.canApprove ? (
    <ActionForm
      requestId={request.id}
      label={`Approve and charge ${amount}`}
      onDone={onDone}
      build={() => ({ action: 'approve_vip_price', body: { amountCents: pending.amountCents } })}
    />
  ) : (
    <Text size="sm" role="note">
      The ACT VIP price of {amount} awaits the approval of an admin other than the one who entered it.
    </Text>
  );
}

/** ACT VIP: no carrier label; the courier and its reference when it leaves. */
function CourierForm({ request, onDone }: { request: VialQueueItem; onDone: (message: string) => void }) {
  const [courier, setCourier] = useState('');
  const [reference, setReference] = useState('');
  return (
    <ActionForm
      requestId={request.id}
      label="Mark shipped"
      onDone={onDone}
      build={() => {
        if (!courier.trim()) return { problem: shipmentMessages.courierRequired };
        const parsed = trackingNumberSchema.safeParse(reference);
        if (!parsed.success) return { problem: shipmentMessages.referenceRequired };
        return { action: 'ship', body: { trackingNumber: parsed.data, courier: courier.trim() } };
      }}
    >
      <TextInput
        label="Courier"
        value={courier}
        onChange={(e) => setCourier(e.currentTarget.value)}
        maxLength={60}
        style={{ flex: '1 1 160px' }}
      />
      <TextInput
        label="Reference"
        value={reference}
        onChange={(e) => setReference(e.currentTarget.value)}
        style={{ flex: '1 1 160px' }}
      />
    </ActionForm>
  );
}

/** FedEx: the carrier makes the label from the dry shipper's id and the declared contents. */
function LabelForm({ request, onDone }: { request: VialQueueItem; onDone: (message: string) => void }) {
  const [dryShipperId, setDryShipperId] = useState('');
  const [contents, setContents] = useState(request.suggestedContents);
  return (
    <ActionForm
      requestId={request.id}
      label="Create label"
      onDone={onDone}
      build={() => {
        const parsed = createLabelSchema.safeParse({ dryShipperId, contents });
        if (!parsed.success)
          return { problem: parsed.error.issues[0]?.message ?? shipmentMessages.dryShipperRequired };
        return { action: 'create_label', body: parsed.data };
      }}
    >
      <TextInput
        label="Dry shipper id"
        value={dryShipperId}
        onChange={(e) => setDryShipperId(e.currentTarget.value)}
        maxLength={30}
        style={{ flex: '1 1 140px' }}
      />
      <TextInput
        label="Declared contents"
        value={contents}
        onChange={(e) => setContents(e.currentTarget.value)}
        maxLength={120}
        style={{ flex: '2 1 260px' }}
      />
    </ActionForm>
  );
}

function shippedText(request: VialQueueItem): string {
  if (!request.shippedAt) return 'Not yet';
  return `${when(request.shippedAt)}${shippedBy({ courier: request.shipping.courier, trackingNumber: request.trackingNumber })}`;
}

function confirmationText(request: VialQueueItem): string {
  const answer = request.shipping.deliveryConfirmation;
  if (!answer) return 'Not yet';
  return answer.arrivedFrozen
    ? `Arrived frozen (${when(answer.at)})`
    : `A problem: ${answer.note} (${when(answer.at)})`;
}

/** Cancelling by the policy, with a reason: what it refunds, keeps and forfeits is on the page first. */
function CancelForm({ request, onDone }: { request: VialQueueItem; onDone: (message: string) => void }) {
  const [reason, setReason] = useState('');
  const c = request.cancellation;
  if (c.state !== 'open') return null;
  const taken = { bioInsurance: request.bioInsuranceVialsUsed, longevity: request.longevityVialsUsed };
  const effects = [
    `refunds ${formatUsd(c.refundCents)}`,
    ...(c.keptCents > 0 ? [`keeps ${formatUsd(c.keptCents)} as the replacement fee`] : []),
    ...(c.returnedVials > 0 ? [`gives ${prePaidVialsText(c.returnedVials, taken)} back`] : []),
    ...(c.forfeitedVials > 0 ? [`forfeits ${prePaidVialsText(c.forfeitedVials, taken)}`] : []),
  ];
  return (
    <Stack gap={4}>
      <Text size="sm">
        {c.phase === 'full' ? 'Before' : 'After'} the cancellation deadline ({cutoffText(c.cutoff)}):
        cancelling now {effects.join(', ')}. The client is e-mailed.
      </Text>
      <ActionForm
        requestId={request.id}
        label="Cancel the request"
        buttonLabel={
          c.refundCents > 0 ? `Cancel and refund ${formatUsd(c.refundCents)}` : 'Cancel the request'
        }
        onDone={onDone}
        build={() =>
          reason.trim()
            ? { action: 'cancel', body: { reason: reason.trim() } }
            : { problem: cancellationMessages.reasonRequired }
        }
      >
        <TextInput
          label="Reason for the cancellation"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={500}
          style={{ flex: '1 1 240px' }}
        />
      </ActionForm>
    </Stack>
  );
}

/** `onLeft`: the page says it, since a request cancelled or delivered leaves the queue with its card. */
function VialRequestCard({ request, onLeft }: { request: VialQueueItem; onLeft: (message: string) => void }) {
  const headingId = useId();
  const [done, setDone] = useState<string | null>(null);
  const pending = request.vipPriceAwaitingApproval;
  const vipPrice = request.shippingPriceToBeConfirmed
    ? request.vipPriceConfirmedAt
      ? `${formatUsd(request.vipPriceCents ?? 0)}, confirmed ${when(request.vipPriceConfirmedAt)}${request.vipTransactionId ? `, transaction ${request.vipTransactionId}` : ''}`
      : pending
        ? `${formatUsd(pending.amountCents)}, entered by ${pending.enteredBy} ${when(pending.enteredAt)}: awaiting a second admin's approval, not charged yet`
        : 'To be confirmed'
    : null;
  const rows: Array<[string, string]> = [
    ['Requested', when(request.requestedAt)],
    [
      'Vials',
      vialsWithPrePaidText(request.vials, {
        bioInsurance: request.bioInsuranceVialsUsed,
        longevity: request.longevityVialsUsed,
        coveredVials: request.prePaidVials,
      }),
    ],
    ['Shipping method', request.shippingMethod],
    ['Shipment arrival date', isoToUsDate(request.shipmentDate)],
    ['Ship to', request.shipTo],
    ['Payment', request.paymentDescription || request.paymentMethod],
    ['Charged with the order', formatUsd(request.totalCents)],
    ['Approved by the practitioner', when(request.approvedByPractitionerAt)],
    ...(request.objectionDeadline
      ? [
          [
            "Client's objection window",
            `A physician's request: the client may object until ${objectionDeadlineText(request.objectionDeadline)}; it ships only after that.`,
          ] as [string, string],
        ]
      : []),
    ...(vipPrice ? [['ACT VIP price', vipPrice] as [string, string]] : []),
    ['Shipped', shippedText(request)],
    ...request.shipping.scans
      .filter((scan) => scan.status !== 'delivered')
      .map(
        (scan) => [scan.label, `${when(scan.at)}${scan.place ? `, ${scan.place}` : ''}`] as [string, string],
      ),
    ['Delivered', when(request.deliveredAt)],
    ...(request.deliveredAt ? [['Clinic confirmation', confirmationText(request)] as [string, string]] : []),
  ];
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="section"
      aria-labelledby={headingId}
      data-request-id={request.id}
    >
      <Title order={2} size="h4" id={headingId} mb="xs">
        <Anchor component={Link} to={`/staff/clients/${request.clientActId}`}>
          {request.clientName} ({request.clientActId})
        </Anchor>
        : {vialsText(request)}
      </Title>
      <QueueFacts facts={rows} />
      <Stack gap="sm">
        {!request.approvedByPractitionerAt && (
          <ActionForm
            requestId={request.id}
            label="Record practitioner approval"
            onDone={setDone}
            build={() => ({ action: 'approve' })}
          />
        )}
        {request.shippingPriceToBeConfirmed && !request.vipPriceConfirmedAt && (
          <>
            <VipApproval request={request} onDone={setDone} />
            <VipPriceForm request={request} onDone={setDone} />
          </>
        )}
        {!request.shippedAt &&
          request.status !== 'cancelled' &&
          (request.shippingMethod === 'FedEx' ? (
            <LabelForm request={request} onDone={setDone} />
          ) : (
            <CourierForm request={request} onDone={setDone} />
          ))}
        {request.hasLabel && (
          <LabelTools
            labelHref={`/api/staff/vial_requests/${request.id}/label`}
            delivered={request.deliveredAt !== null}
            trackForm={
              <ActionForm
                requestId={request.id}
                label="Check tracking now"
                // Delivered, the request leaves the queue with its card: the page says what happened.
                onDone={(message) => onLeft(`${request.clientName} (${request.clientActId}): ${message}`)}
                build={() => ({ action: 'track' })}
              />
            }
          />
        )}
        <CancelForm
          request={request}
          onDone={(message) => onLeft(`${request.clientName} (${request.clientActId}): ${message}`)}
        />
        {request.shippedAt && !request.deliveredAt && (
          <ActionForm
            requestId={request.id}
            label="Mark delivered"
            onDone={setDone}
            build={() => ({ action: 'deliver' })}
          />
        )}
        {done && (
          <Text size="sm" role="status">
            {done}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

const vialsText = (request: VialQueueItem) =>
  `${request.vials} vial${request.vials === 1 ? '' : 's'} by ${request.shippingMethod}`;

const NEXT_STEPS = ['Practitioner approval', 'Price to confirm', 'To ship', 'Shipped', 'Cancelled'] as const;

/** What the bank does next for a request, in the order its card offers the steps. */
function nextStep(request: VialQueueItem): (typeof NEXT_STEPS)[number] {
  if (request.status === 'cancelled') return 'Cancelled';
  if (!request.approvedByPractitionerAt) return 'Practitioner approval';
  if (request.shippingPriceToBeConfirmed && !request.vipPriceConfirmedAt) return 'Price to confirm';
  return request.shippedAt ? 'Shipped' : 'To ship';
}

const columns: QueueColumn<VialQueueItem>[] = [
  ...clientColumns<VialQueueItem>(),
  { header: 'Request', text: vialsText },
  dayColumn('Requested', (request) => request.requestedAt),
  dateColumn('Arrival date', (request) => request.shipmentDate),
  moneyColumn('Charged', (request) => request.totalCents),
  { header: 'Next step', text: nextStep, cell: (request) => <QueueStatus>{nextStep(request)}</QueueStatus> },
];

/** The vial requests queue: what the bank still has to do for each request, oldest first. */
export function VialRequestsQueuePage() {
  const queue = useVialRequestsQueue();
  const [left, setLeft] = useState<string | null>(null);
  return (
    <Stack>
      <Title order={1} size="h2">
        Vial Requests
      </Title>
      {queue.error && (
        <Alert color="red" role="alert">
          {queue.error instanceof ApiError
            ? queue.error.message
            : 'Something went wrong. Please reload the page.'}
        </Alert>
      )}
      {left && <Text role="status">{left}</Text>}
      {queue.isPending && <LoadingSpinner label="Loading" />}
      {queue.data && (
        <QueueTable
          label="Vial requests"
          rows={queue.data}
          columns={columns}
          status={{ label: 'Next step', of: nextStep, values: NEXT_STEPS }}
          defaultSort={{ column: 'Requested', direction: 'ascending' }}
          searchText={(request) =>
            [request.id, request.shipTo, request.paymentDescription, request.trackingNumber ?? ''].join(' ')
          }
          rowKey={(request) => request.id}
          rowName={(request) => `${request.clientName} (${request.clientActId}), ${vialsText(request)}`}
          rowProps={(request) => ({ 'data-request-row': request.id })}
          empty="No vial requests are waiting."
          detail={(request) => <VialRequestCard request={request} onLeft={setLeft} />}
        />
      )}
    </Stack>
  );
}
