import { Fieldset, Group, Stack, Text } from '@mantine/core';
import type { AmountDue } from '../../../../domain/client-verification';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { cardFeePercent, cardProcessingFee } from '../../../../domain/payments';
import type { PriceBook } from '../../../../domain/price-book';
import { usePriceBook } from '../../../lib/price-book';

export type PublicPaymentMethod = 'card' | 'ach' | '';

/** What saving charges: the overdue years, and the card fee when paying by card. */
export function totalFor(book: PriceBook, amountDue: AmountDue, method: PublicPaymentMethod): number {
  const kind = method === 'card' ? 'card' : 'ach';
  return amountDue.overdueCents + cardProcessingFee(book, amountDue.overdueCents, kind);
}

/** What saving will charge, before it charges: the overdue years, the card fee, the total. */
export function AmountDueSummary({
  amountDue,
  method,
}: {
  amountDue: AmountDue;
  method: PublicPaymentMethod;
}) {
  const book = usePriceBook();
  if (amountDue.overdueCents === 0) {
    return (
      <Text role="status">
        Nothing is due today. Saving stores this payment method for future annual storage fees.
      </Text>
    );
  }
  const fee = method === 'card' ? cardProcessingFee(book, amountDue.overdueCents, 'card') : 0;
  return (
    <Fieldset legend="Amount Due" radius="md">
      <Stack gap={4} component="dl" m={0} aria-label="Amount due">
        {amountDue.overdueYears.map((year) => (
          <Group key={year.dueDate} justify="space-between" wrap="nowrap">
            <Text component="dt">Annual storage due {isoToUsDate(year.dueDate)}</Text>
            <Text component="dd" m={0}>
              {formatUsd(year.amountCents)}
            </Text>
          </Group>
        ))}
        {method === 'card' && (
          <Group justify="space-between" wrap="nowrap">
            <Text component="dt">Card processing fee ({cardFeePercent(book)})</Text>
            <Text component="dd" m={0}>
              {formatUsd(fee)}
            </Text>
          </Group>
        )}
        <Group justify="space-between" wrap="nowrap">
          <Text component="dt" fw={700}>
            Total charged when you save
          </Text>
          <Text component="dd" m={0} fw={700}>
            {formatUsd(amountDue.overdueCents + fee)}
          </Text>
        </Group>
        {method === '' && (
          <Text size="sm" c="gray.7">
            A card adds the {cardFeePercent(book)} processing fee; ACH does not.
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
