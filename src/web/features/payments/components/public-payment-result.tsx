import { Alert, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { verificationMessages as v } from '../../../../domain/client-verification';
import { formatUsd } from '../../../../domain/money';
import type { PublicPaymentResult } from '../../../../domain/payment-info';
import { BankContactLine } from '../../../components/bank-contact-line';
import { DownloadLink } from '../../../components/download-link';
import { publicPaymentReceiptUrl } from '../api/public-payment';

/** What the save did, as the server tells it: the spec's message, what was charged, the receipt. */
export function PaidNotice({ result, token }: { result: PublicPaymentResult; token: string }) {
  const method = result.paidWith.replace(/^Bank account/, 'bank account');
  const fee = Math.round(result.processingFee * 100);
  return (
    <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
      <Stack gap="xs">
        <Text fw={600}>{result.message}</Text>
        {result.amountCharged > 0 ? (
          <Text>
            We charged {formatUsd(Math.round(result.amountCharged * 100))}
            {fee > 0 ? `, including the ${formatUsd(fee)} card processing fee,` : ''} to the {method}.
            Transaction number: {result.TransactionId}.
          </Text>
        ) : (
          <Text>The {method} is on file for annual storage fees. Nothing was charged today.</Text>
        )}
        <Text>Thank you. {v.emailed}</Text>
        {result.receipt && (
          <DownloadLink href={publicPaymentReceiptUrl(token)}>Download the receipt</DownloadLink>
        )}
      </Stack>
    </Alert>
  );
}

/** A result token the server does not know (altered, expired): said above the form, with whom to ask. */
export function ResultGoneNotice({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" role="alert">
      <Text size="sm" fw={600}>
        {message}
      </Text>
      <BankContactLine lead="For any question," />
    </Alert>
  );
}
