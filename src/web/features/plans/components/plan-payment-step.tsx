import { Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { TISSUE_TYPES, tissueLabels } from '../../../../domain/cell-request';
import type { ClientRecord } from '../../../../domain/client';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { storagePlanMessages as m } from '../../../../domain/storage-plans';
import { FormPaymentChoice } from '../../../components/payment/form-payment-choice';
import { NoAchStoredNote } from '../../../components/payment/no-ach-stored';
import type { PayingForm } from '../../../lib/paying-form';
import type { PlanValues } from '../lib/plan-values';

/** Step 2: who the plans are for (from the session, DESIGN.md 8.20), the sample type and the payment. */
export function PlanPaymentStep({
  form,
  client,
  paymentInfo,
  today,
}: {
  form: PayingForm<PlanValues>;
  client: ClientRecord;
  paymentInfo: PaymentInfo | undefined;
  today: string;
}) {
  const { values, errors } = form;
  const busy = form.submitting;
  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        Client Information
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Client ID" value={client.clientACTId} readOnly />
        <TextInput label="Last Name" value={client.lastName} readOnly />
      </SimpleGrid>
      <Select
        label="Tissue Sample Type"
        placeholder="Select sample type"
        data={TISSUE_TYPES.map((value) => ({ value, label: tissueLabels[value] }))}
        {...form.form.getInputProps('Tissue_Info')}
        value={values.Tissue_Info || null}
        required
        disabled={busy}
      />
      <Title order={2} size="h4">
        Payment Information
      </Title>
      <FormPaymentChoice
        methods={['Credit Card', 'ACH Payment', 'Check']}
        value={values.payment}
        onChange={(next) => form.setPayment(next)}
        info={paymentInfo}
        errors={errors}
        today={today}
        disabled={busy}
        checkNote={m.checkNote}
      />
      <NoAchStoredNote payment={values.payment} achOnFile={Boolean(paymentInfo?.Account_Number)} />
    </Stack>
  );
}
