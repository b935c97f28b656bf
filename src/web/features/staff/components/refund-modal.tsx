import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import type { FormEvent } from 'react';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { refundMessages, refundProblems, type StaffPayment } from '../../../../domain/refunds';
import { amountToCents } from '../../../../domain/staff-queues';
import { readableDescription } from '../../../components/readable-description';
import { useRefundAction } from '../api/client-payments';
import { useFormSubmission } from './use-form-submission';

interface Entry {
  amount: string;
  reason: string;
}

const FIELDS = ['amount', 'reason'] as const;

/** The payment's facts at the top of the form: what, when, with what, and what is left. */
export function paymentLine(payment: StaffPayment): string {
  return `${formatUsd(payment.totalCents)} paid on ${isoToUsDate(payment.paidOn)} with ${payment.method} (${payment.description}).`;
}

/**
 * A staff refund form's reason (kept for staff) and its buttons: Cancel, and the confirmation
 * naming what it does.
 */
export function ReasonAndConfirm({
  description,
  pending,
  reason,
  confirm,
  color,
  onCancel,
}: {
  description: string;
  pending: boolean;
  reason: ReturnType<UseFormReturnType<{ reason: string }>['getInputProps']>;
  confirm: string;
  color?: string;
  onCancel: () => void;
}) {
  return (
    <>
      <Textarea
        label="Reason"
        description={description}
        required
        autosize
        minRows={2}
        maxRows={6}
        maxLength={500}
        disabled={pending}
        styles={readableDescription}
        {...reason}
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" color={color} loading={pending}>
          {confirm}
        </Button>
      </Group>
    </>
  );
}

export function RefundForm({
  payment,
  approvalLimitCents,
  refund,
  onCancel,
  onDone,
}: {
  payment: StaffPayment;
  approvalLimitCents: number;
  refund: ReturnType<typeof useRefundAction>;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Entry>({
    mode: 'controlled',
    initialValues: { amount: '', reason: '' },
    validate: (values) =>
      refundProblems(values, {
        totalCents: payment.totalCents,
        refundedCents: payment.totalCents - payment.leftCents,
      }),
  });
  const submit = useFormSubmission(FIELDS, form, refund);

  const cents = amountToCents(form.values.amount);
  const named = cents !== null && cents > 0 ? formatUsd(cents) : null;
  const needsApproval = cents !== null && cents > approvalLimitCents;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!submit.start()) return;
    const { amount, reason } = form.getValues();
    refund.mutate(
      {
        request: { action: 'refund', body: { paymentId: payment.id, amount: amount.trim(), reason } },
        idempotencyKey: submit.key(),
      },
      submit.answered((answer) => onDone(answer.message)),
    );
  };
  const { failure } = submit;

  return (
    <form ref={submit.formRef} onSubmit={onSubmit} noValidate aria-label="Refund this payment">
      <Stack gap="sm">
        <Text size="sm">{paymentLine(payment)}</Text>
        <Text size="sm">At most {formatUsd(payment.leftCents)} can be refunded.</Text>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Amount to refund ($)"
          placeholder="125.00"
          inputMode="decimal"
          autoComplete="off"
          required
          w={220}
          maw="100%"
          disabled={refund.isPending}
          {...form.getInputProps('amount')}
        />
        {needsApproval && (
          <Text size="sm" role="note">
            Above {formatUsd(approvalLimitCents)}: it is sent once another admin approves it.
          </Text>
        )}
        <ReasonAndConfirm
          description={refundMessages.reasonKeptForStaff}
          pending={refund.isPending}
          reason={form.getInputProps('reason')}
          confirm={named ? `Refund ${named}` : 'Refund'}
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}

/**
 * "Refund" a payment (admins): an amount and a reason. Closed on success, the section saying
 * what happened; it stays open while the answer is awaited, so the answer has somewhere to show.
 */
export function RefundModal({
  payment,
  approvalLimitCents,
  onClose,
  onDone,
}: {
  payment: StaffPayment | null;
  approvalLimitCents: number;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const refund = useRefundAction();
  const close = () => {
    if (refund.isPending) return;
    refund.reset();
    onClose();
  };
  return (
    <Modal
      opened={payment !== null}
      onClose={close}
      title="Refund a payment"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {payment && (
        <RefundForm
          key={payment.id}
          payment={payment}
          approvalLimitCents={approvalLimitCents}
          refund={refund}
          onCancel={close}
          onDone={(message) => {
            refund.reset();
            onDone(message);
          }}
        />
      )}
    </Modal>
  );
}
