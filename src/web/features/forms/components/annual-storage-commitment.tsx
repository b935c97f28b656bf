import { Paper, Stack, Text, Title } from '@mantine/core';
import { annualStorageCommitment } from '../../../../domain/consent-form';
import type { FormPaymentMethod } from '../../../../domain/form-payment';
import { usePriceBook } from '../../../lib/price-book';

/**
 * The annual storage fee commitment of page 2 (spec 2, sections 2 and 9), amounts from the price book;
 * and, when a new card or account is not kept on file, which method on file will pay the fee (or, in
 * red, that none would).
 */
export function AnnualStorageCommitment({
  method,
  feeMethod = null,
}: {
  method: FormPaymentMethod | '';
  feeMethod?: { note: string } | { problem: string } | null;
}) {
  const { dueToday, laterFee, laterFeeCardOrCheck } = annualStorageCommitment(usePriceBook());
  return (
    <Paper withBorder p="md" radius="md" bg="gray.0">
      <Stack gap={6}>
        <Title order={2} size="h4">
          Annual Storage Fee
        </Title>
        <Text fw={700}>Total owed today: {dueToday}</Text>
        <Text size="sm">The first year of storage is included.</Text>
        {method === 'Credit Card' && (
          <Text size="sm">
            After the first year, your card is charged {laterFeeCardOrCheck} each year on the anniversary of
            the day we received your tissue.
          </Text>
        )}
        {method === 'ACH Payment' && (
          <Text size="sm">
            After the first year, your bank account is charged {laterFee} each year on the anniversary of the
            day we received your tissue.
          </Text>
        )}
        {method === 'Check' && (
          <Text size="sm">
            After the first year, the annual storage fee of {laterFeeCardOrCheck} is due by check each year
            before the anniversary of the day we received your tissue.
          </Text>
        )}
        {method === '' && (
          <Text size="sm">
            After the first year, the annual storage fee is {laterFee} by ACH or {laterFeeCardOrCheck} by card
            or check, charged to the method you choose each year on the anniversary of the day we received
            your tissue.
          </Text>
        )}
        <div aria-live="polite">
          {feeMethod && 'note' in feeMethod && <Text size="sm">{feeMethod.note}</Text>}
          {feeMethod && 'problem' in feeMethod && (
            <Text size="sm" c="red.8" data-testid="annual-fee-problem">
              {feeMethod.problem}
            </Text>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
