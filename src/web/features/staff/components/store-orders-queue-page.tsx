import { Alert, Anchor, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { createStoreLabelSchema, shipmentMessages } from '../../../../domain/shipment';
import {
  planStoreQueueMessages as m,
  queueMessages,
  type StoreQueueItem,
  trackingNumberSchema,
} from '../../../../domain/staff-queues';
import { storeCancellationMessages } from '../../../../domain/store';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { ApiError } from '../../../lib/api-client';
import { type StoreOrderAction, useStoreOrderAction, useStoreOrdersQueue } from '../api/plan-store-queues';
import { LabelTools, QueueActionForm, type QueueActionFormProps } from './queue-action-form';
import { clientColumns, dateColumn, dayColumn, moneyColumn, QueueFacts } from './queue-columns';
import { bankMoment } from './queue-dates';
import { type QueueColumn, QueueStatus, QueueTable } from './queue-table';

const when = (iso: string | null) => (iso ? bankMoment(iso) : 'Not yet');

const itemText = (order: StoreQueueItem) => `${order.quantity} × ${order.item}`;

/** One action's form on one order (the shared queue form on the order's action hook). */
function ActionForm({ orderId, ...props }: QueueActionFormProps<StoreOrderAction> & { orderId: string }) {
  return <QueueActionForm mutation={useStoreOrderAction(orderId)} {...props} />;
}

function ShipForm({ order, onDone }: { order: StoreQueueItem; onDone: (message: string) => void }) {
  const [tracking, setTracking] = useState('');
  return (
    <ActionForm
      orderId={order.id}
      label="Mark shipped"
      onDone={onDone}
      build={() => {
        const parsed = trackingNumberSchema.safeParse(tracking);
        if (!parsed.success)
          return { problem: parsed.error.issues[0]?.message ?? queueMessages.trackingInvalid };
        return { action: 'ship', body: { trackingNumber: parsed.data } };
      }}
    >
      <TextInput
        label="Tracking number"
        value={tracking}
        onChange={(e) => setTracking(e.currentTarget.value)}
        style={{ flex: '1 1 200px' }}
      />
    </ActionForm>
  );
}

/** The carrier's label: the declared contents, prefilled; the order ships with the label's tracking number. */
function LabelForm({ order, onDone }: { order: StoreQueueItem; onDone: (message: string) => void }) {
  const [contents, setContents] = useState(order.suggestedContents);
  return (
    <ActionForm
      orderId={order.id}
      label="Create label"
      onDone={onDone}
      build={() => {
        const parsed = createStoreLabelSchema.safeParse({ contents });
        if (!parsed.success)
          return { problem: parsed.error.issues[0]?.message ?? shipmentMessages.contentsRequired };
        return { action: 'create_label', body: parsed.data };
      }}
    >
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

/** Cancelling an order not yet shipped, with a reason: the button names the refund (everything paid). */
function CancelForm({ order, onDone }: { order: StoreQueueItem; onDone: (message: string) => void }) {
  const [reason, setReason] = useState('');
  return (
    <ActionForm
      orderId={order.id}
      label={`Cancel and refund ${formatUsd(order.totalCents)}`}
      onDone={onDone}
      build={() =>
        reason.trim()
          ? { action: 'cancel', body: { reason: reason.trim() } }
          : { problem: storeCancellationMessages.reasonRequired }
      }
    >
      <TextInput
        label="Reason for the cancellation"
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.currentTarget.value)}
        style={{ flex: '1 1 200px' }}
      />
    </ActionForm>
  );
}

function StoreOrderCard({
  order,
  onCancelled,
}: {
  order: StoreQueueItem;
  onCancelled: (message: string) => void;
}) {
  const headingId = useId();
  const [done, setDone] = useState<string | null>(null);
  const rows: Array<[string, string]> = [
    ['Ordered', when(order.orderedAt)],
    ['Item', itemText(order)],
    ['Shipping method', order.shippingMethod],
    ['Shipment date', isoToUsDate(order.shipmentDate)],
    ['Ship to', order.shipTo],
    ['Total charged', formatUsd(order.totalCents)],
    [
      'Shipped',
      order.shippedAt ? `${when(order.shippedAt)}, tracking number ${order.trackingNumber}` : 'Not yet',
    ],
    ['Delivered', when(order.deliveredAt)],
  ];
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="xs">
        <Anchor component={Link} to={`/staff/clients/${order.clientActId}`}>
          {order.clientName} ({order.clientActId})
        </Anchor>
        : {itemText(order)}
      </Title>
      <QueueFacts facts={rows} />
      <Stack gap="sm">
        {!order.shippedAt && <LabelForm order={order} onDone={setDone} />}
        {!order.shippedAt && (
          <Text size="sm" c="dimmed">
            Or, shipped another way, record the carrier's tracking number:
          </Text>
        )}
        {!order.shippedAt && <ShipForm order={order} onDone={setDone} />}
        {order.hasLabel && (
          <LabelTools
            labelHref={`/api/staff/store_orders/${order.id}/label`}
            delivered={order.deliveredAt !== null}
            trackForm={
              <ActionForm
                orderId={order.id}
                label="Check tracking now"
                onDone={setDone}
                build={() => ({ action: 'track' })}
              />
            }
          />
        )}
        {order.status === 'ordered' && !order.shippedAt && <CancelForm order={order} onDone={onCancelled} />}
        {order.shippedAt && !order.deliveredAt && (
          <ActionForm
            orderId={order.id}
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

/** An order waits to ship, or, shipped, for its delivery. */
const orderState = (order: StoreQueueItem) => (order.shippedAt ? 'Shipped' : 'To ship');

const columns: QueueColumn<StoreQueueItem>[] = [
  ...clientColumns<StoreQueueItem>(),
  { header: 'Item', text: itemText },
  dayColumn('Ordered', (order) => order.orderedAt),
  dateColumn('Shipment date', (order) => order.shipmentDate),
  moneyColumn('Total', (order) => order.totalCents),
  { header: 'Status', text: orderState, cell: (order) => <QueueStatus>{orderState(order)}</QueueStatus> },
];

/** The store orders queue: ship each order with its tracking number, then mark it delivered. */
export function StoreOrdersQueuePage() {
  const queue = useStoreOrdersQueue();
  // A cancelled order leaves the queue: what was done is said here, above it.
  const [cancelled, setCancelled] = useState<string | null>(null);
  return (
    <Stack>
      <Title order={1} size="h2">
        Store Orders
      </Title>
      {queue.error && (
        <Alert color="red" role="alert">
          {queue.error instanceof ApiError
            ? queue.error.message
            : 'Something went wrong. Please reload the page.'}
        </Alert>
      )}
      {cancelled && (
        <Alert color="teal" role="status">
          {cancelled}
        </Alert>
      )}
      {queue.isPending && <LoadingSpinner label="Loading" />}
      {queue.data && (
        <QueueTable
          label="Store orders"
          rows={queue.data}
          columns={columns}
          status={{ label: 'Status', of: orderState, values: ['To ship', 'Shipped'] }}
          defaultSort={{ column: 'Ordered', direction: 'ascending' }}
          searchText={(order) => [order.id, order.shipTo, order.trackingNumber ?? ''].join(' ')}
          rowKey={(order) => order.id}
          rowName={(order) => `${order.clientName} (${order.clientActId}), ${itemText(order)}`}
          empty={m.noStoreOrders}
          detail={(order) => <StoreOrderCard order={order} onCancelled={setCancelled} />}
        />
      )}
    </Stack>
  );
}
