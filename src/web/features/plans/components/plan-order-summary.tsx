import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { formatUsd } from '../../../../domain/money';
import { cardFeePercent } from '../../../../domain/payments';
import type { StoragePlanPrice } from '../../../../domain/storage-plans';
import type { PaymentChoice } from '../../../lib/payment/payment-choice';
import { usePriceBook } from '../../../lib/price-book';

/** What the plans chosen cost, the card fee, and the one total: what is charged (or mailed by check). */
export function PlanOrderSummary({
  price,
  method,
}: {
  price: StoragePlanPrice | null;
  method: PaymentChoice['method'];
}) {
  const book = usePriceBook();
  const byCard = method === 'Credit Card';
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="plan-summary-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="plan-summary-title">
          Order Summary
        </Title>
        {price ? (
          <Table data-testid="order-summary">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>
                  Annual Storage Plan
                </Table.Th>
                <Table.Td ta="right">
                  {price.storageLabel ? `${price.storageLabel}, ${formatUsd(price.storageCents)}` : 'None'}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>
                  Banking Plan
                </Table.Th>
                <Table.Td ta="right">
                  {price.bankingLabel ? `${price.bankingLabel}, ${formatUsd(price.bankingCents)}` : 'None'}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>
                  Amount
                </Table.Th>
                <Table.Td ta="right">{formatUsd(price.amountCents)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>
                  {byCard ? `Credit card processing fee (${cardFeePercent(book)})` : 'Processing fee'}
                </Table.Th>
                <Table.Td ta="right">{formatUsd(price.processingFeeCents)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">
                  {method === 'Check' ? 'Total (by check)' : 'Total to be charged'}
                </Table.Th>
                <Table.Td ta="right" fw={700} data-testid="order-total">
                  {formatUsd(price.totalCents)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm">Choose a storage plan or a banking plan to see what it costs.</Text>
        )}
      </Stack>
    </Card>
  );
}
