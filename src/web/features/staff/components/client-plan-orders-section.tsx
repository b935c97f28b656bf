import { Alert, Box, Button, Card, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type FormEvent, useState } from 'react';
import { isoDateOf, isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import {
  planRefundProblems,
  type StaffPlanOrder,
  takenBackText,
  takesSomethingBack,
} from '../../../../domain/storage-plan-refund';
import { Fact } from '../../../components/fact';
import { useClientPlanOrders, usePlanRefund } from '../api/client-plan-orders';
import { LoadFailure } from './admin-only';
import { ReasonAndConfirm } from './refund-modal';
import { useFormSubmission } from './use-form-submission';

const FIELDS = ['reason'] as const;
const usDate = (iso: string) => isoToUsDate(isoDateOf(new Date(iso)));

/** What the order was: its plans, when, and how it was paid. */
function orderLine(order: StaffPlanOrder): string {
  return `${order.planNames}, ordered on ${isoToUsDate(order.orderedOn)}: ${formatUsd(order.paidCents)} paid (${order.paymentDescription}).`;
}

type Preview = NonNullable<StaffPlanOrder['preview']>;

/** The figures a take-back gives, line by line, to the cent. */
function PreviewFacts({ preview, byCheck }: { preview: Preview; byCheck: boolean }) {
  return (
    <Box component="dl" my={0} style={{ display: 'grid', gap: 2 }} aria-label="What will be taken back">
      <Fact term={`Storage years not yet begun (${preview.years})`}>
        {formatUsd(preview.storageRefundCents)}
        {preview.years > 0 && preview.paidUntilAfterTakeBack
          ? `, paid until ${isoToUsDate(preview.paidUntilAfterTakeBack)} after`
          : ''}
      </Fact>
      {preview.bioInsuranceVials > 0 && (
        <Fact term={`Bio-Insurance vials not yet used (${preview.bioInsuranceVials})`}>
          {formatUsd(preview.bankingRefundCents)}
        </Fact>
      )}
      {preview.longevityVials > 0 && (
        <Fact term={`Longevity vials not yet used (${preview.longevityVials})`}>
          {formatUsd(preview.bankingRefundCents)}
        </Fact>
      )}
      {preview.feeRefundCents > 0 && (
        <Fact term="Card processing fee, in proportion">{formatUsd(preview.feeRefundCents)}</Fact>
      )}
      <Fact term={byCheck ? 'Refund, by check' : 'Refund'}>{formatUsd(preview.refundCents)}</Fact>
    </Box>
  );
}

function PlanRefundForm({
  order,
  preview,
  refund,
  onCancel,
  onDone,
}: {
  order: StaffPlanOrder;
  preview: Preview;
  refund: ReturnType<typeof usePlanRefund>;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<{ reason: string }>({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: (values) => planRefundProblems(values),
  });
  const submit = useFormSubmission(FIELDS, form, refund);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!submit.start()) return;
    refund.mutate(
      { orderId: order.id, body: { reason: form.getValues().reason }, idempotencyKey: submit.key() },
      submit.answered((answer) => onDone(answer.message)),
    );
  };
  return (
    <form
      ref={submit.formRef}
      onSubmit={onSubmit}
      noValidate
      aria-label="Refund the unused part of this plan"
    >
      <Stack gap="sm">
        <Text size="sm">{orderLine(order)}</Text>
        <Text size="sm">
          Takes back {takenBackText(preview)} and refunds those only. The client is e-mailed.
        </Text>
        <PreviewFacts preview={preview} byCheck={order.paidByCheck} />
        {submit.failure && (
          <Alert color="red" role="alert">
            {submit.failure}
          </Alert>
        )}
        <ReasonAndConfirm
          description="Kept with the order and the refund for staff."
          pending={refund.isPending}
          reason={form.getInputProps('reason')}
          confirm={`Take back and refund ${formatUsd(preview.refundCents)}`}
          color="red"
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}

function PlanOrderItem({
  order,
  canRefund,
  onRefund,
}: {
  order: StaffPlanOrder;
  canRefund: boolean;
  onRefund: () => void;
}) {
  const { preview, takenBack } = order;
  const refundable = preview !== null && takesSomethingBack(preview);
  return (
    <Card component="li" withBorder padding="sm">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Text size="sm" fw={600} style={{ flex: '1 1 240px', minWidth: 0 }}>
          {orderLine(order)}
        </Text>
        {canRefund && refundable && (
          <Button
            size="xs"
            variant="default"
            onClick={onRefund}
            aria-label={`Refund unused part of ${order.planNames}, ordered on ${isoToUsDate(order.orderedOn)}`}
          >
            Refund unused…
          </Button>
        )}
      </Group>
      <Box component="dl" my="xs" style={{ display: 'grid', gap: 2 }}>
        {order.paidUntilAfter && order.storageYears > 0 && (
          <Fact term="Paid until, as the order left it">{isoToUsDate(order.paidUntilAfter)}</Fact>
        )}
        {takenBack ? (
          <>
            <Fact term="Taken back">
              {`${usDate(takenBack.at)}${takenBack.by ? ` by ${takenBack.by}` : ''}: ${takenBackText(takenBack)}`}
            </Fact>
            <Fact term="Reason">{takenBack.reason}</Fact>
            <Fact term={takenBack.byCheck ? 'Refund owed, by check' : 'Refund'}>
              {takenBack.byCheck || takenBack.refundedCents >= takenBack.refundCents
                ? formatUsd(takenBack.refundCents)
                : `${formatUsd(takenBack.refundCents)} (${formatUsd(takenBack.refundedCents)} sent so far; the rest is sent when the payment settles)`}
            </Fact>
          </>
        ) : (
          !refundable && <Fact term="Unused">Nothing left to take back</Fact>
        )}
      </Box>
    </Card>
  );
}

/**
 * The client's paid Banking and Storage Plans orders on their record. Admins take back an order's
 * unused part (the storage years not yet begun, the vials not yet used) with a reason, seeing the
 * refund to the cent first; staff-level members read.
 */
export function ClientPlanOrdersSection({ clientActId }: { clientActId: string }) {
  const list = useClientPlanOrders(clientActId);
  const refund = usePlanRefund();
  const [refunding, setRefunding] = useState<StaffPlanOrder | null>(null);
  const [done, setDone] = useState<string | null>(null);
  if (list.error) return <LoadFailure error={list.error} />;
  if (!list.data) return null;
  const { orders, canRefund } = list.data;
  const close = () => {
    if (refund.isPending) return;
    refund.reset();
    setRefunding(null);
  };
  return (
    <Stack gap="sm">
      <Text size="sm" role="status">
        {done}
      </Text>
      {orders.length === 0 ? (
        <Text size="sm">No paid plan orders.</Text>
      ) : (
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Plan orders">
          {orders.map((order) => (
            <PlanOrderItem
              key={order.id}
              order={order}
              canRefund={canRefund}
              onRefund={() => {
                setDone(null);
                setRefunding(order);
              }}
            />
          ))}
        </Stack>
      )}
      <Modal
        opened={refunding !== null}
        onClose={close}
        title="Refund the unused part of a plan"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {refunding?.preview && (
          <PlanRefundForm
            key={refunding.id}
            order={refunding}
            preview={refunding.preview}
            refund={refund}
            onCancel={close}
            onDone={(message) => {
              refund.reset();
              setRefunding(null);
              setDone(message);
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
