import { Checkbox, Group, Radio, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { type ConsentVariant, consentMessages, SAMPLE_TYPES } from '../../../../domain/consent-form';
import { FORM_PAYMENT_METHODS } from '../../../../domain/form-payment';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { FormPaymentChoice } from '../../../components/payment/form-payment-choice';
import type { PaymentChoice } from '../../../lib/payment/payment-choice';
import { annualFeeMethodOf } from '../lib/annual-fee-method';
import { AnnualStorageCommitment } from './annual-storage-commitment';
import { ReadOnlyFacts } from './read-only-facts';
import { SignaturePadField } from './signature-pad';

export interface ConsentPageTwo {
  sampleType: string;
  payment: PaymentChoice;
  agree: boolean;
  signature: string | null;
}

interface Props {
  variant: ConsentVariant;
  values: ConsentPageTwo;
  onChange(values: ConsentPageTwo): void;
  errors: Record<string, string>;
  /** Physician Information: the client's physician, or in the physician variant the one signed in. */
  physician: { id: string; lastName: string };
  /** Client Information: the summary of record, or in the physician variant the details to edit. */
  clientInformation: ReactNode;
  /** The client's own card and bank account on file: the client pays the annual storage. */
  paymentInfo: PaymentInfo | undefined;
  today: string;
  disabled: boolean;
}

const CHECK_NOTES: Record<ConsentVariant, string> = {
  client: 'You pay the annual storage fee by check. We will send you a reminder before each anniversary.',
  physician:
    'The client pays the annual storage fee by check. We will send the client a reminder before each anniversary.',
};

/** Page 2: who is involved, tissue type, payment and the yearly commitment, agreement and signature. */
export function ConsentPageTwoFields({
  variant,
  values,
  onChange,
  errors,
  physician,
  clientInformation,
  paymentInfo,
  today,
  disabled,
}: Props) {
  const set = (patch: Partial<ConsentPageTwo>) => onChange({ ...values, ...patch });
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Physician Information
        </Title>
        <ReadOnlyFacts
          facts={[
            { label: 'Physician ID', value: physician.id },
            { label: 'Physician Last Name', value: physician.lastName },
          ]}
        />
      </Stack>

      <Stack gap="xs">
        <Title order={2} size="h4">
          Client Information
        </Title>
        {clientInformation}
      </Stack>

      <Stack gap="xs">
        <Title order={2} size="h4">
          Tissue Type
        </Title>
        <Radio.Group
          label="Type of tissue collected"
          name="sample_type"
          value={values.sampleType}
          onChange={(sampleType) => set({ sampleType })}
          error={errors.sample_type}
          withAsterisk
        >
          <Group mt="xs">
            {SAMPLE_TYPES.map((type) => (
              <Radio
                key={type}
                value={type}
                label={type}
                aria-invalid={Boolean(errors.sample_type) || undefined}
                disabled={disabled}
              />
            ))}
          </Group>
        </Radio.Group>
      </Stack>

      <Stack gap="xs">
        <Title order={2} size="h4">
          Payment
        </Title>
        <FormPaymentChoice
          methods={FORM_PAYMENT_METHODS}
          value={values.payment}
          onChange={(payment) => set({ payment })}
          info={paymentInfo}
          errors={errors}
          today={today}
          disabled={disabled}
          checkNote={CHECK_NOTES[variant]}
        />
      </Stack>

      <AnnualStorageCommitment
        method={values.payment.method}
        feeMethod={annualFeeMethodOf(values.payment, paymentInfo)}
      />

      <Checkbox
        name="agree"
        label="I have read and agree to the Client Consent and Service Agreement, including Addendum A, and I authorize the annual storage fee described above."
        checked={values.agree}
        onChange={(e) => set({ agree: e.currentTarget.checked })}
        error={errors.agree}
        aria-invalid={Boolean(errors.agree) || undefined}
        disabled={disabled}
      />

      <Stack gap="xs">
        <Title order={2} size="h4">
          Signature
        </Title>
        <SignaturePadField
          value={values.signature}
          onChange={(signature) => set({ signature })}
          error={errors.Signature}
          confirmLabel={consentMessages.acceptSignature}
          unsignedMessage={consentMessages.signature}
          disabled={disabled}
        />
      </Stack>
    </Stack>
  );
}
