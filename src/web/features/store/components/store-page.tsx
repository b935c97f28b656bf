import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
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
import { DateInput, DatesProvider } from '@mantine/dates';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { shipmentDateMessages, storeEarliestShipmentDate } from '../../../../domain/carrier-calendar';
import { type ClientRecord, todayFor } from '../../../../domain/client';
import { addDays, isoToUsDate, usDateToIso } from '../../../../domain/dates';
import { fieldMessages } from '../../../../domain/errors';
import { methodsOnFileOf } from '../../../../domain/form-payment';
import { formatUsd } from '../../../../domain/money';
import { cardFeePercent } from '../../../../domain/payments';
import {
  storeMessages as m,
  priceStoreOrder,
  SERUM_MAX_BOTTLES,
  SERUM_NAME,
  type SendStoreRequestInput,
  type SendStoreRequestResponse,
  sendStoreRequestSchema,
  serumQuantityOf,
  serumQuantityProblem,
  storeShipmentDateProblem,
} from '../../../../domain/store';
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
import { useSession } from '../../../lib/session';
import { useStoreShipmentDates } from '../api/get-store-shipment-dates';
import { useSendStoreRequest } from '../api/send-store-request';

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

function shippingOf(client: ClientRecord): Shipping {
  const [first = '', ...rest] = client.preferredAddressContactFullName.split(' ');
  const preferred = Boolean(client.preferredAddressStreet);
  return {
    FirstName: preferred && first ? first : client.firstName,
    LastName: preferred && rest.length > 0 ? rest.join(' ') : client.lastName,
    ShippingEmail: client.shippingClinicEmail || client.email,
    Phone: (preferred ? client.preferredAddressPhone : client.phone) || client.phone,
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
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        ACT Store
      </Title>
      {done ? (
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
      ) : client.isError || paymentInfo.isError ? (
        <Alert color="red" role="alert">
          The page could not be loaded. Please reload the page.
        </Alert>
      ) : !client.data || paymentInfo.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <StoreForm
          client={client.data}
          onDone={(response) => {
            setDone(response);
            window.scrollTo({ top: 0 });
          }}
        />
      )}
    </Stack>
  );
}

function StoreForm({
  client,
  onDone,
}: {
  client: ClientRecord;
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
  const config = usePaymentConfig();
  const book = usePriceBook();
  const send = useSendStoreRequest();
  const [quantityText, setQuantityText] = useState('1');
  const quantity = serumQuantityOf(quantityText);
  const [shipmentDate, setShipmentDate] = useState('');
  const [dateText, setDateText] = useState('');
  const [shipping, setShipping] = useState<Shipping>(() => shippingOf(client));
  const [saveAddress, setSaveAddress] = useState(false);
  const [payment, setPayment] = useState<PaymentChoice>(() => ({
    ...initialPaymentChoice(false),
    method: paymentInfo.data?.Credit_Card_Number || physician ? 'Credit Card' : '',
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const submitting = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const method = payment.method === 'Check' ? '' : payment.method;
  const price = priceStoreOrder(book, quantity, method === 'Credit Card' ? 'card' : 'ach');
  const busy = send.isPending;

  const setQuantity = (next: number) => setQuantityText(String(Math.max(0, next)));
  const clearError = (field: string) => setErrors(({ [field]: _, ...rest }) => rest);

  const showDateError = (message: string) => setErrors((e) => ({ ...e, ShipmentDate: message }));

  // A date picked or typed: the rule's message under the field at once, the date kept to correct.
  const onDateChange = (value: string | null) => {
    const iso = value ?? '';
    setShipmentDate(iso);
    setDateText(iso ? isoToUsDate(iso) : '');
    const problem = iso ? dateProblem(iso) : null;
    if (problem) showDateError(problem.message);
    else clearError('ShipmentDate');
  };

  // Text that is no date clears the date and, once typed in full, says "Invalid date" at once.
  const onDateTyped = (text: string) => {
    setDateText(text);
    if (usDateToIso(text.trim())) return;
    setShipmentDate('');
    if (typedAsWholeDate(text)) showDateError(shipmentDateMessages.invalid);
    else clearError('ShipmentDate');
  };

  const onDateBlur = () => {
    if (dateText.trim() && !usDateToIso(dateText.trim())) showDateError(shipmentDateMessages.invalid);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting.current || !config.data) return;
    const body = {
      Source: 'ACT Client Portal',
      stemskinserum: { name: SERUM_NAME, quantity },
      ShipmentDate: shipmentDate,
      ...shipping,
      saveAddressForFuture: saveAddress,
      PaymentMethod: method || undefined,
    };
    const parsed = sendStoreRequestSchema.safeParse(body);
    const checked = checkPaymentChoice(payment, methodsOnFileOf(paymentInfo.data ?? null), today, {
      Credit_Card_Holder_First_Name: m.firstName,
      Credit_Card_Holder_Last_Name: m.lastName,
      Month_of_Expiry: m.cardEmpty,
      Year_of_Expiry: m.cardEmpty,
      CVV: m.cvv,
      Credit_Card_Biling_Email_Address: m.billingEmail,
    });
    const problems: Record<string, string> = {
      ...(parsed.success ? {} : fieldMessages(parsed.error)),
      ...checked.problems,
    };
    if (shipmentDate) {
      const problem = dateProblem(shipmentDate);
      if (problem) problems.ShipmentDate = problem.message;
    } else if (dateText.trim()) {
      problems.ShipmentDate = shipmentDateMessages.invalid;
    }
    const quantityProblem = serumQuantityProblem(quantity);
    if (quantityProblem) problems.quantity = quantityProblem;
    if (Object.keys(problems).length > 0 || !method || !parsed.success) {
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
        buildRequest: async () =>
          ({
            ...body,
            ...(await paymentRequestFields(method, checked, payment, tokenizer)),
            PaymentMethod: method,
            expectedTotalCents: price.totalCents,
          }) as SendStoreRequestInput,
      });
      onDone(response);
    } catch (error) {
      const { stemskinserum, ...fields } =
        error instanceof ApiError ? fieldsOnPage(error.fields, method) : {};
      setErrors(stemskinserum ? { ...fields, quantity: stemskinserum } : fields);
      setFailure(submissionFailureMessage(error));
    } finally {
      submitting.current = false;
    }
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="ACT Store">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            {failure && (
              <Text c="red.9" fw={600} role="alert">
                {failure}
              </Text>
            )}
            <Title order={2} size="h4">
              Stem Skin
            </Title>
            <Text>{SERUM_NAME}: $225 per bottle, $200 per bottle if ordering 11 or more.</Text>
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
                value={quantityText}
                onChange={(e) => {
                  setQuantityText(e.currentTarget.value);
                  clearError('quantity');
                }}
                onBlur={() => setQuantityText(String(quantity))}
                inputMode="numeric"
                w={90}
                error={quantity > SERUM_MAX_BOTTLES ? m.tooManyBottles : errors.quantity}
                disabled={busy}
              />
              <ActionIcon
                variant="default"
                size="lg"
                aria-label="One bottle more"
                onClick={() => {
                  setQuantity(quantity + 1);
                  clearError('quantity');
                }}
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
                value={shipmentDate || null}
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
                  value={shipping[field]}
                  onChange={(e) => {
                    const value = e.currentTarget.value;
                    setShipping((s) => ({ ...s, [field]: value }));
                    clearError(field);
                  }}
                  error={errors[field]}
                  required
                  disabled={busy}
                />
              ))}
            </SimpleGrid>
            <Checkbox
              label="Saved Addresses For Future"
              checked={saveAddress}
              onChange={(e) => setSaveAddress(e.currentTarget.checked)}
              disabled={busy}
            />

            <Title order={2} size="h4">
              Payment Method
            </Title>
            <FormPaymentChoice
              methods={['Credit Card', 'ACH Payment']}
              value={payment}
              onChange={(value) => {
                setPayment(value);
                setFailure(null);
              }}
              info={paymentInfo.data}
              errors={errors}
              today={today}
              disabled={busy}
              payer={physician ? 'physician' : 'client'}
              saveLabels={SAVE_LABELS}
            />
            {payment.method === 'ACH Payment' && !paymentInfo.data?.Account_Number && (
              <Text size="sm" data-testid="no-ach-stored">
                Please store your ACH Details in the{' '}
                {physician ? (
                  'update payment information tab'
                ) : (
                  <Anchor component={Link} to="/payment-information">
                    update payment information tab
                  </Anchor>
                )}{' '}
                to use ACH Payment Method.
              </Text>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={busy} disabled={!config.data}>
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
        <Grid.Col span={{ base: 12, md: 5 }}>
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
                  {quantity > 0 && (
                    <Table.Tr>
                      <Table.Td>{SERUM_NAME}</Table.Td>
                      <Table.Td ta="right">{quantity}</Table.Td>
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
        </Grid.Col>
      </Grid>
    </form>
  );
}
