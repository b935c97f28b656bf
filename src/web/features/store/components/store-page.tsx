import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { shipmentDateMessages, storeEarliestShipmentDate } from '../../../../domain/carrier-calendar';
import { type ClientRecord, todayFor } from '../../../../domain/client';
import { addDays, isoToUsDate, usDateToIso } from '../../../../domain/dates';
import { methodsOnFileOf } from '../../../../domain/form-payment';
import { formatUsd } from '../../../../domain/money';
import { cardFeePercent } from '../../../../domain/payments';
import { SERUM_BULK_FROM } from '../../../../domain/price-book';
import {
  storeMessages as m,
  priceStoreOrder,
  SERUM_MAX_BOTTLES,
  SERUM_NAME,
  type SendStoreRequestInput,
  type SendStoreRequestResponse,
  type StorePrice,
  sendStoreRequestSchema,
  serumQuantityOf,
  serumQuantityProblem,
  storeShipmentDateProblem,
} from '../../../../domain/store';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { NoClientChosen } from '../../../components/no-client-chosen';
import { FormPaymentChoice } from '../../../components/payment/form-payment-choice';
import { NoAchStoredNote } from '../../../components/payment/no-ach-stored';
import { PayingFormLayout } from '../../../components/payment/paying-form-layout';
import { SubmitFailure } from '../../../components/submit-failure';
import { useClient } from '../../../lib/client-record';
import { usePayingForm } from '../../../lib/paying-form';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import { fieldsOnPage, initialPaymentChoice, type PaymentChoice } from '../../../lib/payment/payment-choice';
import { usePriceBook } from '../../../lib/price-book';
import { useSession } from '../../../lib/session';
import { useSiteConfig } from '../../../lib/site';
import { zodResolver } from '../../../lib/zod-resolver';
import { useStoreShipmentDates } from '../api/get-store-shipment-dates';
import { useSendStoreRequest } from '../api/send-store-request';
import { StoreOrdersToShip } from './store-orders-to-ship';

const SHIPPING_FIELDS = [
  { field: 'FirstName', label: 'First Name' },
  { field: 'LastName', label: 'Last Name' },
  { field: 'ShippingEmail', label: 'Shipping Email' },
  { field: 'Phone', label: 'Shipping Phone' },
  { field: 'Street', label: 'Street' },
  { field: 'City', label: 'City' },
  { field: 'State', label: 'State' },
  { field: 'ZipCode', label: 'Zip Code' },
  { field: 'Country', label: 'Country' },
] as const;
type ShippingField = (typeof SHIPPING_FIELDS)[number]['field'];

/** The store's words for its save boxes (spec 3, section 2). */
const SAVE_LABELS = {
  card: 'Save this credit card on file for future payments',
  ach: 'Save this ACH on file for future payments',
};

/** Typed text that is meant as a whole date: a four-digit year typed, or a character no date has. */
function typedAsWholeDate(text: string): boolean {
  const trimmed = text.trim();
  return /\d{4}$/.test(trimmed) || trimmed.length >= 10 || /[^\d/\-.\s]/.test(trimmed);
}
type Shipping = Record<ShippingField, string>;

/** The order's shipping fields from the client's record; with no phone stored, the bank's number (spec 3). */
function shippingOf(client: ClientRecord, bankPhone: string): Shipping {
  const [first = '', ...rest] = client.preferredAddressContactFullName.split(' ');
  const preferred = Boolean(client.preferredAddressStreet);
  return {
    FirstName: preferred && first ? first : client.firstName,
    LastName: preferred && rest.length > 0 ? rest.join(' ') : client.lastName,
    ShippingEmail: client.shippingClinicEmail || client.email,
    Phone: (preferred ? client.preferredAddressPhone : client.phone) || client.phone || bankPhone,
    Street: preferred ? client.preferredAddressStreet : client.street,
    City: preferred ? client.preferredAddressCity : client.city,
    State: preferred ? client.preferredAddressState : client.state,
    ZipCode: preferred ? client.preferredAddressZip : client.zip,
    Country: (preferred ? client.preferredAddressCountry : client.country) || 'United States',
  };
}

/** /store: Stem Cell Face Serum for the client (or the client a physician acts for), shipped by FedEx. */
export function StorePage() {
  const [done, setDone] = useState<SendStoreRequestResponse | null>(null);
  const client = useClient();
  const paymentInfo = usePaymentInfo();
  const site = useSiteConfig();
  const session = useSession().data;
  // The client's own orders (cancelled by the client only): below the confirmation, or the form.
  const ownOrders = session?.role === 'client';
  const noClientChosen = session?.role === 'physician' && !session.actingFor;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        ACT Store
      </Title>
      {noClientChosen ? (
        <NoClientChosen page="/store" purpose="to order serum for them" />
      ) : done ? (
        <Card withBorder padding="md" role="status">
          <Stack gap="xs">
            <Text fw={700} c="teal.9">
              {m.submitted}
            </Text>
            <Text data-testid="amount-charged">
              We charged {formatUsd(done.amountChargedCents)}
              {done.TransactionId ? ` (transaction ${done.TransactionId})` : ''} for {done.quantity} bottle
              {done.quantity === 1 ? '' : 's'} of {SERUM_NAME}.
            </Text>
          </Stack>
        </Card>
      ) : client.isError || paymentInfo.isError || site.isError ? (
        <Alert color="red" role="alert">
          The page could not be loaded. Please reload the page.
        </Alert>
      ) : !client.data || paymentInfo.isPending || !site.data ? (
        <LoadingSpinner label="Loading" />
      ) : (
        <StoreForm
          client={client.data}
          bankPhone={site.data.bank.phone}
          onDone={(response) => {
            setDone(response);
            window.scrollTo({ top: 0 });
          }}
        />
      )}
      {ownOrders && <StoreOrdersToShip />}
    </Stack>
  );
}

interface StoreValues extends Shipping {
  /** As typed: anything but a whole number is 0 bottles. */
  quantity: string;
  /** `YYYY-MM-DD`, or empty while nothing (or no date) is typed. */
  ShipmentDate: string;
  saveAddressForFuture: boolean;
  payment: PaymentChoice;
}

const chosenMethod = (payment: PaymentChoice) => (payment.method === 'Check' ? '' : payment.method);

/** The order as the schema judges it, the payment's token and display fields aside. */
function storeRequestOf(values: StoreValues): SendStoreRequestInput {
  const { quantity, payment, ...rest } = values;
  return {
    ...rest,
    Source: 'ACT Client Portal',
    stemskinserum: { name: SERUM_NAME, quantity: serumQuantityOf(quantity) },
    PaymentMethod: chosenMethod(payment) || undefined,
  } as SendStoreRequestInput;
}

/** The quantity's messages (the request's `stemskinserum`) go under the Quantity box. */
function withQuantity(fields: Record<string, string>): Record<string, string> {
  const { stemskinserum, ...rest } = fields;
  return stemskinserum ? { ...rest, quantity: stemskinserum } : rest;
}

const checkStoreRequest = zodResolver(sendStoreRequestSchema, storeRequestOf);

function StoreForm({
  client,
  bankPhone,
  onDone,
}: {
  client: ClientRecord;
  /** The phone of a client who has none on file. */
  bankPhone: string;
  onDone(response: SendStoreRequestResponse): void;
}) {
  const today = todayFor(new Date());
  const dates = useStoreShipmentDates({ from: today, to: addDays(today, 365) });
  // The server's earliest date and blackout list: the page offers only what the order may use.
  const earliest = dates.data?.earliest ?? storeEarliestShipmentDate(today);
  const blackoutDates = dates.data?.blackoutDates ?? [];
  const dateProblem = (iso: string) => storeShipmentDateProblem(iso, { earliest, blackoutDates });
  const session = useSession();
  const physician = session.data?.role === 'physician';
  const paymentInfo = usePaymentInfo();
  const book = usePriceBook();
  const send = useSendStoreRequest();
  const [dateText, setDateText] = useState('');

  const priceOf = (values: StoreValues) =>
    priceStoreOrder(
      book,
      serumQuantityOf(values.quantity),
      chosenMethod(values.payment) === 'Credit Card' ? 'card' : 'ach',
    );

  const form = usePayingForm<StoreValues, SendStoreRequestInput, SendStoreRequestResponse>({
    initialValues: {
      quantity: '1',
      ShipmentDate: '',
      ...shippingOf(client, bankPhone),
      saveAddressForFuture: false,
      payment: {
        ...initialPaymentChoice(false),
        method: paymentInfo.data?.Credit_Card_Number || physician ? 'Credit Card' : '',
      },
    },
    validate: (values) => {
      const problems = withQuantity(checkStoreRequest(values));
      if (values.ShipmentDate) {
        const problem = dateProblem(values.ShipmentDate);
        if (problem) problems.ShipmentDate = problem.message;
      } else if (dateText.trim()) {
        problems.ShipmentDate = shipmentDateMessages.invalid;
      }
      const quantityProblem = serumQuantityProblem(serumQuantityOf(values.quantity));
      if (quantityProblem) problems.quantity = quantityProblem;
      return problems;
    },
    payment: {
      choice: (values) => values.payment,
      onFile: methodsOnFileOf(paymentInfo.data ?? null),
      today,
      cardEmpty: {
        Credit_Card_Holder_First_Name: m.firstName,
        Credit_Card_Holder_Last_Name: m.lastName,
        Month_of_Expiry: m.cardEmpty,
        Year_of_Expiry: m.cardEmpty,
        CVV: m.cvv,
        Credit_Card_Biling_Email_Address: m.billingEmail,
      },
    },
    amount: (values) =>
      chosenMethod(values.payment) && !serumQuantityProblem(serumQuantityOf(values.quantity))
        ? priceOf(values).totalCents
        : null,
    request: storeRequestOf,
    send: (request, idempotencyKey) =>
      send.mutateAsync({ body: request as SendStoreRequestInput, idempotencyKey }),
    onSuccess: onDone,
    fieldsOnPage: (fields, values) => withQuantity(fieldsOnPage(fields, chosenMethod(values.payment))),
  });
  const { values, errors } = form;
  const quantity = serumQuantityOf(values.quantity);
  const method = chosenMethod(values.payment);
  const price = priceOf(values);
  const busy = form.submitting;

  const setQuantity = (next: number) => form.patch({ quantity: String(Math.max(0, next)) });

  // A date picked or typed: the rule's message under the field at once, the date kept to correct.
  const onDateChange = (value: string | null) => {
    const iso = value ?? '';
    form.patch({ ShipmentDate: iso });
    setDateText(iso ? isoToUsDate(iso) : '');
    const problem = iso ? dateProblem(iso) : null;
    form.setError('ShipmentDate', problem?.message ?? null);
  };

  // Text that is no date clears the date and, once typed in full, says "Invalid date" at once.
  const onDateTyped = (text: string) => {
    setDateText(text);
    if (usDateToIso(text.trim())) return;
    form.patch({ ShipmentDate: '' });
    form.setError('ShipmentDate', typedAsWholeDate(text) ? shipmentDateMessages.invalid : null);
  };

  const onDateBlur = () => {
    if (dateText.trim() && !usDateToIso(dateText.trim())) {
      form.setError('ShipmentDate', shipmentDateMessages.invalid);
    }
  };

  return (
    <form {...form.formProps} aria-label="ACT Store">
      <PayingFormLayout
        fields={
          <Stack gap="md">
            <Title order={2} size="h4">
              Stem Skin
            </Title>
            <Text>
              {SERUM_NAME}: {formatUsd(book.serumPrice)} per bottle, {formatUsd(book.serumBulkPrice)} per
              bottle if ordering {SERUM_BULK_FROM} or more.
            </Text>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <ActionIcon
                variant="default"
                size="lg"
                aria-label="One bottle less"
                onClick={() => setQuantity(quantity - 1)}
                disabled={busy || quantity === 0}
              >
                <IconMinus size={16} aria-hidden />
              </ActionIcon>
              <TextInput
                label="Quantity"
                {...form.form.getInputProps('quantity')}
                onBlur={() => form.patch({ quantity: String(quantity) })}
                inputMode="numeric"
                w={90}
                error={quantity > SERUM_MAX_BOTTLES ? m.tooManyBottles : errors.quantity}
                disabled={busy}
              />
              <ActionIcon
                variant="default"
                size="lg"
                aria-label="One bottle more"
                onClick={() => setQuantity(quantity + 1)}
                disabled={busy || quantity >= SERUM_MAX_BOTTLES}
              >
                <IconPlus size={16} aria-hidden />
              </ActionIcon>
            </Group>

            <Title order={2} size="h4">
              Shipping Method
            </Title>
            <Select label="Courier" data={['FedEx']} value="FedEx" disabled />
            <DatesProvider settings={{ consistentWeeks: true }}>
              <DateInput
                label="Shipment Arrival Date"
                placeholder="MM/DD/YYYY"
                valueFormat="MM/DD/YYYY"
                dateParser={(input) => {
                  onDateTyped(input);
                  return usDateToIso(input.trim());
                }}
                value={values.ShipmentDate || null}
                onChange={onDateChange}
                onBlur={onDateBlur}
                fixOnBlur={false}
                defaultDate={earliest}
                excludeDate={(date) => dateProblem(String(date).slice(0, 10)) !== null}
                required
                clearable
                clearButtonProps={{ 'aria-label': 'Clear Shipment Arrival Date' }}
                error={errors.ShipmentDate}
                disabled={busy || dates.isPending}
              />
            </DatesProvider>

            <Title order={2} size="h4">
              Shipping Information
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {SHIPPING_FIELDS.map(({ field, label }) => (
                <TextInput
                  key={field}
                  label={label}
                  {...form.form.getInputProps(field)}
                  required
                  disabled={busy}
                />
              ))}
            </SimpleGrid>
            <Checkbox
              label="Saved Addresses For Future"
              {...form.form.getInputProps('saveAddressForFuture', { type: 'checkbox' })}
              disabled={busy}
            />

            <Title order={2} size="h4">
              Payment Method
            </Title>
            <FormPaymentChoice
              methods={['Credit Card', 'ACH Payment']}
              value={values.payment}
              onChange={(next) => form.setPayment(next)}
              info={paymentInfo.data}
              errors={errors}
              today={today}
              disabled={busy}
              payer={physician ? 'physician' : 'client'}
              saveLabels={SAVE_LABELS}
            />
            <NoAchStoredNote
              payment={values.payment}
              achOnFile={Boolean(paymentInfo.data?.Account_Number)}
              physician={physician}
            />
          </Stack>
        }
        summary={<StoreSummary price={price} method={method} />}
        actions={
          <Stack gap="xs">
            <Group justify="flex-end">
              <Button type="submit" loading={busy} disabled={!form.ready}>
                {form.payLabel()}
              </Button>
            </Group>
            <SubmitFailure message={form.failure} />
          </Stack>
        }
      />
    </form>
  );
}

/** What the order costs: the bottles, shipping, the card fee, and the one total. */
function StoreSummary({ price, method }: { price: StorePrice; method: PaymentChoice['method'] }) {
  const book = usePriceBook();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="store-summary-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="store-summary-title">
          Order Summary
        </Title>
        <Table data-testid="order-summary">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Items</Table.Th>
              <Table.Th ta="right">Quantity</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {price.quantity > 0 && (
              <Table.Tr>
                <Table.Td>{SERUM_NAME}</Table.Td>
                <Table.Td ta="right">{price.quantity}</Table.Td>
                <Table.Td ta="right">{formatUsd(price.itemsCents)}</Table.Td>
              </Table.Tr>
            )}
            <Table.Tr>
              <Table.Td colSpan={2}>Shipping</Table.Td>
              <Table.Td ta="right">{formatUsd(price.shippingCents)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td colSpan={2}>
                Processing fee{method === 'Credit Card' ? ` (${cardFeePercent(book)})` : ''}
              </Table.Td>
              <Table.Td ta="right">{formatUsd(price.processingFeeCents)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th colSpan={2}>Total Price</Table.Th>
              <Table.Td ta="right" fw={700} data-testid="order-total">
                {formatUsd(price.totalCents)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
