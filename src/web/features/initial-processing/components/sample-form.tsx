import {
  Button,
  Checkbox,
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
import { IconCreditCard } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { todayFor } from '../../../../domain/client';
import { fieldMessages } from '../../../../domain/errors';
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
import type { PaymentInfo } from '../../../../domain/payment-info';
import { type CardForm, cardFormSchema } from '../../../../domain/payments';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { CardFields, type CardFormValues, emptyCard } from '../../../components/payment/card-fields';
import { ApiError } from '../../../lib/api-client';
import { tokenizerFor } from '../../../lib/payment/card-tokenizer';
import { submissionFailureMessage } from '../../../lib/payment/failure-message';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import { usePaymentConfig } from '../../../lib/payment/payment-config';
import { usePriceBook } from '../../../lib/price-book';
import { type SendProcessDataBody, useSendProcessData } from '../api/send-process-data';
import { CalendarDateInput } from './calendar-date-input';

type ClientField =
  | 'FirstName'
  | 'LastName'
  | 'Email'
  | 'PhoneNumber'
  | 'Address'
  | 'City'
  | 'State'
  | 'zipcode'
  | 'Country';

const CLIENT_FIELDS: {
  field: ClientField;
  label: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'email' | 'tel';
}[] = [
  { field: 'FirstName', label: 'First Name', autoComplete: 'off' },
  { field: 'LastName', label: 'Last Name', autoComplete: 'off' },
  { field: 'Email', label: 'Email', autoComplete: 'off', inputMode: 'email' },
  { field: 'PhoneNumber', label: 'Phone Number', autoComplete: 'off', inputMode: 'tel' },
  { field: 'Address', label: 'Address', autoComplete: 'off' },
  { field: 'City', label: 'City', autoComplete: 'off' },
  { field: 'State', label: 'State', autoComplete: 'off' },
  { field: 'zipcode', label: 'Zip Code', autoComplete: 'off' },
  { field: 'Country', label: 'Country', autoComplete: 'off' },
];

type ClientValues = Record<ClientField, string> & { Dob: string; Ship_date: string };

const emptyClient: ClientValues = {
  FirstName: '',
  LastName: '',
  Dob: '',
  Ship_date: '',
  Email: '',
  PhoneNumber: '',
  Address: '',
  City: '',
  State: '',
  zipcode: '',
  Country: 'United States',
};

/** The card fields' names as the server knows them (the card's country is Credit_Card_Holder_Country). */
const CARD_FIELDS = new Set<string>([...Object.keys(emptyCard), 'Credit_Card_Holder_Country', 'token']);

/** Server field messages, split between the form's own fields and the card's. */
function splitFields(fields: Record<string, string>) {
  const form: Record<string, string> = {};
  const card: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) {
    if (field === 'Credit_Card_Holder_Country') card.Country ??= message;
    else if (field === 'token') card.Credit_Card_Number ??= message;
    else if (CARD_FIELDS.has(field)) card[field] ??= message;
    else form[field] ??= message;
  }
  return { form, card };
}

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
  const config = usePaymentConfig();
  const book = usePriceBook();
  const send = useSendProcessData();
  const [client, setClient] = useState<ClientValues>(emptyClient);
  const [tissue, setTissue] = useState<SampleTissue | ''>('');
  const [paidBy, setPaidBy] = useState<'card' | 'check' | ''>('');
  const [useAnotherCard, setUseAnotherCard] = useState(false);
  const [saveCard, setSaveCard] = useState(false);
  const [card, setCard] = useState<CardFormValues>(emptyCard);
  const [billingName, setBillingName] = useState('');
  const [billingEmail, setBillingEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [cardErrors, setCardErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ body: SendProcessDataBody; card: CardForm | null } | null>(
    null,
  );
  const formRef = useRef<HTMLFormElement>(null);
  const failureRef = useRef<HTMLParagraphElement>(null);
  const cardOnFile = paymentInfo.data?.Credit_Card_Number ? paymentInfo.data : null;
  const newCard = paidBy === 'card' && (useAnotherCard || !cardOnFile);
  const busy = send.isPending;

  useEffect(() => {
    if (failure) failureRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [failure]);

  // A field's message goes once the field is changed; the others stay until the next submit.
  const clear = (field: string) =>
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _, ...rest } = current;
      return rest;
    });
  const set = (field: keyof ClientValues) => (value: string) => {
    setClient((c) => ({ ...c, [field]: value }));
    clear(field);
  };
  const changeCard = (next: CardFormValues) => {
    setCardErrors((current) =>
      Object.fromEntries(
        Object.entries(current).filter(
          ([field]) => next[field as keyof CardFormValues] === card[field as keyof CardFormValues],
        ),
      ),
    );
    setCard(next);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const candidate = {
      ...client,
      Tissue: tissue || undefined,
      CreditCard: paidBy === '' ? undefined : paidBy === 'card',
      ...(paidBy === 'check' ? { BillingName: billingName, BillingEmail: billingEmail } : {}),
    };
    const parsed = sendProcessDataRequestSchema(today).safeParse(candidate);
    const checkedCard = newCard ? cardFormSchema(today, sampleCardEmptyMessages).safeParse(card) : null;
    const formProblems = parsed.success ? {} : fieldMessages(parsed.error);
    const cardProblems = checkedCard && !checkedCard.success ? fieldMessages(checkedCard.error) : {};
    setErrors(formProblems);
    setCardErrors(cardProblems);
    if (!parsed.success || (checkedCard && !checkedCard.success)) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setConfirming({ body: parsed.data, card: checkedCard?.data ?? null });
  };

  const onConfirm = async () => {
    if (!confirming || !config.data || !tissue || !paidBy) return;
    const { body, card: cardToPay } = confirming;
    setConfirming(null);
    try {
      const tokenizer = tokenizerFor(config.data);
      const response = await send.mutateAsync({
        buildRequest: async () => {
          const payment = cardToPay
            ? await (async () => {
                const { Credit_Card_Number: _number, CVV: _cvv, Country, ...display } = cardToPay;
                return {
                  update_card: true,
                  save_card: saveCard,
                  token: await tokenizer.tokenizeCard(cardToPay),
                  ...display,
                  Credit_Card_Holder_Country: Country,
                };
              })()
            : { update_card: false, save_card: false };
          return {
            ...body,
            ...payment,
            expectedTotalCents: initialProcessingQuote(book, tissue, paidBy).total,
          };
        },
        idempotencyKey: crypto.randomUUID(),
      });
      onSubmitted(response);
    } catch (error) {
      const fields = error instanceof ApiError ? splitFields(error.fields) : { form: {}, card: {} };
      setErrors(fields.form);
      setCardErrors(fields.card);
      setFailure(submissionFailureMessage(error));
    }
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="New sample form">
      <Stack gap="lg">
        <Fieldset legend="Client Information" disabled={busy}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {CLIENT_FIELDS.slice(0, 2).map(({ field, label, autoComplete }) => (
              <TextInput
                key={field}
                label={label}
                name={field}
                autoComplete={autoComplete}
                value={client[field]}
                onChange={(e) => set(field)(e.currentTarget.value)}
                error={errors[field]}
                required
              />
            ))}
            <CalendarDateInput
              label="Date of Birth"
              name="Dob"
              value={client.Dob}
              onChange={set('Dob')}
              maxDate={today}
              defaultLevel="decade"
              error={errors.Dob}
              disabled={busy}
            />
            {CLIENT_FIELDS.slice(2).map(({ field, label, autoComplete, inputMode }) => (
              <TextInput
                key={field}
                label={label}
                name={field}
                type={field === 'Email' ? 'email' : 'text'}
                autoComplete={autoComplete}
                inputMode={inputMode}
                value={client[field]}
                onChange={(e) => set(field)(e.currentTarget.value)}
                error={errors[field]}
                required
              />
            ))}
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend="Sample" disabled={busy}>
          <Stack>
            <Radio.Group
              label="Tissue"
              name="Tissue"
              value={tissue}
              onChange={(value) => {
                setTissue(value as SampleTissue);
                clear('Tissue');
              }}
              error={errors.Tissue}
              withAsterisk
            >
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
              value={client.Ship_date}
              onChange={set('Ship_date')}
              minDate={today}
              error={errors.Ship_date}
              disabled={busy}
            />
          </Stack>
        </Fieldset>

        <Fieldset legend="Payment" disabled={busy}>
          <Stack>
            <Radio.Group
              label="Payment"
              name="CreditCard"
              value={paidBy}
              onChange={(value) => {
                setPaidBy(value as 'card' | 'check');
                clear('CreditCard');
              }}
              error={errors.CreditCard}
              withAsterisk
            >
              <Group mt="xs">
                <Radio
                  value="card"
                  label="Credit card"
                  aria-invalid={Boolean(errors.CreditCard) || undefined}
                />
                <Radio
                  value="check"
                  label="Check in the shipment"
                  aria-invalid={Boolean(errors.CreditCard) || undefined}
                />
              </Group>
            </Radio.Group>

            {paidBy === 'card' && (
              <Stack>
                {cardOnFile ? (
                  <>
                    {!useAnotherCard && <CardOnFile info={cardOnFile} />}
                    <Checkbox
                      label="Use Another Credit Card"
                      checked={useAnotherCard}
                      onChange={(e) => {
                        setUseAnotherCard(e.currentTarget.checked);
                        setCard(emptyCard);
                      }}
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
                      values={card}
                      onChange={changeCard}
                      errors={cardErrors}
                      today={today}
                      disabled={busy}
                    />
                    <Checkbox
                      label="Save this credit card on file for future payments"
                      checked={saveCard}
                      onChange={(e) => setSaveCard(e.currentTarget.checked)}
                    />
                  </>
                )}
              </Stack>
            )}

            {paidBy === 'check' && (
              <Stack>
                <Text size="sm">
                  Put the check for the up-front banking fee in the shipment with the sample. We e-mail the
                  billing contact the amount; the client can sign the consent once the check is received.
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput
                    label="Billing Name"
                    name="BillingName"
                    value={billingName}
                    onChange={(e) => {
                      setBillingName(e.currentTarget.value);
                      clear('BillingName');
                    }}
                    error={errors.BillingName}
                    required
                  />
                  <TextInput
                    label="Billing Email"
                    name="BillingEmail"
                    type="email"
                    value={billingEmail}
                    onChange={(e) => {
                      setBillingEmail(e.currentTarget.value);
                      clear('BillingEmail');
                    }}
                    error={errors.BillingEmail}
                    required
                  />
                </SimpleGrid>
              </Stack>
            )}
          </Stack>
        </Fieldset>

        <AmountInView tissue={tissue} paidBy={paidBy} />

        <Stack gap="xs">
          {failure && (
            <Text ref={failureRef} c="red.9" fw={600} role="alert">
              {failure}
            </Text>
          )}
          <Group justify="space-between">
            <Button variant="default" onClick={onPrevious} disabled={busy}>
              Previous Page
            </Button>
            <Button type="submit" loading={busy} disabled={!config.data}>
              Submit
            </Button>
          </Group>
        </Stack>
      </Stack>

      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Submit the new sample form"
        centered
      >
        <Stack>
          <Text>{initialProcessingMessages.confirm}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              No
            </Button>
            <Button onClick={() => void onConfirm()}>Yes</Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}
