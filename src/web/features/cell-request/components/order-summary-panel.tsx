import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { annualStorageNote, cellRequestMessages } from '../../../../domain/cell-request';
import { formatUsd } from '../../../../domain/money';
import { prePaidVialKindsText } from '../../../../domain/vial-request-price';
import { usePriceBook } from '../../../lib/price-book';
import type { OrderSummary } from '../lib/order-summary';

/** "1", or "1 (10 Longevity vials of 1 million cells)" where Longevity vials cover some (10 a vial). */
function prePaidUsedText(summary: OrderSummary): string {
  const kinds = prePaidVialKindsText(summary.prePaidTaken);
  return kinds ? `${summary.prePaidVials} (${kinds})` : `${summary.prePaidVials}`;
}

/** The order summary at the side of the form: the server's quote, to the cent. */
export function OrderSummaryPanel({ summary }: { summary: OrderSummary | null }) {
  const book = usePriceBook();
  const rows: [string, string][] = summary
    ? [
        ['Vials', `${summary.vials}`],
        ['Pre-paid vials used', prePaidUsedText(summary)],
        ['Vials charged', formatUsd(summary.vialsCents)],
        ['Cell Protection Plan (CPP)', formatUsd(summary.cppCents)],
        [
          'Shipping',
          summary.shippingToBeConfirmed
            ? cellRequestMessages.vipToBeConfirmed
            : summary.shippingCents === null
              ? 'Verify the address for a quote'
              : formatUsd(summary.shippingCents),
        ],
        ...(summary.overdueStorageYears > 0
          ? [
              [
                `Overdue annual storage (${summary.overdueStorageYears} ${summary.overdueStorageYears === 1 ? 'year' : 'years'})`,
                formatUsd(summary.overdueStorageCents),
              ] as [string, string],
            ]
          : []),
        ['Processing fee', formatUsd(summary.processingFeeCents)],
      ]
    : [];
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="order-summary-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="order-summary-title">
          Order Summary
        </Title>
        {summary ? (
          <Table data-testid="order-summary">
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th scope="row" fw={400}>
                    {label}
                  </Table.Th>
                  <Table.Td ta="right">{value}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th scope="row">Total</Table.Th>
                <Table.Td ta="right" fw={700} data-testid="order-total">
                  {summary.totalCents === null ? '—' : formatUsd(summary.totalCents)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm">Choose the number of vials to see the order summary.</Text>
        )}
        <Text size="sm" c="gray.7" data-testid="annual-storage-note">
          {annualStorageNote(
            { cardOrCheckCents: book.annualFeeCardOrCheck, achCents: book.annualMaintenanceFee },
            summary?.overdueStorageCents ?? 0,
          )}
        </Text>
      </Stack>
    </Card>
  );
}
