import { Alert, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import {
  objectionMessages as m,
  type ObjectionView,
  objectionDeadlineText,
} from '../../../../domain/cell-request-objection';
import { formatUsd } from '../../../../domain/money';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { useObjectionLink, useObjectToCellRequest } from '../api/cell-request-objection';
import { signedLinkState } from './signed-link-state';

const TITLE = 'Stem cell request placed for you';

/** What the physician ordered, as the client reads it before objecting. */
function RequestSummary({ view }: { view: ObjectionView }) {
  return (
    <Stack gap="xs">
      <Text>
        Dear {view.clientFirstName}, {view.physicianName} requested the release of {view.vials}{' '}
        {view.vials === 1 ? 'vial' : 'vials'} of your stem cells (request {view.reference}).
      </Text>
      <List size="sm" spacing={4}>
        <List.Item>
          Delivery on {view.shipmentDate} to {view.clinicName ? `${view.clinicName}, ` : ''}
          {view.shipTo}
        </List.Item>
        <List.Item>
          Total: {formatUsd(view.totalCents)}
          {view.totalCents > 0
            ? `, paid ${view.paidBy === 'physician' ? `by ${view.physicianName} ` : ''}with ${view.paymentDescription}`
            : ''}
        </List.Item>
      </List>
    </Stack>
  );
}

/**
 * /object/{token}: the client, from the link e-mailed when their physician placed a vial request,
 * reads who ordered what and may object within two business days: the request is then cancelled
 * at no cost. No account: the signed link is the key.
 */
export function ObjectionPage() {
  const token = useParams().token ?? '';
  const link = useObjectionLink(token);
  const objection = useObjectToCellRequest(token);
  const [note, setNote] = useState('');

  let body: ReactNode = signedLinkState(token, link, m.linkInvalid);
  if (!body && link.data) {
    const view = link.data;
    const onSubmit = (event: FormEvent) => {
      event.preventDefault();
      if (!objection.isPending) objection.mutate(note.trim());
    };
    body = (
      <Stack gap="md">
        <RequestSummary view={view} />
        {view.state === 'open' ? (
          <form onSubmit={onSubmit} aria-label="Object to the request" noValidate>
            <Stack gap="sm">
              <Text>
                If you did not agree to this request, you may object until{' '}
                {objectionDeadlineText(view.deadline)}: the request is then cancelled at no cost, everything
                paid is refunded and your pre-paid vials are given back.
              </Text>
              <Textarea
                label="A note for your physician and ACT (optional)"
                value={note}
                onChange={(e) => setNote(e.currentTarget.value)}
                maxLength={500}
                rows={3}
              />
              {objection.error && (
                <Text c="red.8" role="alert">
                  {objection.error instanceof ApiError ? objection.error.message : 'Please try again.'}
                </Text>
              )}
              <Group>
                <Button type="submit" color="red" loading={objection.isPending}>
                  Object and cancel the request
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Alert color={view.state === 'objected' ? 'teal' : 'gray'} variant="light" role="status">
            <Stack gap={4}>
              <Text>{view.message}</Text>
              {view.objection && view.objection.refundCents > 0 && (
                <Text size="sm">
                  {formatUsd(view.objection.refundCents)} is refunded to the account that paid.
                </Text>
              )}
              {view.objection && view.objection.returnedVials > 0 && (
                <Text size="sm">
                  {view.objection.returnedVials} pre-paid{' '}
                  {view.objection.returnedVials === 1 ? 'vial is' : 'vials are'} given back to your plan.
                </Text>
              )}
            </Stack>
          </Alert>
        )}
      </Stack>
    );
  }
  return (
    <PublicShell title={TITLE} width={640}>
      {body}
    </PublicShell>
  );
}
