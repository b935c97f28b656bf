import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  List,
  Radio,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { todayFor } from '../../../../domain/client-basics';
import { formatUsd } from '../../../../domain/money';
import {
  type ClientAgreementResponse,
  installmentSchedule,
  installmentScheduleRows,
  newbornAgreementMessages as m,
  NEWBORN_AGREEMENT_TITLE,
  NEWBORN_PAYMENT_AUTHORIZATION,
  type NewbornAgreementFigures,
  newbornAgreementRows,
  newbornAgreementTerms,
  type SetClientAgreementRequest,
  type SetClientAgreementResponse,
} from '../../../../domain/newborn-agreement';
import { cardFeePercent, cardProcessingFee } from '../../../../domain/payments';
import type { PriceBook } from '../../../../domain/price-book';
import { BankContactLine } from '../../../components/bank-contact-line';
import { DownloadLink } from '../../../components/download-link';
import { LoadingSpinner } from '../../../components/loading-spinner';
import {
  AchFields,
  type AchFormValues,
  CardFields,
  type CardFormValues,
  emptyAch,
  emptyCard,
} from '../../../components/payment/card-fields';
import { PublicShell } from '../../../components/public-shell';
import { SubmitFailure } from '../../../components/submit-failure';
import { ApiError } from '../../../lib/api-client';
import { withoutChangedFields } from '../../../lib/field-errors';
import { paymentErrorsAfter, usePayingForm } from '../../../lib/paying-form';
import {
  type NewMethodKind,
  newMethodChoice,
  newMethodFieldsOnPage,
  newMethodRequestFields,
} from '../../../lib/payment/new-method';
import { usePriceBook } from '../../../lib/price-book';
import { useClientAgreement, useSignClientAgreement } from '../api/newborn-agreement';
import { CompletedNotice } from './completed-notice';
import { NewbornAgreementAccount } from './newborn-agreement-account';
import { SignaturePadField } from './signature-pad';

const cents = (dollars: number) => Math.round(dollars * 100);

function figuresOf(agreement: ClientAgreementResponse): NewbornAgreementFigures {
  return {
    mainContact: agreement.Name,
    patientId: agreement.Patient_ID__c,
    annualBankingFeeCents: cents(agreement.Annual_Banking_Fee_Amount__c),
    bioInsuranceFeeCents: cents(agreement.Bio_Insurance_Fee_Amount__c),
    downPaymentCents: cents(agreement.Down_Payment__c),
    initialProcessingFeeCents: cents(agreement.Initial_Processing_Fee_Amount__c),
    interestRateBasisPoints: Math.round(agreement.Interest_Rate__c * 100),
    installments: agreement.Number_Of_Installments__c,
    totalFinancedCents: cents(agreement.Total_Amount_Financing__c),
  };
}

type Method = NewMethodKind;

const choiceOf = (values: AgreementValues) => newMethodChoice(values.method, values);

interface AgreementValues {
  signature: string | null;
  method: Method;
  card: CardFormValues;
  ach: AchFormValues;
  authorize: boolean;
}

/** The deposit charged at signing: the agreement's down payment, and the book's card fee on a card. */
function depositFor(book: PriceBook, downPaymentCents: number, method: Method): number {
  return downPaymentCents + cardProcessingFee(book, downPaymentCents, method === 'card' ? 'card' : 'ach');
}

/**
 * The newborn finance agreement (spec 3; issue 21): the main contact opens it from the link sent
 * to them, reads the plan, its terms and its payment schedule, gives a card or bank account
 * (tokenized by the gateway in the browser) with the authorization to charge it, confirms a drawn
 * signature, and signs and pays the deposit at once; signed once.
 */
export function NewbornAgreementPage() {
  const id = useParams().id ?? '';
  const agreement = useClientAgreement(id);
  const [done, setDone] = useState<SetClientAgreementResponse | null>(null);
  const [alreadyDone, setAlreadyDone] = useState(false);

  const invalid =
    id === '' || (agreement.error instanceof ApiError && agreement.error.status === 404)
      ? m.invalidClient
      : null;

  let body: ReactNode;
  if (invalid) {
    body = (
      <Alert color="red" variant="light" role="alert">
        <Text fw={600} size="sm">
          {invalid}
        </Text>
        <Text size="sm" mt={4}>
          {m.invalidLinkHelp}
        </Text>
        <BankContactLine />
      </Alert>
    );
  } else if (agreement.isPending) {
    body = <LoadingSpinner label="Loading the agreement" mx="auto" display="block" />;
  } else if (agreement.error) {
    body = (
      <Alert color="red" variant="light" role="alert">
        {agreement.error.message}
      </Alert>
    );
  } else if (done || alreadyDone || agreement.data.NB_Finance_Agreement_Completed__c) {
    const link = encodeURIComponent(id);
    // The deposit's receipt: known from the answer just given, or from the agreement read again.
    const receipt = (done ? done.amountChargedCents > 0 : false) || agreement.data.depositReceipt;
    body = (
      <CompletedNotice message={m.completed}>
        {done && done.amountChargedCents > 0 && (
          <Text data-testid="deposit-charged">
            We charged the deposit of {formatUsd(done.amountChargedCents)}
            {done.TransactionId ? ` (transaction ${done.TransactionId})` : ''}.
          </Text>
        )}
        <Text>{m.emailed}</Text>
        <Group gap="lg">
          <DownloadLink href={`/api/pay/get_Client_Agreement_document?id=${link}`}>
            Download the signed agreement
          </DownloadLink>
          {receipt && (
            <DownloadLink href={`/api/pay/get_Client_Agreement_receipt?id=${link}`}>
              Download the deposit receipt
            </DownloadLink>
          )}
        </Group>
      </CompletedNotice>
    );
    body = (
      <Stack gap="xl">
        {body}
        <NewbornAgreementAccount id={id} />
      </Stack>
    );
  } else {
    body = (
      <AgreementForm
        id={id}
        agreement={agreement.data}
        onDone={(response) => {
          setDone(response);
          window.scrollTo({ top: 0 });
        }}
        onAlreadySigned={() => setAlreadyDone(true)}
      />
    );
  }

  return (
    <PublicShell title={NEWBORN_AGREEMENT_TITLE} width={760}>
      {body}
    </PublicShell>
  );
}

function AgreementForm({
  id,
  agreement,
  onDone,
  onAlreadySigned,
}: {
  id: string;
  agreement: ClientAgreementResponse;
  onDone(response: SetClientAgreementResponse): void;
  onAlreadySigned(): void;
}) {
  const today = todayFor(new Date());
  const book = usePriceBook();
  const signing = useSignClientAgreement(id);
  const figures = figuresOf(agreement);
  const rows = newbornAgreementRows(figures);
  // The dates as they fall when signed today: the first installment one month after the deposit.
  const schedule = installmentScheduleRows(installmentSchedule(figures, today));

  const form = usePayingForm<AgreementValues, object, SetClientAgreementResponse>({
    initialValues: { signature: null, method: 'card', card: emptyCard, ach: emptyAch, authorize: false },
    validate: (values) => {
      const found: Record<string, string> = {};
      if (!values.method) found.method = m.chooseMethod;
      if (!values.authorize) found.authorize = m.authorize;
      if (!values.signature) found.signatureData = m.signature;
      return found;
    },
    payment: {
      choice: choiceOf,
      onFile: { card: false, ach: false },
      today,
      requestFields: newMethodRequestFields,
    },
    amount: (values) => (values.method ? depositFor(book, figures.downPaymentCents, values.method) : null),
    request: (values) => ({
      ClientId: id,
      signatureData: values.signature ?? '',
      NBAgreementCompleted: true as const,
      authorizeCharges: true as const,
    }),
    send: (request, idempotencyKey) =>
      signing.mutateAsync({ body: request as unknown as SetClientAgreementRequest, idempotencyKey }),
    onSuccess: (response) => onDone(response),
    fieldsOnPage: (fields, values) =>
      newMethodFieldsOnPage(fields, values.method, { authorizeCharges: 'authorize' }),
    onRefused: (error) => {
      if (error.code === 'ALREADY_COMPLETED') {
        onAlreadySigned();
        return true;
      }
      return false;
    },
  });
  const { values, errors } = form;
  const busy = form.submitting;
  const { setErrors } = form.form;

  // A field's message goes as soon as the field changes.
  const edit =
    <K extends 'card' | 'ach'>(key: K) =>
    (next: AgreementValues[K]) => {
      setErrors((current) => withoutChangedFields(current as Record<string, string>, values[key], next));
      form.patch({ [key]: next } as Partial<AgreementValues>);
    };

  const deposit = values.method ? depositFor(book, figures.downPaymentCents, values.method) : null;
  const label = deposit && deposit > 0 ? `Sign and pay ${formatUsd(deposit)}` : 'Sign';

  return (
    <form {...form.formProps} aria-label={NEWBORN_AGREEMENT_TITLE}>
      <Stack gap="lg">
        <Table variant="vertical" withTableBorder layout="fixed">
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.label}>
                <Table.Th w="50%">{row.label}</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Stack gap="xs">
          <Title order={2} size="h4">
            Terms
          </Title>
          <List spacing={6} size="sm">
            {newbornAgreementTerms(figures, {
              cardFeePercent: cardFeePercent(book),
              lateChargeCents: book.newbornLateChargeCents,
            }).map((term) => (
              <List.Item key={term}>{term}</List.Item>
            ))}
          </List>
        </Stack>

        {schedule.length > 0 && figures.totalFinancedCents > 0 && (
          <Stack gap="xs" component="section" aria-labelledby="payment-schedule-title">
            <Title order={2} size="h4" id="payment-schedule-title">
              Payment schedule
            </Title>
            <Text size="sm">
              Signed today, the deposit is charged today and each installment on its date below. Payments by
              card add the {cardFeePercent(book)} card processing fee.
            </Text>
            <Table
              fz="xs"
              horizontalSpacing={4}
              verticalSpacing={4}
              striped
              aria-labelledby="payment-schedule-title"
              data-testid="payment-schedule"
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th ta="right">Payment</Table.Th>
                  <Table.Th ta="right">Interest</Table.Th>
                  <Table.Th ta="right">Principal</Table.Th>
                  <Table.Th ta="right">Balance</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {schedule.map((row) => (
                  <Table.Tr key={row.number}>
                    <Table.Td>{row.date}</Table.Td>
                    <Table.Td ta="right">{row.payment}</Table.Td>
                    <Table.Td ta="right">{row.interest}</Table.Td>
                    <Table.Td ta="right">{row.principal}</Table.Td>
                    <Table.Td ta="right">{row.balance}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        )}

        <Fieldset legend="Payment Method" radius="md">
          <Stack>
            <Radio.Group
              label="Pay by"
              value={values.method}
              onChange={(method) => {
                const next = { ...values, method: method as Method };
                setErrors((current) =>
                  paymentErrorsAfter(current as Record<string, string>, choiceOf(values), choiceOf(next)),
                );
                form.patch({ method: next.method });
                form.setFailure(null);
              }}
              error={errors.method}
            >
              <Group mt="xs">
                <Radio value="card" label="Credit Card" disabled={busy} />
                <Radio value="ach" label="ACH Payment" disabled={busy} />
              </Group>
            </Radio.Group>
            <Text size="sm">
              The deposit of {formatUsd(figures.downPaymentCents)} is charged today, and the monthly
              installments on their dates. A {cardFeePercent(book)} processing fee applies to card payments.
              Pay by ACH to avoid it.
            </Text>
            {values.method === 'card' && (
              <CardFields
                values={values.card}
                onChange={edit('card')}
                errors={errors}
                today={today}
                disabled={busy}
              />
            )}
            {values.method === 'ach' && (
              <AchFields values={values.ach} onChange={edit('ach')} errors={errors} disabled={busy} />
            )}
          </Stack>
        </Fieldset>

        <Checkbox
          {...form.form.getInputProps('authorize', { type: 'checkbox' })}
          label={NEWBORN_PAYMENT_AUTHORIZATION}
          disabled={busy}
          required
        />

        <Stack gap="xs">
          <Text size="sm">
            By signing below, I agree to pay the amounts above on the terms of this agreement.
          </Text>
          <SignaturePadField
            value={values.signature}
            onChange={(signature) => {
              form.patch({ signature });
              if (signature) form.clearError('signatureData');
            }}
            error={errors.signatureData}
            confirmLabel={m.confirmSignature}
            unsignedMessage={m.signature}
            disabled={busy}
          />
        </Stack>

        <Stack gap={6}>
          <Button type="submit" loading={busy} disabled={!form.ready} style={{ alignSelf: 'flex-start' }}>
            {label}
          </Button>
          <SubmitFailure message={form.failure} />
        </Stack>
      </Stack>
    </form>
  );
}
