import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ClientRecord } from '../../../../domain/client';
import { todayFor } from '../../../../domain/client';
import { isoToUsDate } from '../../../../domain/dates';
import { methodsOnFileOf } from '../../../../domain/form-payment';
import { formatUsd } from '../../../../domain/money';
import { checkInstructions, planCheckMemo } from '../../../../domain/site';
import {
  type SendStoragePlanInput,
  type SendStoragePlanResponse,
  sendStoragePlanSchema,
  storagePlanCardEmptyMessages,
  storagePlanMessages,
} from '../../../../domain/storage-plans';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { PayingFormLayout } from '../../../components/payment/paying-form-layout';
import { SubmitFailure } from '../../../components/submit-failure';
import { useClient } from '../../../lib/client-record';
import { usePayingForm } from '../../../lib/paying-form';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import { usePriceBook } from '../../../lib/price-book';
import { useSiteConfig } from '../../../lib/site';
import { zodResolver } from '../../../lib/zod-resolver';
import { useSendStoragePlan } from '../api/send-storage-plan';
import {
  initialPlanValues,
  type PlanValues,
  planChoiceProblems,
  planRequestOf,
  priceOf,
} from '../lib/plan-values';
import { PlanChoiceNext, PlanChoiceStep } from './plan-choice-step';
import { PlanOrderSummary } from './plan-order-summary';
import { PlanPaymentStep } from './plan-payment-step';

const m = storagePlanMessages;
const TITLE = 'Client Portal / ACT Banking and Storage Plans';
/** The payment step, in the address, so the browser's Back returns to the plans. */
const PAYMENT_STEP = 'payment';

const checkPlanRequest = zodResolver(sendStoragePlanSchema, planRequestOf);

/** /ACT-banking-storage-plans: step 1 the plans, step 2 (`?step=payment`) the sample type and payment. */
export function BankingStoragePlansPage() {
  const [done, setDone] = useState<SendStoragePlanResponse | null>(null);
  const client = useClient();
  const paymentInfo = usePaymentInfo();
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {TITLE}
      </Title>
      {done ? (
        <Confirmation done={done} clientActId={client.data?.clientACTId ?? ''} />
      ) : client.isError || paymentInfo.isError ? (
        <Alert color="red" role="alert">
          The page could not be loaded. Please reload the page.
        </Alert>
      ) : !client.data || paymentInfo.isPending ? (
        <LoadingSpinner label="Loading" />
      ) : (
        <OrderForm client={client.data} onDone={setDone} />
      )}
    </Stack>
  );
}

function Confirmation({ done, clientActId }: { done: SendStoragePlanResponse; clientActId: string }) {
  const order = done.order;
  const bank = useSiteConfig().data?.bank;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <Card withBorder padding="md" role="status" ref={ref} tabIndex={-1}>
      <Stack gap="xs">
        <Text fw={700} c="teal.9">
          {m.submitted}
        </Text>
        {order.status === 'awaiting_check' ? (
          <>
            <Text>
              {bank
                ? checkInstructions(bank, order.totalCents, planCheckMemo(clientActId, done.id))
                : `Please mail your check for ${formatUsd(order.totalCents)}.`}
            </Text>
            <Text>
              Your plan starts when the check is received; nothing was charged. The e-mail says the same.
            </Text>
          </>
        ) : (
          <>
            <Text data-testid="amount-charged">
              We charged {formatUsd(done.amountChargedCents)}
              {done.TransactionId ? ` (transaction ${done.TransactionId})` : ''}.
            </Text>
            {order.storageYears > 0 && order.paidUntilAfter && (
              <Text>Your annual storage is now paid until {isoToUsDate(order.paidUntilAfter)}.</Text>
            )}
            {order.bioInsuranceVials > 0 && (
              <Text>{order.bioInsuranceVials} Bio-Insurance vials were added to your account.</Text>
            )}
            {order.longevityVials > 0 && (
              <Text>
                {order.longevityVials} Longevity vials of 1 million cells were added to your account.
              </Text>
            )}
          </>
        )}
        <Group gap="md">
          <Anchor component={Link} to="/client-information">
            Client Information
          </Anchor>
          <Anchor component={Link} to="/client-activity">
            Client Activity
          </Anchor>
        </Group>
      </Stack>
    </Card>
  );
}

function OrderForm({
  client,
  onDone,
}: {
  client: ClientRecord;
  onDone(response: SendStoragePlanResponse): void;
}) {
  const today = todayFor(new Date());
  const paymentInfo = usePaymentInfo();
  const book = usePriceBook();
  const send = useSendStoragePlan();
  const [params, setParams] = useSearchParams();
  const topRef = useRef<HTMLDivElement>(null);

  const form = usePayingForm<PlanValues, SendStoragePlanInput, SendStoragePlanResponse>({
    initialValues: initialPlanValues,
    validate: checkPlanRequest,
    payment: {
      choice: (values) => values.payment,
      onFile: methodsOnFileOf(paymentInfo.data ?? null),
      today,
      cardEmpty: storagePlanCardEmptyMessages,
    },
    amount: (values) => priceOf(values, book)?.totalCents ?? null,
    // A check is mailed: the button orders, it takes nothing now.
    charges: (values) => values.payment.method !== 'Check',
    request: planRequestOf,
    send: (request, idempotencyKey) =>
      send.mutateAsync({ body: request as SendStoragePlanInput, idempotencyKey }),
    onSuccess: (response) => {
      onDone(response);
      window.scrollTo({ top: 0 });
    },
  });
  const { values } = form;
  const price = priceOf(values, book);
  const chosen = Object.keys(planChoiceProblems(values, book)).length === 0;
  // The payment step only once plans are chosen (a reload forgets them: back to the plans).
  const step = params.get('step') === PAYMENT_STEP && chosen ? 1 : 0;

  useEffect(() => {
    if (params.get('step') === PAYMENT_STEP && !chosen) setParams({}, { replace: true });
  }, [params, chosen, setParams]);

  useEffect(() => {
    topRef.current?.scrollIntoView({ block: 'start' });
  }, []);

  const toStep = (payment: boolean) => {
    setParams(payment ? { step: PAYMENT_STEP } : {});
    window.scrollTo({ top: 0 });
  };

  const next = () => {
    const problems = planChoiceProblems(values, book);
    if (Object.keys(problems).length > 0) {
      form.form.setErrors(problems);
      return;
    }
    form.form.clearErrors();
    toStep(true);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (step === 1) return form.onSubmit(event);
    event.preventDefault();
    next();
  };

  return (
    <form {...form.formProps} onSubmit={onSubmit} aria-label="Banking and Storage Plans">
      <div ref={topRef} />
      <PayingFormLayout
        fields={
          step === 0 ? (
            <PlanChoiceStep form={form} />
          ) : (
            <PlanPaymentStep form={form} client={client} paymentInfo={paymentInfo.data} today={today} />
          )
        }
        summary={<PlanOrderSummary price={price} method={step === 1 ? values.payment.method : ''} />}
        actions={
          step === 0 ? (
            <PlanChoiceNext error={form.errors.plan} onNext={next} />
          ) : (
            <Stack gap="xs">
              <Group justify="space-between">
                <Button variant="default" onClick={() => toStep(false)} disabled={form.submitting}>
                  Previous Page
                </Button>
                <Button type="submit" loading={form.submitting} disabled={!form.ready || !price}>
                  {form.payLabel()}
                </Button>
              </Group>
              <SubmitFailure message={form.failure} />
            </Stack>
          )
        }
      />
    </form>
  );
}
