import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { isoDateOf, isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { type ClientNewbornAgreements, installmentStatusLabel } from '../../../../domain/newborn-agreement';
import { useClientNewbornAgreements } from '../api/newborn-agreements';

type Agreement = ClientNewbornAgreements['agreements'][number];
type Installment = Agreement['installments'][number];

/** What became of an installment: paid (when, how much), declined and when it is tried again, late. */
function statusOf(installment: Installment): string {
  const label = installmentStatusLabel(installment.status);
  if (installment.status === 'paid') {
    const on = installment.paidOn ? ` ${isoToUsDate(installment.paidOn)}` : '';
    const total = installment.paidTotalCents === null ? '' : ` (${formatUsd(installment.paidTotalCents)})`;
    return `${label}${on}${total}`;
  }
  const parts = [label];
  if (installment.lateChargeCents > 0) parts.push(`${formatUsd(installment.lateChargeCents)} late charge`);
  if (installment.nextTryOn) parts.push(`next try ${isoToUsDate(installment.nextTryOn)}`);
  if (installment.tries > 0) parts.push(`${installment.tries} ${installment.tries === 1 ? 'try' : 'tries'}`);
  return parts.join(', ');
}

function summaryOf(agreement: Agreement): string {
  if (!agreement.signedAt) return `Not signed yet. ${formatUsd(agreement.totalFinancedCents)} to finance.`;
  const signedOn = isoToUsDate(isoDateOf(new Date(agreement.signedAt)));
  const deposit =
    agreement.depositTotalCents && agreement.depositTotalCents > 0
      ? `, deposit ${formatUsd(agreement.depositTotalCents)} paid`
      : '';
  const method = agreement.paymentKind === 'ach' ? 'bank account' : 'card';
  const paid = agreement.installments.filter((i) => i.status === 'paid').length;
  return `Signed ${signedOn} by ${agreement.mainContact}${deposit}; ${formatUsd(agreement.totalFinancedCents)} financed, charged to the ${method} on file; ${paid} of ${agreement.installments.length} installments paid.`;
}

/** The client's newborn finance agreements on their record: each schedule, with each installment's status. */
export function NewbornAgreementsSection({ clientId }: { clientId: string }) {
  const agreements = useClientNewbornAgreements(clientId);
  const list = agreements.data?.agreements ?? [];
  if (list.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="newborn-agreements-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="newborn-agreements-title">
          Newborn finance agreements
        </Title>
        {list.map((agreement) => (
          <Stack gap="xs" key={agreement.id}>
            <Text size="sm">{summaryOf(agreement)}</Text>
            {agreement.installments.length > 0 && (
              <Table.ScrollContainer
                minWidth={640}
                type="native"
                tabIndex={0}
                aria-label="Newborn installments table, scrolls sideways"
              >
                <Table striped fz="sm" data-testid="newborn-installments">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>#</Table.Th>
                      <Table.Th>Date</Table.Th>
                      <Table.Th ta="right">Payment</Table.Th>
                      <Table.Th ta="right">Interest</Table.Th>
                      <Table.Th ta="right">Principal</Table.Th>
                      <Table.Th ta="right">Balance</Table.Th>
                      <Table.Th>Status</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {agreement.installments.map((i) => (
                      <Table.Tr key={i.number}>
                        <Table.Td>{i.number}</Table.Td>
                        <Table.Td>{isoToUsDate(i.dueDate)}</Table.Td>
                        <Table.Td ta="right">{formatUsd(i.paymentCents)}</Table.Td>
                        <Table.Td ta="right">{formatUsd(i.interestCents)}</Table.Td>
                        <Table.Td ta="right">{formatUsd(i.principalCents)}</Table.Td>
                        <Table.Td ta="right">{formatUsd(i.balanceCents)}</Table.Td>
                        <Table.Td>{statusOf(i)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
