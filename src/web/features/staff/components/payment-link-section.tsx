import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { paymentLinkMessages } from '../../../../domain/staff';
import { ApiError } from '../../../lib/api-client';
import { useSendPaymentLink } from '../api/payment-link';
import { bankMoment } from './queue-dates';

/** On a client's record: send the signed, expiring link to the public payment page. */
export function PaymentLinkSection({ clientId, hasPhone }: { clientId: string; hasPhone: boolean }) {
  const send = useSendPaymentLink();
  const sent = send.data;
  const error = send.error
    ? send.error instanceof ApiError
      ? send.error.message
      : 'Something went wrong. Please try again.'
    : null;
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="xs">
        Payment link
      </Title>
      <Stack gap="xs">
        <Text size="sm">
          Send the client a link to the payment page, valid 7 days, to update the payment method for annual
          storage.
        </Text>
        <Group gap="sm">
          <Button
            loading={send.isPending && send.variables?.channel === 'email'}
            disabled={send.isPending}
            onClick={() => send.mutate({ clientId, channel: 'email' })}
          >
            Send by e-mail
          </Button>
          <Button
            variant="default"
            loading={send.isPending && send.variables?.channel === 'sms'}
            disabled={send.isPending || !hasPhone}
            onClick={() => send.mutate({ clientId, channel: 'sms' })}
          >
            Send by text message
          </Button>
        </Group>
        {!hasPhone && <Text size="sm">{paymentLinkMessages.noPhone}</Text>}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {sent && !send.isPending && !error && (
          <Alert color="green" role="status">
            {sent.channel === 'email' ? paymentLinkMessages.sentEmail : paymentLinkMessages.sentSms} Sent to{' '}
            {sent.sentTo}; valid until {bankMoment(sent.expiresAt)}.
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
