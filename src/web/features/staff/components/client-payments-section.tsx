import { Anchor, Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { isoDateOf, isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { refundStatusLabel, type StaffPayment, type StaffRefund } from '../../../../domain/refunds';
import { Fact } from '../../../components/fact';
import { type RefundAction, useClientPayments, useRefundAction } from '../api/client-payments';
import { errorText, LoadFailure } from './admin-only';
import { paymentLine, RefundModal } from './refund-modal';

const usDate = (iso: string) => isoToUsDate(isoDateOf(new Date(iso)));
const newKey = () => crypto.randomUUID();

/** An approval's button: sent once per press (the key kept until the answer), the answer shown by the section. */
function DecisionButton({
  request,
  label,
  name,
  variant,
  onDone,
}: {
  request: RefundAction;
  label: string;
  /** The button's accessible name when its words need the amount to be told apart. */
  name?: string;
  variant?: 'filled' | 'default';
  onDone: (message: string) => void;
}) {
  const decide = useRefundAction();
  const key = useRef(newKey());
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <Stack gap={4}>
      <Button
        variant={variant ?? 'filled'}
        size="xs"
        loading={decide.isPending}
        aria-label={name}
        onClick={() => {
          if (decide.isPending) return;
          setProblem(null);
          decide.mutate(
            { request, idempotencyKey: key.current },
            {
              onSuccess: (answer) => onDone(answer.message),
              onError: (error) => setProblem(errorText(error)),
              onSettled: () => {
                key.current = newKey();
              },
            },
          );
        }}
      >
        {label}
      </Button>
      {problem && (
        <Text c="red.8" size="sm" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}

/**
 * A receipt as the client has it (a payment's, or a refund's that went through), to download. Its
 * words are part of its name ("Download the receipt of ..."), as on Client Activity, so voice
 * control can say them.
 */
function ReceiptLink({ id, name }: { id: string; name: string }) {
  return (
    <Anchor href={`/api/staff/receipts/${encodeURIComponent(id)}`} download size="sm" aria-label={name}>
      Receipt
    </Anchor>
  );
}

/** One refund of a payment: its amount, status, who asked and why; awaiting approval, what may be done. */
function RefundLine({ refund, onDone }: { refund: StaffRefund; onDone: (message: string) => void }) {
  const amount = formatUsd(refund.amountCents);
  const awaiting = refund.status === 'awaiting_approval';
  const asked = refund.requestedBy ? `asked by ${refund.requestedBy}` : 'owed by a cancellation';
  return (
    <Box component="li" py={6} style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
          <Text size="sm" fw={600}>
            {amount}: {refundStatusLabel(refund)}
          </Text>
          <Text size="sm">
            {usDate(refund.requestedAt)}, {asked}. Reason: {refund.reason}
          </Text>
          {refund.status === 'refunded' || refund.status === 'voided' ? (
            <Group gap="sm">
              <Text size="xs" c="gray.7">
                Reference {refund.reference}
              </Text>
              <ReceiptLink id={refund.id} name={`Download the receipt of ${amount} refunded`} />
            </Group>
          ) : null}
          {refund.message && (
            <Text size="sm" c="red.8">
              {refund.message}
            </Text>
          )}
          {awaiting && !refund.canApprove && (
            <Text size="sm" role="note">
              {refund.askedByYou
                ? 'Awaits another admin: an admin other than you approves it before it is sent.'
                : "Awaits an admin's approval: nothing is sent until then."}
            </Text>
          )}
        </Stack>
        {awaiting && (refund.canApprove || refund.askedByYou) && (
          <Group gap="xs" align="flex-start">
            {refund.canApprove && (
              <DecisionButton
                request={{ action: 'approve', refundId: refund.id }}
                label={`Approve and refund ${amount}`}
                onDone={onDone}
              />
            )}
            <DecisionButton
              request={{ action: 'decline', refundId: refund.id }}
              label={refund.askedByYou ? 'Withdraw' : 'Decline'}
              name={`${refund.askedByYou ? 'Withdraw' : 'Decline'} the refund of ${amount}`}
              variant="default"
              onDone={onDone}
            />
          </Group>
        )}
      </Group>
    </Box>
  );
}

function PaymentItem({
  payment,
  canRefund,
  onRefund,
  onDone,
}: {
  payment: StaffPayment;
  canRefund: boolean;
  onRefund: () => void;
  onDone: (message: string) => void;
}) {
  return (
    <Card component="li" withBorder padding="sm">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Text size="sm" fw={600} style={{ flex: '1 1 240px', minWidth: 0 }}>
          {paymentLine(payment)}
        </Text>
        {canRefund && payment.leftCents > 0 && (
          <Button
            size="xs"
            variant="default"
            onClick={onRefund}
            aria-label={`Refund the payment of ${formatUsd(payment.totalCents)} paid on ${isoToUsDate(payment.paidOn)}`}
          >
            Refund
          </Button>
        )}
      </Group>
      <Box component="dl" my="xs" style={{ display: 'grid', gap: 2 }}>
        <Fact term="Refunded">{formatUsd(payment.refundedCents)}</Fact>
        {payment.awaitingApprovalCents > 0 && (
          <Fact term="Awaiting approval">{formatUsd(payment.awaitingApprovalCents)}</Fact>
        )}
        <Fact term="Left to refund">{formatUsd(payment.leftCents)}</Fact>
        <Fact term="Transaction">{payment.transactionId}</Fact>
      </Box>
      <ReceiptLink
        id={payment.id}
        name={`Download the receipt of ${formatUsd(payment.totalCents)} paid on ${isoToUsDate(payment.paidOn)}`}
      />
      {payment.refunds.length > 0 && (
        <Box
          component="ul"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label={`Refunds of the payment of ${formatUsd(payment.totalCents)}`}
        >
          {payment.refunds.map((refund) => (
            <RefundLine key={refund.id} refund={refund} onDone={onDone} />
          ))}
        </Box>
      )}
    </Card>
  );
}

/**
 * The client's payments on their record: what was refunded of each and what is left, with its
 * refunds. Admins refund (an amount and a reason; above the price book's limit it waits for a
 * second admin) and approve or decline what another admin asked for; staff-level members read.
 */
export function ClientPaymentsSection({ clientActId }: { clientActId: string }) {
  const list = useClientPayments(clientActId);
  const [refunding, setRefunding] = useState<StaffPayment | null>(null);
  const [done, setDone] = useState<string | null>(null);
  if (list.error) return <LoadFailure error={list.error} />;
  if (!list.data) return null;
  const { payments, canRefund, approvalLimitCents } = list.data;
  return (
    <Stack gap="sm">
      <Text size="sm">
        {canRefund
          ? `A refund above ${formatUsd(approvalLimitCents)} is sent once an admin other than the one who asked approves it.`
          : 'Refunds are made by admins.'}
      </Text>
      <Text size="sm" role="status">
        {done}
      </Text>
      {payments.length === 0 ? (
        <Text size="sm">No payments.</Text>
      ) : (
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Payments">
          {payments.map((payment) => (
            <PaymentItem
              key={payment.id}
              payment={payment}
              canRefund={canRefund}
              onRefund={() => {
                setDone(null);
                setRefunding(payment);
              }}
              onDone={setDone}
            />
          ))}
        </Stack>
      )}
      <RefundModal
        payment={refunding}
        approvalLimitCents={approvalLimitCents}
        onClose={() => setRefunding(null)}
        onDone={(message) => {
          setRefunding(null);
          setDone(message);
        }}
      />
    </Stack>
  );
}
