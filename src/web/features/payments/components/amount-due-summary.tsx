import { Fieldset, Group, Stack, Text } from '@mantine/core';
import type { AmountDue } from '../../../../domain/client-verification';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { cardFeePercent } from '../../../../domain/payments';
import { usePriceBook } from '../../../lib/price-book';

export type PublicPaymentMethod = 'card' | 'ach' | '';

/**
 * What saving charges, as the server priced it: the overdue years at the amounts their notices
 * fixed for the method, and the card fee on older years when paying by card.
 */
export function totalFor(amountDue: AmountDue, method: PublicPaymentMethod): number {
  return amountDue.charges[method === 'card' ? 'card' : 'ach'].totalCents;
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
  const charge = amountDue.charges[method === 'card' ? 'card' : 'ach'];
  const fee = method === 'card' ? charge.feeCents : 0;
  // Each year as the method pays it: by card the amount its notice fixed (an older year before the fee).
  const yearCents = (year: AmountDue['overdueYears'][number]) =>
    method === 'card' ? year.cardAmountCents : year.amountCents;
  const { card, ach } = amountDue.charges;
  return (
    <Fieldset legend="Amount Due" radius="md">
      <Stack gap={4} component="dl" m={0} aria-label="Amount due">
        {amountDue.overdueYears.map((year) => (
          <Group key={year.dueDate} justify="space-between" wrap="nowrap">
            <Text component="dt">Annual storage due {isoToUsDate(year.dueDate)}</Text>
            <Text component="dd" m={0}>
              {formatUsd(yearCents(year))}
            </Text>
          </Group>
        ))}
        {method === 'card' && fee > 0 && (
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
            {formatUsd(method === '' ? amountDue.overdueCents : charge.totalCents)}
          </Text>
        </Group>
        {method === '' &&
          (card.feeCents > 0 && card.amountCents === ach.amountCents ? (
            <Text size="sm" c="gray.7">
              A card adds the {cardFeePercent(book)} processing fee; ACH does not.
            </Text>
          ) : (
            <Text size="sm" c="gray.7">
              By card {formatUsd(card.totalCents)}; by bank account (ACH) {formatUsd(ach.totalCents)}.
            </Text>
          ))}
      </Stack>
    </Fieldset>
  );
}
