import { Checkbox, Radio, Stack, Text, Title } from '@mantine/core';
import { cellRequestMessages as m } from '../../../../domain/cell-request';
import type { CellRequestPayer } from '../../../../domain/cell-request-objection';
import { FORM_PAYMENT_METHODS, methodsOnFileOf } from '../../../../domain/form-payment';
import { formatUsd } from '../../../../domain/money';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { cardFeePercent } from '../../../../domain/payments';
import { FormPaymentChoice } from '../../../components/payment/form-payment-choice';
import { NoAchStoredNote } from '../../../components/payment/no-ach-stored';
import type { PayingForm } from '../../../lib/paying-form';
import { usePriceBook } from '../../../lib/price-book';
import type { CellRequestValues } from '../lib/cell-request-values';

/** The request form pays by card or ACH (spec 3): the saved one, or another entered here. */
const REQUEST_PAYMENT_METHODS = FORM_PAYMENT_METHODS.filter((method) => method !== 'Check');

/**
 * Payment: the method, the fee and cancellation notes, and the authorization of the total. A
 * physician first chooses who pays: the client's method on file, or their own.
 */
export function PaymentSection({
  form,
  paymentInfo,
  payer,
  today,
  totalCents,
  disabled,
}: {
  form: PayingForm<CellRequestValues>;
  /** The payer's methods on file. */
  paymentInfo: PaymentInfo;
  payer?: { value: CellRequestPayer; onChange(next: CellRequestPayer): void };
  today: string;
  totalCents: number | null;
  disabled: boolean;
}) {
  const book = usePriceBook();
  const { errors } = form;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Payment
      </Title>
      {payer && (
        <Radio.Group
          label="Who pays"
          value={payer.value}
          onChange={(next) => payer.onChange(next as CellRequestPayer)}
          error={errors.PaidBy}
        >
          <Stack gap="xs" mt="xs">
            <Radio
              value="client"
              label="The client's card or bank account on file"
              disabled={form.submitting}
            />
            <Radio value="physician" label="My own card or bank account" disabled={form.submitting} />
          </Stack>
        </Radio.Group>
      )}
      <FormPaymentChoice
        methods={REQUEST_PAYMENT_METHODS}
        value={form.values.payment}
        onChange={(next) => form.setPayment(next)}
        info={paymentInfo}
        errors={errors}
        today={today}
        disabled={form.submitting}
        {...(payer ? { payer: payer.value, onFileOnly: payer.value === 'client' } : {})}
      />
      {!payer && (
        <NoAchStoredNote payment={form.values.payment} achOnFile={methodsOnFileOf(paymentInfo).ach} />
      )}
      <Text size="sm">A {cardFeePercent(book)} processing fee applies to card payments; ACH has none.</Text>
      <Text size="sm">{m.cancellationPolicy(book.vialReplacementFeeCents)}</Text>
      <Checkbox
        label={`I authorize ACT to charge the total of this order to the payment method above${totalCents != null ? ` (${formatUsd(totalCents)})` : ''}.`}
        {...form.form.getInputProps('authorize', { type: 'checkbox' })}
        aria-invalid={Boolean(errors.authorize) || undefined}
        disabled={disabled}
      />
    </Stack>
  );
}
