import {
  Alert,
  Anchor,
  Button,
  Card,
  Grid,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { TISSUE_TYPES, type TissueType, tissueLabels } from '../../../../domain/cell-request';
import { todayFor } from '../../../../domain/client';
import { isoToUsDate } from '../../../../domain/dates';
import { methodsOnFileOf } from '../../../../domain/form-payment';
import { formatUsd } from '../../../../domain/money';
import { cardFeePercent } from '../../../../domain/payments';
import type { PriceBook } from '../../../../domain/price-book';
import {
  type AnnualStoragePlanId,
  BANKING_PLAN_KINDS,
  type BankingPlanKind,
  BIO_INSURANCE_VIALS,
  bioInsuranceDiscountPercent,
  bioInsurancePlanName,
  bioInsurancePrice,
  type LongevityPlanName,
  paymentMethodType,
  planChoiceProblem,
  priceStoragePlan,
  type SendStoragePlanResponse,
  type StoragePlanPrice,
  storagePlanCardEmptyMessages,
  storagePlanMessages,
} from '../../../../domain/storage-plans';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { FormPaymentChoice } from '../../../components/payment/form-payment-choice';
import { ApiError } from '../../../lib/api-client';
import { useClient } from '../../../lib/client-record';
import { tokenizerFor } from '../../../lib/payment/card-tokenizer';
import { submissionFailureMessage } from '../../../lib/payment/failure-message';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import {
  checkPaymentChoice,
  fieldsOnPage,
  initialPaymentChoice,
  type PaymentChoice,
  paymentRequestFields,
} from '../../../lib/payment/payment-choice';
import { usePaymentConfig } from '../../../lib/payment/payment-config';
import { usePriceBook } from '../../../lib/price-book';
import { useSendStoragePlan } from '../api/send-storage-plan';

const m = storagePlanMessages;
const TITLE = 'Client Portal / ACT Banking and Storage Plans';

/** The choices as the price book in force prices them. */
function planOptions(book: PriceBook) {
  const storage = book.annualStoragePlans.map((plan) => ({
    value: plan.id,
    label:
      plan.years === 0
        ? plan.label
        : `${plan.label}: ${formatUsd(plan.cents)} (${plan.discountPercent}% prepaid discount)`,
  }));
  const vials = Array.from(
    { length: BIO_INSURANCE_VIALS.max - BIO_INSURANCE_VIALS.min + 1 },
    (_, i) => BIO_INSURANCE_VIALS.min + i,
  ).map((vials) => ({
    value: String(vials),
    label: `${bioInsurancePlanName(vials)}: ${formatUsd(bioInsurancePrice(book, vials))} (${bioInsuranceDiscountPercent(book, vials)}% discount)`,
  }));

  const longevity = book.longevityPlans.map((plan) => ({
    value: plan.name,
    label: `${plan.name} (${plan.cells} cells): ${formatUsd(plan.cents)}`,
  }));
  return { storage, vials, longevity };
}

interface PlanChoice {
  annual: AnnualStoragePlanId;
  plan: BankingPlanKind;
  vials: number;
  longevity: LongevityPlanName;
}

/** The spec's defaults: no storage, Bio-Insurance 10 vials ($4,250), credit card. */
const DEFAULT_CHOICE: PlanChoice = {
  annual: 'No Annual Storage',
  plan: 'Bio-Insurance Plan',
  vials: 10,
  longevity: 'Longevity 100',
};

function priceOf(
  book: PriceBook,
  choice: PlanChoice,
  method: PaymentChoice['method'],
): StoragePlanPrice | null {
  if (planChoiceProblem(choice.annual, choice.plan)) return null;
  return priceStoragePlan(book, {
    annualStoragePlan: choice.annual,
    plan: choice.plan,
    vials: choice.vials,
    longevityPlan: choice.longevity,
    paymentMethod: method ? paymentMethodType(method) : 'card',
  });
}

/** /ACT-banking-storage-plans: page 0 the plans, page 1 the client, sample type and payment. */
export function BankingStoragePlansPage() {
  const [done, setDone] = useState<SendStoragePlanResponse | null>(null);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {TITLE}
      </Title>
      {done ? <Confirmation done={done} /> : <OrderForm onDone={setDone} />}
    </Stack>
  );
}

function Confirmation({ done }: { done: SendStoragePlanResponse }) {
  const order = done.order;
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
          <Text>
            Please mail your check for {formatUsd(order.totalCents)} to ACT. Your plan starts when the check
            is received; nothing was charged.
          </Text>
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
              <Text>{order.longevityVials} Longevity vials were added to your account.</Text>
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

function OrderForm({ onDone }: { onDone(response: SendStoragePlanResponse): void }) {
  const today = todayFor(new Date());
  const client = useClient();
  const paymentInfo = usePaymentInfo();
  const config = usePaymentConfig();
  const send = useSendStoragePlan();
  const [page, setPage] = useState<0 | 1>(0);
  const [choice, setChoice] = useState<PlanChoice>(DEFAULT_CHOICE);
  const [tissue, setTissue] = useState<TissueType | ''>('');
  const [payment, setPayment] = useState<PaymentChoice>(() => ({
    ...initialPaymentChoice(false),
    method: 'Credit Card',
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const submitting = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const topRef = useRef<HTMLDivElement>(null);

  const book = usePriceBook();
  const options = planOptions(book);
  const price = priceOf(book, choice, payment.method);
  const busy = send.isPending;

  useEffect(() => {
    topRef.current?.scrollIntoView({ block: 'start' });
  }, []);

  if (client.isError || paymentInfo.isError) {
    return (
      <Alert color="red" role="alert">
        The page could not be loaded. Please reload the page.
      </Alert>
    );
  }
  if (!client.data || paymentInfo.isPending) return <Loader aria-label="Loading" />;

  const change = (patch: Partial<PlanChoice>) => {
    setChoice((current) => ({ ...current, ...patch }));
    setErrors(({ plan: _, ...rest }) => rest);
    setFailure(null);
  };

  const next = () => {
    const problem = planChoiceProblem(choice.annual, choice.plan);
    if (problem) {
      setErrors({ plan: problem });
      return;
    }
    setErrors({});
    setPage(1);
    window.scrollTo({ top: 0 });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (page === 0) {
      next();
      return;
    }
    if (submitting.current || !config.data || !price) return;
    const method = payment.method;
    const checked = checkPaymentChoice(
      payment,
      methodsOnFileOf(paymentInfo.data ?? null),
      today,
      storagePlanCardEmptyMessages,
    );
    const problems: Record<string, string> = { ...checked.problems };
    if (!tissue) problems.Tissue_Info = m.sampleType;
    if (!method) problems.PaymentMethod = m.paymentMethod;
    if (Object.keys(problems).length > 0 || !method) {
      setErrors(problems);
      focusFirstInvalid(formRef.current);
      return;
    }
    setErrors({});
    setFailure(null);
    submitting.current = true;
    try {
      const tokenizer = tokenizerFor(config.data);
      const response = await send.mutateAsync({
        idempotencyKey: crypto.randomUUID(),
        buildRequest: async () => ({
          Source: 'Client Portal',
          Annual_Storage_Plan: choice.annual,
          Plan: choice.plan,
          ...(choice.plan === 'Bio-Insurance Plan' ? { Vials: choice.vials } : {}),
          ...(choice.plan === 'Longevity Plan' ? { Longevity_Banking_Plans: choice.longevity } : {}),
          Tissue_Info: tissue as TissueType,
          ...(await paymentRequestFields(method, checked, payment, tokenizer)),
          PaymentMethod: method,
          expectedTotalCents: price.totalCents,
        }),
      });
      onDone(response);
      window.scrollTo({ top: 0 });
    } catch (error) {
      const fields = error instanceof ApiError ? fieldsOnPage(error.fields, method) : {};
      setErrors(fields);
      setFailure(submissionFailureMessage(error));
      if (Object.keys(fields).length > 0) focusFirstInvalid(formRef.current);
    } finally {
      submitting.current = false;
    }
  };

  const summary = <OrderSummary price={price} method={payment.method} />;

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Banking and Storage Plans">
      <div ref={topRef} />
      {page === 0 ? (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="md">
              <Select
                label="Annual Storage Plan"
                data={options.storage}
                value={choice.annual}
                onChange={(value) => value && change({ annual: value as AnnualStoragePlanId })}
                allowDeselect={false}
              />
              <Text size="sm">
                Pay years of storage ahead at a prepaid discount (the list price is $350.00 a year).
              </Text>
              <Select
                label="Plan"
                data={[...BANKING_PLAN_KINDS]}
                value={choice.plan}
                onChange={(value) => value && change({ plan: value as BankingPlanKind })}
                allowDeselect={false}
              />
              {choice.plan === 'Bio-Insurance Plan' && (
                <Select
                  label="Bio-Insurance Banking Plan"
                  data={options.vials}
                  value={String(choice.vials)}
                  onChange={(value) => value && change({ vials: Number(value) })}
                  allowDeselect={false}
                  searchable
                />
              )}
              {choice.plan === 'Bio-Insurance Plan' && (
                <Text size="sm">
                  10 to 75 vials of 10 million cells: $425 a vial from 10, $400 from 25, $375 from 50.
                </Text>
              )}
              {choice.plan === 'Longevity Plan' && (
                <Select
                  label="Longevity Banking Plan"
                  data={options.longevity}
                  value={choice.longevity}
                  onChange={(value) => value && change({ longevity: value as LongevityPlanName })}
                  allowDeselect={false}
                />
              )}
              <Stack gap={4} align="flex-start">
                <Button onClick={next} aria-describedby={errors.plan ? 'plan-error' : undefined}>
                  Next
                </Button>
                {errors.plan && (
                  <Text c="red.9" size="sm" id="plan-error" role="alert">
                    {errors.plan}
                  </Text>
                )}
              </Stack>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>{summary}</Grid.Col>
        </Grid>
      ) : (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="md">
              {failure && (
                <Text c="red.9" fw={600} role="alert">
                  {failure}
                </Text>
              )}
              <Title order={2} size="h4">
                Client Information
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="Client ID" value={client.data.clientACTId} readOnly />
                <TextInput label="Last Name" value={client.data.lastName} readOnly />
              </SimpleGrid>
              <Select
                label="Tissue Sample Type"
                placeholder="Select sample type"
                data={TISSUE_TYPES.map((value) => ({ value, label: tissueLabels[value] }))}
                value={tissue || null}
                onChange={(value) => {
                  setTissue((value ?? '') as TissueType | '');
                  setErrors(({ Tissue_Info: _, ...rest }) => rest);
                }}
                error={errors.Tissue_Info}
                required
                disabled={busy}
              />
              <Title order={2} size="h4">
                Payment Information
              </Title>
              <FormPaymentChoice
                methods={['Credit Card', 'ACH Payment', 'Check']}
                value={payment}
                onChange={(value) => {
                  setPayment(value);
                  setFailure(null);
                }}
                info={paymentInfo.data}
                errors={errors}
                today={today}
                disabled={busy}
                checkNote={m.checkNote}
              />
              {payment.method === 'ACH Payment' &&
                !paymentInfo.data?.Account_Number &&
                !payment.useAnotherAch && (
                  <Text size="sm">
                    Store your ACH details on the{' '}
                    <Anchor component={Link} to="/payment-information">
                      update payment information tab
                    </Anchor>
                    .
                  </Text>
                )}
              <Group justify="space-between">
                <Button variant="default" onClick={() => setPage(0)} disabled={busy}>
                  Previous Page
                </Button>
                <Button type="submit" loading={busy} disabled={!config.data || !price}>
                  Submit
                </Button>
              </Group>
              {failure && (
                <Text c="red.9" size="sm" aria-hidden>
                  {failure}
                </Text>
              )}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>{summary}</Grid.Col>
        </Grid>
      )}
    </form>
  );
}

function OrderSummary({
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
          <Text size="sm">{m.selectAny}</Text>
        )}
      </Stack>
    </Card>
  );
}
