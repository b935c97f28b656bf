import { Alert, Anchor, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { CellRequest } from '../../../../domain/cell-request';
import { cutoffText, prePaidVialsText } from '../../../../domain/cell-request-cancellation';
import { isoDateOf, isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { ApiError } from '../../../lib/api-client';
import { useCancelCellRequest } from '../api/cancel-cell-request';

/**
 * The request's cancellation: before the client confirms, exactly what is refunded, kept and
 * forfeited (the server's figures); after, what was done and what of the refund has gone out.
 */
export function CancelRequestCard({ request, clientId }: { request: CellRequest; clientId: string | null }) {
  const cancel = useCancelCellRequest(clientId, request.id);
  const [confirming, setConfirming] = useState(false);
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (cancel.isError) errorRef.current?.focus();
  }, [cancel.isError]);
  const c = request.cancellation;
  if (!c) return null;

  if (c.state === 'cancelled') {
    const taken = { bioInsurance: request.BioInsuranceVialsUsed, longevity: request.LongevityVialsUsed };
    const pending = c.refundCents - c.refundedCents;
    return (
      <Card withBorder padding="md" role="status">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Cancelled on {isoToUsDate(isoDateOf(new Date(c.cancelledAt)))}
            {c.by === 'staff' ? ' by ACT' : c.by === 'objection' ? ' at your objection' : ''}
          </Title>
          <Text>
            {c.refundCents === 0
              ? 'Nothing was charged for this request, so nothing is refunded.'
              : pending > 0
                ? `Refund of ${formatUsd(c.refundCents)}: ${formatUsd(c.refundedCents)} sent so far. The rest is sent once your payment has settled with the bank, usually within a day; we e-mail you when it is.`
                : `${formatUsd(c.refundCents)} was refunded to the account you paid with.`}
          </Text>
          {c.keptCents > 0 && <Text>{formatUsd(c.keptCents)} was kept as the replacement fee.</Text>}
          {c.returnedVials > 0 && (
            <Text>{prePaidVialsText(c.returnedVials, taken)} given back to your plan.</Text>
          )}
          {c.forfeitedVials > 0 && <Text>{prePaidVialsText(c.forfeitedVials, taken)} forfeited.</Text>}
          <Anchor component={Link} to="/client-activity">
            See it on Client Activity
          </Anchor>
        </Stack>
      </Card>
    );
  }
  if (c.state === 'closed') {
    return (
      <Card withBorder padding="md">
        <Title order={2} size="h4" mb="xs">
          Cancellation
        </Title>
        <Text>{c.message}</Text>
      </Card>
    );
  }
  const confirmLabel =
    c.refundCents > 0 ? `Cancel and refund ${formatUsd(c.refundCents)}` : 'Cancel the request';
  return (
    <Card withBorder padding="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Cancel this request
        </Title>
        <Text>
          {c.phase === 'full'
            ? `Cancel by ${cutoffText(c.cutoff)} and everything you paid is refunded.`
            : `The deadline for a full refund (${cutoffText(c.cutoff)}) has passed. You can still cancel until the vials ship:`}
        </Text>
        <List spacing={4}>
          {c.lines.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
        {cancel.isError && (
          <Alert color="red" role="alert" ref={errorRef} tabIndex={-1}>
            {cancel.error instanceof ApiError ? cancel.error.message : 'The request was not cancelled.'}
          </Alert>
        )}
        {confirming ? (
          <Stack gap="xs">
            <Text fw={600}>Cancel this request? This cannot be undone.</Text>
            <Group>
              <Button loading={cancel.isPending} onClick={() => cancel.mutate()}>
                {confirmLabel}
              </Button>
              <Button variant="default" disabled={cancel.isPending} onClick={() => setConfirming(false)}>
                Keep the request
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group>
            <Button variant="default" onClick={() => setConfirming(true)}>
              Cancel this request
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
