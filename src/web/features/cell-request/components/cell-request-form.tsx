import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Grid,
  Group,
  Modal,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  type ShippingMethod,
  shipmentDateMessages,
  shipmentDateProblem,
} from '../../../../domain/carrier-calendar';
import {
  cellRequestCardEmptyMessages,
  cellRequestMessages as m,
  type SendCellRequestInput,
  type SendCellRequestResponse,
  sendCellRequestSchema,
  TISSUE_TYPES,
  tissueLabels,
} from '../../../../domain/cell-request';
import type { ClientRecord } from '../../../../domain/client';
import { addDays, isoToUsDate, usDateToIso } from '../../../../domain/dates';
import { FORM_PAYMENT_METHODS, methodsOnFileOf } from '../../../../domain/form-payment';
import { formatUsd } from '../../../../domain/money';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { VIALS_PER_REQUEST } from '../../../../domain/price-book';
import { type ResolvedAddress, shippingMessages } from '../../../../domain/shipping';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { FormPaymentChoice } from '../../../components/payment/form-payment-choice';
import { ApiError } from '../../../lib/api-client';
import { tokenizerFor } from '../../../lib/payment/card-tokenizer';
import { submissionFailureMessage } from '../../../lib/payment/failure-message';
import {
  checkPaymentChoice,
  fieldsOnPage,
  initialPaymentChoice,
  type PaymentChoice,
  paymentRequestFields,
} from '../../../lib/payment/payment-choice';
import { usePaymentConfig } from '../../../lib/payment/payment-config';
import { usePriceBook } from '../../../lib/price-book';
import { useClientVials } from '../api/get-client-vials';
import { useFedexShipQuote } from '../api/get-fedex-ship-quote';
import { useShipmentDates } from '../api/get-shipment-dates';
import { useSendCellRequest } from '../api/send-cell-request';
import { useVerifyAddress } from '../api/verify-address';
import { orderSummary } from '../lib/order-summary';
import { OrderSummaryPanel } from './order-summary-panel';

interface Address {
  firstName: string;
  lastName: string;
  ShippingEmail: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  country: string;
  ZipCode: string;
}

const ADDRESS_FIELDS: { field: keyof Address; label: string; autoComplete: string }[] = [
  { field: 'firstName', label: 'First Name', autoComplete: 'given-name' },
  { field: 'lastName', label: 'Last Name', autoComplete: 'family-name' },
  { field: 'ShippingEmail', label: 'Shipping Email', autoComplete: 'email' },
  { field: 'phone', label: 'Phone', autoComplete: 'tel' },
  { field: 'street', label: 'Street', autoComplete: 'street-address' },
  { field: 'city', label: 'City', autoComplete: 'address-level2' },
  { field: 'state', label: 'State', autoComplete: 'address-level1' },
  { field: 'ZipCode', label: 'Zip Code', autoComplete: 'postal-code' },
  { field: 'country', label: 'Country', autoComplete: 'country-name' },
];

const emptyAddress: Address = {
  firstName: '',
  lastName: '',
  ShippingEmail: '',
  phone: '',
  street: '',
  city: '',
  state: '',
  country: 'United States',
  ZipCode: '',
};

function preferredAddressOf(client: ClientRecord): Address {
  // The record keeps one full name: the last word is the last name, the rest the first name.
  const words = client.preferredAddressContactFullName.trim().split(/\s+/).filter(Boolean);
  return {
    firstName: words.slice(0, -1).join(' ') || (words[0] ?? ''),
    lastName: words.length > 1 ? (words.at(-1) ?? '') : '',
    ShippingEmail: client.shippingClinicEmail,
    phone: client.preferredAddressPhone.replace(/\D/g, ''),
    street: client.preferredAddressStreet,
    city: client.preferredAddressCity,
    state: client.preferredAddressState,
    country: client.preferredAddressCountry,
    ZipCode: client.preferredAddressZip,
  };
}

function hasPreferredAddress(client: ClientRecord): boolean {
  return Boolean(client.preferredAddressStreet && client.preferredAddressCity);
}

const newKey = () => crypto.randomUUID();

/** The fields of the payment choice whose messages a new choice clears. */
const PAYMENT_FIELDS = [
  'PaymentMethod',
  'update_card',
  'update_ach',
  'Credit_Card_Number',
  'Credit_Card_Type',
  'CVV',
  'Month_of_Expiry',
  'Year_of_Expiry',
  'Credit_Card_Holder_First_Name',
  'Credit_Card_Holder_Last_Name',
  'Credit_Card_Biling_Email_Address',
  'Country',
  'Credit_Card_Billing_Street',
  'Credit_Card_Billing_City',
  'Credit_Card_Billing_State',
  'Credit_Card_Billing_Zip_Code',
  'Name_On_Account',
  'Account_Number',
  'ABA_Routing_Number',
];

/** The request form pays by card or ACH (spec 3): the saved one, or another entered here. */
const REQUEST_PAYMENT_METHODS = FORM_PAYMENT_METHODS.filter((method) => method !== 'Check');

/** A submission as sent: a retry of the same key must send the same body (one token, one charge). */
interface Sent {
  key: string;
  /** What the client had chosen, card numbers included, to tell a retry from a changed form. */
  form: string;
  body: SendCellRequestInput;
}

/** The Stem Cell Request Form itself, for a client whose consent is signed and who has a method on file. */
export function CellRequestForm({
  client,
  paymentInfo,
  clientId,
  today,
  onSubmitted,
}: {
  client: ClientRecord;
  paymentInfo: PaymentInfo;
  clientId: string;
  today: string;
  onSubmitted(response: SendCellRequestResponse): void;
}) {
  const onFile = methodsOnFileOf(paymentInfo);
  const config = usePaymentConfig();
  const book = usePriceBook();
  const preferred = hasPreferredAddress(client);
  const [shipTo, setShipTo] = useState<'Preferred' | 'New'>(preferred ? 'Preferred' : 'New');
  const [address, setAddress] = useState<Address>(preferred ? preferredAddressOf(client) : emptyAddress);
  const [clinicName, setClinicName] = useState(client.clinicName);
  const [saveAddress, setSaveAddress] = useState(false);
  const [verified, setVerified] = useState(false);
  const [addressNotice, setAddressNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [suggestion, setSuggestion] = useState<ResolvedAddress | null>(null);
  const [shippingCents, setShippingCents] = useState<number | null>(null);
  const [tissue, setTissue] = useState<string | null>(null);
  const [disease, setDisease] = useState('');
  const [diseaseName, setDiseaseName] = useState('');
  const [vials, setVials] = useState<string | null>(null);
  const [cpp, setCpp] = useState('');
  const [method, setMethod] = useState<ShippingMethod>('FedEx');
  const [shipmentDate, setShipmentDate] = useState('');
  const [typedDate, setTypedDate] = useState('');
  // The saved card by default, else the saved account (spec 3: "shows the saved card or saved ACH").
  const [payment, setPayment] = useState<PaymentChoice>(() => ({
    ...initialPaymentChoice(false),
    method: onFile.card ? 'Credit Card' : onFile.ach ? 'ACH Payment' : '',
  }));
  const [tokenizing, setTokenizing] = useState(false);
  const sentRef = useRef<Sent | null>(null);
  const [authorize, setAuthorize] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const keyRef = useRef(newKey());
  const formRef = useRef<HTMLFormElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  const vialCount = vials ? Number(vials) : 0;
  const clientVials = useClientVials(clientId, vialCount);
  const range = useMemo(() => ({ from: today, to: addDays(today, 365) }), [today]);
  const dates = useShipmentDates(clientId, range, method, vialCount || 1);
  const allowed = useMemo(() => new Set(dates.data?.dates ?? []), [dates.data]);
  const verify = useVerifyAddress();
  const quote = useFedexShipQuote();
  const send = useSendCellRequest();
  const submitting = send.isPending || tokenizing;
  const busy = submitting || verify.isPending || quote.isPending;

  const summary =
    vialCount > 0 && clientVials.data
      ? orderSummary(book, {
          vials: vialCount,
          prePaidVials: clientVials.data.PrePaidVials,
          payableVialsCents: clientVials.data.PayableAmountCents,
          cpp: cpp === 'Yes',
          shippingCents,
          actVip: method === 'ACT VIP',
          card: payment.method === 'Credit Card',
        })
      : null;

  const clearError = (field: string) => setErrors(({ [field]: _, ...rest }) => rest);
  const clearAddressErrors = () =>
    setErrors((current) =>
      Object.fromEntries(
        Object.entries(current).filter(([field]) => !ADDRESS_FIELDS.some((f) => f.field === field)),
      ),
    );
  const addressChanged = () => {
    setVerified(false);
    setShippingCents(null);
    setAddressNotice(null);
  };
  const setField = (field: keyof Address, value: string) => {
    setAddress((a) => ({ ...a, [field]: value }));
    clearError(field);
    addressChanged();
  };
  const chooseShipTo = (value: string) => {
    const choice = value === 'Preferred' ? 'Preferred' : 'New';
    setShipTo(choice);
    setAddress(choice === 'Preferred' ? preferredAddressOf(client) : emptyAddress);
    clearAddressErrors();
    addressChanged();
  };

  const carrierRequest = (a: Address) => ({
    Country: a.country,
    Street: a.street,
    City: a.city,
    State: a.state,
    ZipCode: a.ZipCode,
    Phone: a.phone,
    firstName: a.firstName,
    lastName: a.lastName,
  });

  const addressProblems = (): Record<string, string> => {
    const problems: Record<string, string> = {};
    const messages: Partial<Record<keyof Address, string>> = {
      country: m.country,
      state: m.state,
      ZipCode: m.zipCode,
      city: m.city,
      street: m.street,
      firstName: m.firstName,
      lastName: m.lastName,
      phone: m.phone,
    };
    for (const [field, message] of Object.entries(messages)) {
      if (!address[field as keyof Address].trim()) problems[field] = message as string;
    }
    if (address.phone && !/^\d+$/.test(address.phone)) problems.phone = m.phoneNumeric;
    return problems;
  };

  const requestQuote = async (a: Address) => {
    if (method === 'ACT VIP') return;
    try {
      const answer = await quote.mutateAsync({ ...carrierRequest(a), shipping_method: 'FedEx' });
      setShippingCents(answer.ShippingFeeChargedCents);
    } catch (error) {
      setShippingCents(null);
      setAddressNotice({
        ok: false,
        text: error instanceof ApiError ? error.message : shippingMessages.quoteFailed,
      });
    }
  };

  const onVerify = async () => {
    const problems = addressProblems();
    if (Object.keys(problems).length > 0) {
      setErrors((e) => ({ ...e, ...problems }));
      focusFirstInvalid(formRef.current);
      return;
    }
    setAddressNotice(null);
    try {
      const answer = await verify.mutateAsync(carrierRequest(address));
      const resolved = answer.output.resolvedAddresses[0];
      if (answer.AddressFedExVerified || !resolved) {
        setVerified(true);
        setAddressNotice({ ok: true, text: shippingMessages.addressVerified });
        await requestQuote(address);
      } else {
        setSuggestion(resolved);
      }
    } catch (error) {
      setAddressNotice({
        ok: false,
        text: error instanceof ApiError ? error.message : shippingMessages.addressFailed,
      });
    }
  };

  const acceptSuggestion = async () => {
    if (!suggestion) return;
    const next = {
      ...address,
      street: suggestion.streetLinesToken.join(' '),
      city: suggestion.city,
      state: suggestion.stateOrProvinceCode,
      ZipCode: suggestion.postalCode,
    };
    setAddress(next);
    clearAddressErrors();
    setSuggestion(null);
    setVerified(true);
    setAddressNotice({ ok: true, text: shippingMessages.addressVerified });
    await requestQuote(next);
  };

  const bypassSuggestion = async () => {
    setSuggestion(null);
    setVerified(false);
    await requestQuote(address);
  };

  const chooseMethod = (value: string) => {
    const next = value === 'ACT VIP' ? 'ACT VIP' : 'FedEx';
    setMethod(next);
    setShippingCents(null);
    if (shipmentDate) checkDate(shipmentDate, next);
  };

  const checkDate = (iso: string, shipping: ShippingMethod = method) => {
    const problem = shipmentDateProblem(iso, { method: shipping, earliest: dates.data?.earliest });
    const notOffered = !problem && dates.data && shipping === 'FedEx' && !allowed.has(iso);
    if (problem || notOffered) {
      setErrors((e) => ({ ...e, ShipmentDate: problem?.message ?? shipmentDateMessages.blackout }));
      // The spec clears a date that is too early.
      if (problem?.reason === 'tooEarly') setShipmentDate('');
      return false;
    }
    clearError('ShipmentDate');
    return true;
  };

  const onDateChange = (value: string | null) => {
    const iso = value ?? '';
    setShipmentDate(iso);
    if (iso) checkDate(iso);
    else clearError('ShipmentDate');
  };

  const onDateBlur = () => {
    if (typedDate.trim() && !usDateToIso(typedDate.trim())) {
      setErrors((e) => ({ ...e, ShipmentDate: shipmentDateMessages.invalid }));
    }
  };

  const body = (): SendCellRequestInput =>
    ({
      NumberOfVials: vialCount || undefined,
      CPP: cpp || undefined,
      shipping_method: method,
      ShipmentDate: shipmentDate,
      ShippingInfo: shipTo,
      saveAddressForFuture: saveAddress,
      AddressFedExVerified: verified,
      clinicName,
      ...address,
      Tissue_Info: tissue ?? undefined,
      Infectious_Disease: disease || undefined,
      Infectious_Disease_Name: diseaseName,
      authorize,
      PaymentMethod: payment.method === 'Check' ? undefined : payment.method || undefined,
      ...(summary?.totalCents != null ? { expectedTotalCents: summary.totalCents } : {}),
    }) as SendCellRequestInput;

  const showServerError = (message: string) => {
    setServerError(message);
    requestAnimationFrame(() => errorRef.current?.scrollIntoView({ block: 'center' }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setServerError(null);
    const request = body();
    const checked = sendCellRequestSchema.safeParse(request);
    const problems: Record<string, string> = {};
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? 'form');
        problems[field] ??= issue.message;
      }
    }
    const checkedPayment = checkPaymentChoice(payment, onFile, today, cellRequestCardEmptyMessages);
    Object.assign(problems, checkedPayment.problems);
    if (shipTo === 'Preferred' && !address.ShippingEmail) problems.ShippingEmail = m.savedAddressEmail;
    if (shipmentDate && !problems.ShipmentDate && errors.ShipmentDate)
      problems.ShipmentDate = errors.ShipmentDate;
    if (method === 'FedEx' && shippingCents === null && !problems.street) {
      problems.shipping = shippingMessages.shippingAmountFailed;
    }
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      focusFirstInvalid(formRef.current);
      if (problems.shipping && Object.keys(problems).length === 1) showServerError(problems.shipping);
      return;
    }
    const payMethod = payment.method;
    if (!payMethod || !config.data) return;
    // The same key again (after no answer) resends the same body; a changed form is a new submission.
    const form = JSON.stringify({ request, payment });
    if (sentRef.current && (sentRef.current.key !== keyRef.current || sentRef.current.form !== form)) {
      keyRef.current = newKey();
      sentRef.current = null;
    }
    const idempotencyKey = keyRef.current;
    try {
      let sent = sentRef.current;
      if (!sent) {
        setTokenizing(true);
        const paymentFields = await paymentRequestFields(
          payMethod,
          checkedPayment,
          payment,
          tokenizerFor(config.data),
        ).finally(() => setTokenizing(false));
        sent = { key: idempotencyKey, form, body: { ...request, ...paymentFields } as SendCellRequestInput };
        sentRef.current = sent;
      }
      const response = await send.mutateAsync({ body: sent.body, idempotencyKey });
      onSubmitted(response);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : null;
      // A refused submission is final for its key: the next press is a new submission. Without an
      // answer (a network failure, 503) the next press repeats this one, charged at most once.
      if (apiError && apiError.status !== 503) {
        keyRef.current = newKey();
        sentRef.current = null;
      }
      if (apiError?.fields) setErrors((e) => ({ ...e, ...fieldsOnPage(apiError.fields, payMethod) }));
      if (apiError?.code === 'AMOUNT_CHANGED') {
        void clientVials.refetch();
        if (method === 'FedEx') void requestQuote(address);
      }
      showServerError(apiError ? apiError.message : submissionFailureMessage(error));
    }
  };

  const fieldProps = (field: string) => ({
    error: errors[field],
    'aria-invalid': Boolean(errors[field]) || undefined,
    disabled: busy,
  });

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Stem Cell Request Form">
          <Stack gap="lg">
            <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
              <Title order={2} size="h4" component="legend">
                Shipping Information
              </Title>
              {preferred && (
                <Radio.Group
                  label="Shipping address"
                  value={shipTo}
                  onChange={chooseShipTo}
                  error={errors.ShippingInfo}
                >
                  <Group mt="xs">
                    <Radio value="Preferred" label="Preferred Shipping to Medical Professional" />
                    <Radio value="New" label="A new address" />
                  </Group>
                </Radio.Group>
              )}
              <TextInput
                label="Clinic Name"
                value={clinicName}
                maxLength={100}
                onChange={(e) => {
                  setClinicName(e.currentTarget.value);
                  clearError('clinicName');
                }}
                {...fieldProps('clinicName')}
              />
              <Grid gap="sm">
                {ADDRESS_FIELDS.map(({ field, label, autoComplete }) => (
                  <Grid.Col key={field} span={{ base: 12, sm: 6 }}>
                    <TextInput
                      label={label}
                      name={field}
                      required
                      autoComplete={autoComplete}
                      type={field === 'phone' ? 'tel' : undefined}
                      value={address[field]}
                      onChange={(e) => setField(field, e.currentTarget.value)}
                      {...fieldProps(field)}
                    />
                  </Grid.Col>
                ))}
              </Grid>
              <Checkbox
                label="Save this address for future requests"
                checked={saveAddress}
                onChange={(e) => setSaveAddress(e.currentTarget.checked)}
                disabled={busy}
              />
              <Group>
                <Button variant="light" onClick={onVerify} loading={verify.isPending || quote.isPending}>
                  Verify address
                </Button>
                {verified && <Text size="sm">FedEx verified</Text>}
              </Group>
              {addressNotice && (
                <Text
                  size="sm"
                  c={addressNotice.ok ? 'green.9' : 'red.8'}
                  role={addressNotice.ok ? 'status' : 'alert'}
                >
                  {addressNotice.text}
                </Text>
              )}
              {errors.shipping && (
                <Text size="sm" c="red.8" role="alert">
                  {errors.shipping}
                </Text>
              )}
            </Stack>

            <Stack gap="sm">
              <Title order={2} size="h4">
                Order
              </Title>
              <Select
                label="Sample Type"
                placeholder="Select"
                data={TISSUE_TYPES.map((t) => ({ value: t, label: tissueLabels[t] }))}
                value={tissue}
                onChange={(v) => {
                  setTissue(v);
                  clearError('Tissue_Info');
                }}
                {...fieldProps('Tissue_Info')}
              />
              <Radio.Group
                label="Infectious Disease"
                value={disease}
                onChange={(v) => {
                  setDisease(v);
                  clearError('Infectious_Disease');
                }}
                error={errors.Infectious_Disease}
              >
                <Group mt="xs">
                  <Radio value="not treated" label="Not treated for an infectious disease" />
                  <Radio value="treated" label="Treated for an infectious disease" />
                </Group>
              </Radio.Group>
              {disease === 'treated' && (
                <TextInput
                  label="Name of the infectious disease"
                  value={diseaseName}
                  maxLength={200}
                  onChange={(e) => {
                    setDiseaseName(e.currentTarget.value);
                    clearError('Infectious_Disease_Name');
                  }}
                  {...fieldProps('Infectious_Disease_Name')}
                />
              )}
              <Select
                label="Number of Vials"
                placeholder="Select"
                data={Array.from({ length: VIALS_PER_REQUEST.max }, (_, i) => String(i + 1))}
                value={vials}
                onChange={(v) => {
                  setVials(v);
                  clearError('NumberOfVials');
                }}
                {...fieldProps('NumberOfVials')}
              />
              <Text size="sm">
                {formatUsd(book.vialPrice)} per vial (10 million cells); your pre-paid vials are used first.
                The Cell Protection Plan costs {formatUsd(book.cppPerVial)} per vial and replaces cells lost
                or delayed past 72 hours.
              </Text>
              <Radio.Group
                label="Cell Protection Plan (CPP)"
                value={cpp}
                onChange={(v) => {
                  setCpp(v);
                  clearError('CPP');
                }}
                error={errors.CPP}
              >
                <Group mt="xs">
                  <Radio value="Yes" label="Yes" />
                  <Radio value="No" label="No" />
                </Group>
              </Radio.Group>
              <Radio.Group
                label="Shipping Method"
                value={method}
                onChange={chooseMethod}
                error={errors.shipping_method}
              >
                <Group mt="xs">
                  <Radio value="FedEx" label="FedEx" />
                  <Radio value="ACT VIP" label="ACT VIP" />
                </Group>
              </Radio.Group>
              <Text size="sm">{m.vipNote}</Text>
              {dates.data && (
                <Text size="sm">The earliest arrival date is {isoToUsDate(dates.data.earliest)}.</Text>
              )}
              <DatesProvider settings={{ locale: 'en', firstDayOfWeek: 0 }}>
                <DateInput
                  label="Shipment Date"
                  placeholder="MM/DD/YYYY"
                  valueFormat="MM/DD/YYYY"
                  dateParser={(input) => {
                    setTypedDate(input);
                    return usDateToIso(input);
                  }}
                  value={shipmentDate || null}
                  onChange={onDateChange}
                  onBlur={onDateBlur}
                  excludeDate={(date) => Boolean(dates.data) && !allowed.has(String(date).slice(0, 10))}
                  defaultDate={dates.data?.earliest}
                  required
                  clearable
                  clearButtonProps={{ 'aria-label': 'Clear Shipment Date' }}
                  popoverProps={{ withinPortal: true }}
                  {...fieldProps('ShipmentDate')}
                />
              </DatesProvider>
            </Stack>

            <Stack gap="sm">
              <Title order={2} size="h4">
                Payment
              </Title>
              <FormPaymentChoice
                methods={REQUEST_PAYMENT_METHODS}
                value={payment}
                onChange={(next) => {
                  setPayment(next);
                  setErrors((current) => {
                    // A changed choice drops the payment messages it answered.
                    const kept = { ...current };
                    for (const field of PAYMENT_FIELDS) delete kept[field];
                    return kept;
                  });
                }}
                info={paymentInfo}
                errors={errors}
                today={today}
                disabled={submitting}
              />
              {!onFile.ach && (
                <Text size="sm">
                  To pay by ACH,{' '}
                  <Anchor component={Link} to="/payment-information">
                    store your ACH details on the payment information page
                  </Anchor>
                  .
                </Text>
              )}
              <Text size="sm">A 3% processing fee applies to card payments; ACH has none.</Text>
              <Text size="sm">{m.cancellationPolicy}</Text>
              <Checkbox
                label={`I authorize ACT to charge the total of this order to the payment method above${summary?.totalCents != null ? ` (${formatUsd(summary.totalCents)})` : ''}.`}
                checked={authorize}
                onChange={(e) => {
                  setAuthorize(e.currentTarget.checked);
                  clearError('authorize');
                }}
                {...fieldProps('authorize')}
              />
            </Stack>

            {serverError && (
              <Alert color="red" role="alert" ref={errorRef} title="The request was not sent">
                {serverError}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={submitting} disabled={busy && !submitting}>
                {summary?.totalCents != null ? `Submit and pay ${formatUsd(summary.totalCents)}` : 'Submit'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <OrderSummaryPanel summary={summary} />
      </Grid.Col>

      <Modal
        opened={suggestion !== null}
        onClose={() => setSuggestion(null)}
        title="FedEx suggests a standardized address"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        {suggestion && (
          <Stack>
            <Text size="sm">{shippingMessages.addressSuggested}</Text>
            <Text fw={600} data-testid="suggested-address">
              {suggestion.streetLinesToken.join(' ')}, {suggestion.city}, {suggestion.stateOrProvinceCode}{' '}
              {suggestion.postalCode}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={bypassSuggestion}>
                Bypass Suggestion
              </Button>
              <Button onClick={acceptSuggestion}>Accept Suggestion</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Grid>
  );
}
