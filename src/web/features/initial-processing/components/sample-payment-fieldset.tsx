import { Checkbox, Fieldset, Group, Paper, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { CardFields, type CardFormValues, emptyCard } from '../../../components/payment/card-fields';
import type { PayingForm } from '../../../lib/paying-form';
import type { SampleValues } from './sample-values';

function CardOnFile({ info }: { info: PaymentInfo }) {
  const holder = [info.Credit_Card_Holder_First_Name, info.Credit_Card_Holder_Last_Name]
    .filter(Boolean)
    .join(' ');
  return (
    <Paper withBorder p="sm" radius="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconCreditCard size={28} aria-hidden />
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            Your credit card on file
          </Text>
          <Text fw={600}>
            {info.Credit_Card_Type ?? 'Card'} ending in {info.Credit_Card_Number?.slice(-4)}
          </Text>
          {holder && <Text size="sm">Name on card: {holder}</Text>}
          {info.Month_of_Expiry && info.Year_of_Expiry && (
            <Text size="sm">
              Expires: {info.Month_of_Expiry}/{info.Year_of_Expiry}
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

/** The card fields' messages: the card's country is Credit_Card_Holder_Country beside the client's. */
function cardErrorsOf(errors: Record<string, string>): Record<string, string> {
  const { Country: _clientCountry, Credit_Card_Holder_Country, ...rest } = errors;
  return Credit_Card_Holder_Country ? { ...rest, Country: Credit_Card_Holder_Country } : rest;
}

/** The card fields that changed, by the names their messages carry. */
function changedCardFields(before: CardFormValues, after: CardFormValues): string[] {
  return (Object.keys(after) as (keyof CardFormValues)[])
    .filter((field) => before[field] !== after[field])
    .map((field) => (field === 'Country' ? 'Credit_Card_Holder_Country' : field));
}

/** Payment: by the physician's card (on file or another) now, or by a check in the shipment. */
export function SamplePaymentFieldset({
  form,
  cardOnFile,
  today,
  disabled,
}: {
  form: PayingForm<SampleValues>;
  cardOnFile: PaymentInfo | null;
  today: string;
  disabled: boolean;
}) {
  const { values, errors } = form;
  const { payment } = values;
  const newCard = values.paidBy === 'card' && (payment.useAnotherCard || !cardOnFile);
  const changeCard = (card: CardFormValues) => {
    const changed = changedCardFields(payment.card, card);
    form.form.setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([field]) => !changed.includes(field))),
    );
    form.patch({ payment: { ...payment, card } });
  };

  return (
    <Fieldset legend="Payment" disabled={disabled}>
      <Stack>
        <Radio.Group
          label="Payment"
          name="CreditCard"
          value={values.paidBy}
          onChange={(value) => {
            form.patch({ paidBy: value as SampleValues['paidBy'] });
            form.clearError('CreditCard');
          }}
          error={errors.CreditCard}
          withAsterisk
        >
          <Group mt="xs">
            <Radio value="card" label="Credit card" aria-invalid={Boolean(errors.CreditCard) || undefined} />
            <Radio
              value="check"
              label="Check in the shipment"
              aria-invalid={Boolean(errors.CreditCard) || undefined}
            />
          </Group>
        </Radio.Group>

        {values.paidBy === 'card' && (
          <Stack>
            {cardOnFile ? (
              <>
                {!payment.useAnotherCard && <CardOnFile info={cardOnFile} />}
                <Checkbox
                  label="Use Another Credit Card"
                  checked={payment.useAnotherCard}
                  onChange={(e) =>
                    form.patch({
                      payment: { ...payment, useAnotherCard: e.currentTarget.checked, card: emptyCard },
                    })
                  }
                />
              </>
            ) : (
              <Text size="sm">No credit card is on file. Please enter the card to use.</Text>
            )}
            {errors.update_card && (
              <Text size="sm" c="red.9" role="alert">
                {errors.update_card}
              </Text>
            )}
            {newCard && (
              <>
                <CardFields
                  values={payment.card}
                  onChange={changeCard}
                  errors={cardErrorsOf(errors)}
                  today={today}
                  disabled={disabled}
                />
                <Checkbox
                  label="Save this credit card on file for future payments"
                  checked={payment.saveCard}
                  onChange={(e) => form.patch({ payment: { ...payment, saveCard: e.currentTarget.checked } })}
                />
              </>
            )}
          </Stack>
        )}

        {values.paidBy === 'check' && (
          <Stack>
            <Text size="sm">
              Put the check for the up-front banking fee in the shipment with the sample. We e-mail the
              billing contact the amount; the client can sign the consent once the check is received.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Billing Name"
                name="BillingName"
                {...form.form.getInputProps('BillingName')}
                required
              />
              <TextInput
                label="Billing Email"
                name="BillingEmail"
                type="email"
                {...form.form.getInputProps('BillingEmail')}
                required
              />
            </SimpleGrid>
          </Stack>
        )}
      </Stack>
    </Fieldset>
  );
}
