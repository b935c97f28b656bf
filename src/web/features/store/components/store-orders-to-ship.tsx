import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { isoDateOf, isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { storeCancellationMessages as m, type StoreOrderSummary } from '../../../../domain/store';
import { ApiError } from '../../../lib/api-client';
import { useCancelStoreOrder, useStoreOrdersToShip } from '../api/store-orders';

const bottles = (n: number) => `${n} ${n === 1 ? 'bottle' : 'bottles'}`;

/** One order not yet shipped, and its cancellation: asked once more, the button naming the refund. */
function OrderToShip({
  order,
  onCancelled,
}: {
  order: StoreOrderSummary;
  onCancelled: (order: StoreOrderSummary) => void;
}) {
  const cancel = useCancelStoreOrder(order.id, onCancelled);
  const [confirming, setConfirming] = useState(false);
  const errorRef = useRef<HTMLDivElement>(null);
  const headingId = useId();
  useEffect(() => {
    if (cancel.isError) errorRef.current?.focus();
  }, [cancel.isError]);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={3} size="h5" id={headingId}>
          {bottles(order.quantity)} of {order.item}, ordered{' '}
          {isoToUsDate(isoDateOf(new Date(order.orderedAt)))}
        </Title>
        <Text>
          Arrival date {isoToUsDate(order.ShipmentDate)}. Total charged {formatUsd(order.totalCents)}.
        </Text>
        <Text size="sm">You can cancel until it ships, and everything you paid is refunded.</Text>
        {cancel.isError && (
          <Alert color="red" role="alert" ref={errorRef} tabIndex={-1}>
            {cancel.error instanceof ApiError ? cancel.error.message : 'The order was not cancelled.'}
          </Alert>
        )}
        {confirming ? (
          <Stack gap="xs">
            <Text fw={600}>Cancel this order? This cannot be undone.</Text>
            <Group>
              <Button loading={cancel.isPending} onClick={() => cancel.mutate()}>
                Cancel and refund {formatUsd(order.totalCents)}
              </Button>
              <Button variant="default" disabled={cancel.isPending} onClick={() => setConfirming(false)}>
                Keep the order
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group>
            <Button variant="default" onClick={() => setConfirming(true)}>
              Cancel this order
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** The client's store orders not yet shipped, each cancellable with everything refunded. */
export function StoreOrdersToShip() {
  const orders = useStoreOrdersToShip();
  const [cancelled, setCancelled] = useState<StoreOrderSummary | null>(null);
  const pending = cancelled ? (cancelled.refundCents ?? 0) - cancelled.refundedCents : 0;
  if (!cancelled && !orders.data?.length) return null;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Your orders not yet shipped
      </Title>
      {cancelled && (
        <Alert color="teal" role="status">
          <Stack gap={4}>
            <Text>
              {m.cancelled}{' '}
              {pending > 0
                ? `The refund of ${formatUsd(cancelled.refundCents ?? 0)} is sent once your payment has settled with the bank, usually within a day; we e-mail you when it is.`
                : `${formatUsd(cancelled.refundCents ?? 0)} was refunded to the account you paid with.`}
            </Text>
            <Anchor component={Link} to="/client-activity">
              See it on Client Activity
            </Anchor>
          </Stack>
        </Alert>
      )}
      {orders.data?.map((order) => (
        <OrderToShip key={order.id} order={order} onCancelled={setCancelled} />
      ))}
    </Stack>
  );
}
