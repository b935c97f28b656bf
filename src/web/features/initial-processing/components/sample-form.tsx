import {
  Button,
  Fieldset,
  Group,
  Modal,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { todayFor } from '../../../../domain/client';
import {
  initialProcessingMessages,
  initialProcessingQuote,
  quoteSummary,
  SAMPLE_TISSUES,
  type SampleTissue,
  type SendProcessDataResponse,
  sampleCardEmptyMessages,
  sendProcessDataRequestSchema,
  tissueLabels,
} from '../../../../domain/initial-processing';
import { formatUsd } from '../../../../domain/money';
import { SubmitFailure } from '../../../components/submit-failure';
import { usePayingForm } from '../../../lib/paying-form';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import { usePriceBook } from '../../../lib/price-book';
import { zodResolver } from '../../../lib/zod-resolver';
import { type SendProcessDataBody, useSendProcessData } from '../api/send-process-data';
import { CalendarDateInput } from './calendar-date-input';
import { SamplePaymentFieldset } from './sample-payment-fieldset';
import { type ClientField, emptySample, type SampleValues, sampleRequestOf } from './sample-values';

const CLIENT_FIELDS: {
  field: ClientField;
  label: string;
  inputMode?: 'numeric' | 'email' | 'tel';
}[] = [
  { field: 'FirstName', label: 'First Name' },
  { field: 'LastName', label: 'Last Name' },
  { field: 'Email', label: 'Email', inputMode: 'email' },
  { field: 'PhoneNumber', label: 'Phone Number', inputMode: 'tel' },
  { field: 'Address', label: 'Address' },
  { field: 'City', label: 'City' },
  { field: 'State', label: 'State' },
  { field: 'zipcode', label: 'Zip Code' },
  { field: 'Country', label: 'Country' },
];

/** What the physician pays, from the same domain function as the server, shown before submitting. */
function AmountInView({ tissue, paidBy }: { tissue: SampleTissue | ''; paidBy: 'card' | 'check' | '' }) {
  const book = usePriceBook();
  if (!tissue || !paidBy) return null;
  const quote = initialProcessingQuote(book, tissue, paidBy);
  return (
    <Paper withBorder p="sm" radius="md" bg="gray.0">
      <Text size="sm" c="gray.8">
        {paidBy === 'card'
          ? `Amount to be charged to the card now (${tissueLabels[tissue]})`
          : `Check to put in the shipment (${tissueLabels[tissue]})`}
      </Text>
      <Text fw={700} data-testid="amount-in-view">
        {paidBy === 'card' ? quoteSummary(quote) : formatUsd(quote.total)}
      </Text>
    </Paper>
  );
}

/** The server's names for the card's fields, on the fields this form shows them on. */
function fieldsOnThisForm(fields: Record<string, string>): Record<string, string> {
  const { token, ...rest } = fields;
  return token ? { Credit_Card_Number: token, ...rest } : rest;
}

/** Page 2: the new client, the sample and the payment (spec 2, sections 3 to 5). */
export function SampleForm({
  onPrevious,
  onSubmitted,
}: {
  onPrevious(): void;
  onSubmitted(response: SendProcessDataResponse): void;
}) {
  const today = todayFor(new Date());
  const paymentInfo = usePaymentInfo();
  const book = usePriceBook();
  const send = useSendProcessData();
  const cardOnFile = paymentInfo.data?.Credit_Card_Number ? paymentInfo.data : null;
  const schema = sendProcessDataRequestSchema(today);

  const form = usePayingForm<SampleValues, SendProcessDataBody, SendProcessDataResponse>({
    initialValues: emptySample,
    validate: zodResolver(schema, sampleRequestOf),
    payment: {
      choice: (values) => ({
        ...values.payment,
        method: values.paidBy === 'card' ? 'Credit Card' : '',
      }),
      onFile: { card: Boolean(cardOnFile), ach: false },
      today,
      cardEmpty: sampleCardEmptyMessages,
      // The client has a Country of their own: the card's is Credit_Card_Holder_Country.
      problemsOnPage: ({ Country, ...rest }) =>
        Country ? { ...rest, Credit_Card_Holder_Country: Country } : rest,
      requestFields: async (checked, choice, tokenizer) => {
        if (!checked.card) return { update_card: false, save_card: false };
        const { Credit_Card_Number: _number, CVV: _cvv, Country, ...display } = checked.card;
        return {
          update_card: true,
          save_card: choice.saveCard,
          token: await tokenizer.tokenizeCard(checked.card),
          ...display,
          Credit_Card_Holder_Country: Country,
        };
      },
    },
    amount: ({ Tissue, paidBy }) =>
      Tissue && paidBy ? initialProcessingQuote(book, Tissue, paidBy).total : null,
    charges: (values) => values.paidBy === 'card',
    // What was checked is what is sent, as the schema reads it.
    request: (values) => schema.parse(sampleRequestOf(values)),
    send: (request, idempotencyKey) => send.mutateAsync({ body: request, idempotencyKey }),
    onSuccess: onSubmitted,
    fieldsOnPage: fieldsOnThisForm,
    confirmFirst: true,
  });
  const { values, errors } = form;
  const busy = form.submitting;
  const amount =
    values.Tissue && values.paidBy ? initialProcessingQuote(book, values.Tissue, values.paidBy) : null;
  const input = (field: keyof SampleValues) => ({ name: field, ...form.form.getInputProps(field) });

  return (
    <form {...form.formProps} aria-label="New sample form">
      <Stack gap="lg">
        <Fieldset legend="Client Information" disabled={busy}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {CLIENT_FIELDS.slice(0, 2).map(({ field, label }) => (
              <TextInput key={field} label={label} autoComplete="off" {...input(field)} required />
            ))}
            <CalendarDateInput
              label="Date of Birth"
              name="Dob"
              value={values.Dob}
              onChange={(value) => form.patch({ Dob: value })}
              maxDate={today}
              defaultLevel="decade"
              error={errors.Dob}
              disabled={busy}
            />
            {CLIENT_FIELDS.slice(2).map(({ field, label, inputMode }) => (
              <TextInput
                key={field}
                label={label}
                type={field === 'Email' ? 'email' : 'text'}
                autoComplete="off"
                inputMode={inputMode}
                {...input(field)}
                required
              />
            ))}
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend="Sample" disabled={busy}>
          <Stack>
            <Radio.Group label="Tissue" name="Tissue" {...form.form.getInputProps('Tissue')} withAsterisk>
              <Group mt="xs">
                {SAMPLE_TISSUES.map((value) => (
                  <Radio
                    key={value}
                    value={value}
                    label={tissueLabels[value]}
                    aria-invalid={Boolean(errors.Tissue) || undefined}
                  />
                ))}
              </Group>
            </Radio.Group>
            <CalendarDateInput
              label="Ship Date"
              name="Ship_date"
              value={values.Ship_date}
              onChange={(value) => form.patch({ Ship_date: value })}
              minDate={today}
              error={errors.Ship_date}
              disabled={busy}
            />
          </Stack>
        </Fieldset>

        <SamplePaymentFieldset form={form} cardOnFile={cardOnFile} today={today} disabled={busy} />

        <AmountInView tissue={values.Tissue} paidBy={values.paidBy} />

        <Stack gap="xs">
          <Group justify="space-between">
            <Button variant="default" onClick={onPrevious} disabled={busy}>
              Previous Page
            </Button>
            <Button type="submit" loading={busy} disabled={!form.ready}>
              {form.payLabel()}
            </Button>
          </Group>
          <SubmitFailure message={form.failure} />
        </Stack>
      </Stack>

      <Modal
        opened={form.confirmation.opened}
        onClose={form.confirmation.dismiss}
        title="Submit the new sample form"
        centered
      >
        <Stack>
          <Text>{initialProcessingMessages.confirm}</Text>
          {amount && values.paidBy === 'card' && (
            <Text size="sm">The card will be charged {formatUsd(amount.total)}.</Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={form.confirmation.dismiss}>
              No
            </Button>
            <Button onClick={form.confirmation.accept}>Yes</Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}
