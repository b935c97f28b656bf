import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { todayFor } from '../../../../domain/client';
import {
  type AmountDue,
  type ClientVerificationRequest,
  clientVerificationSchema,
  verificationMessages as v,
} from '../../../../domain/client-verification';
import { isoToUsDate } from '../../../../domain/dates';
import { fieldMessages } from '../../../../domain/errors';
import { formatUsd } from '../../../../domain/money';
import {
  achFormSchema,
  cardFeePercent,
  cardFormSchema,
  cardProcessingFee,
} from '../../../../domain/payments';
import type { PriceBook } from '../../../../domain/price-book';
import { DateOfBirthInput } from '../../../components/date-of-birth-input';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
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
import { tokenizerFor } from '../../../lib/payment/card-tokenizer';
import { submissionFailureMessage } from '../../../lib/payment/failure-message';
import { usePaymentConfig } from '../../../lib/payment/payment-config';
import { priceBookQueryKey, usePriceBook } from '../../../lib/price-book';
import { usePublicPaymentSave, useVerifyClient } from '../api/public-payment';

type Mode = 'id' | 'contact' | '';
const emptyIdentity = {
  ClientId: '',
  ClientLastname: '',
  ClientFirstName: '',
  Clientlastname: '',
  ClientEmail: '',
  ClientDob: '',
};

/**
 * The public single-payment page reached from an e-mailed (`email`) or texted (`sms`) link. The
 * visitor identifies the client, then saves a card or bank account for overdue and future annual
 * storage fees. A signed link (`?t=`) identifies the client without the form.
 */
export function PublicPaymentPage({ page }: { page: 'email' | 'sms' }) {
  const today = todayFor(new Date());
  const config = usePaymentConfig();
  const book = usePriceBook();
  const verifyClient = useVerifyClient();
  const save = usePublicPaymentSave();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>('');
  const [identity, setIdentity] = useState(emptyIdentity);
  const [verification, setVerification] = useState<string | null>(null);
  const [byLink, setByLink] = useState(false);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const [method, setMethod] = useState<'card' | 'ach' | ''>(page === 'email' ? 'card' : '');
  const [card, setCard] = useState<CardFormValues>(emptyCard);
  const [ach, setAch] = useState<AchFormValues>(emptyAch);
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<{ message: string; charged: string | null } | null>(null);
  const [amountDue, setAmountDue] = useState<AmountDue | null>(null);
  const [working, setWorking] = useState(false);
  /** The server refused the total shown (409): the figures were read again, and the page says so. */
  const [amountChanged, setAmountChanged] = useState(false);
  const linkChecked = useRef(false);
  /** The confirmation that read the amount due, to read it again if the server says it changed. */
  const confirmedBy = useRef<ClientVerificationRequest | null>(null);

  // A signed link identifies the client; it is then taken out of the address bar.
  useEffect(() => {
    if (linkChecked.current) return;
    linkChecked.current = true;
    const token = new URLSearchParams(window.location.search).get('t');
    if (!token) return;
    window.history.replaceState(null, '', window.location.pathname);
    const request = { mode: 'link' as const, t: token };
    verifyClient.mutate(request, {
      onSuccess: (data) => {
        confirmedBy.current = request;
        setVerification(data.verification);
        setAmountDue(data.amountDue);
        setByLink(true);
      },
      onError: (error) => setVerifyError(error.message),
    });
  }, [verifyClient]);

  const setField = (field: keyof typeof emptyIdentity) => (value: string) =>
    setIdentity((i) => ({ ...i, [field]: value }));

  const onConfirm = () => {
    setVerifyError(null);
    if (!mode) {
      setErrors({ mode: v.chooseOption });
      return;
    }
    const candidate =
      mode === 'id'
        ? { mode, ClientId: identity.ClientId, ClientLastname: identity.ClientLastname }
        : {
            mode,
            ClientFirstName: identity.ClientFirstName,
            Clientlastname: identity.Clientlastname,
            ClientEmail: identity.ClientEmail,
            ClientDob: identity.ClientDob ? isoToUsDate(identity.ClientDob) : '',
          };
    const parsed = clientVerificationSchema(today).safeParse(candidate);
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      return;
    }
    setErrors({});
    const request = parsed.data;
    verifyClient.mutate(request, {
      onSuccess: (data) => {
        confirmedBy.current = request;
        setVerification(data.verification);
        setAmountDue(data.amountDue);
      },
      onError: (error) => {
        setIdentity(emptyIdentity);
        setVerifyError(error.message);
        if (error instanceof ApiError && error.fields.verify) setErrors({ verify: error.fields.verify });
      },
    });
  };

  const onCancel = () => {
    setCard(emptyCard);
    setAch(emptyAch);
    setAgree(false);
    setErrors({});
    setFailure(null);
    setAmountChanged(false);
  };

  const onSave = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (working || !config.data) return;
    const form = event.currentTarget;
    const found: Record<string, string> = {};
    if (!verification && !mode) found.mode = v.chooseOption;
    if (!verification) found.verify = v.confirmFirst;
    if (!method) found.method = v.chooseMethod;
    if (!agree) found.agree = v.agree;
    const parsed =
      method === 'card'
        ? cardFormSchema(today).safeParse(card)
        : method === 'ach'
          ? achFormSchema.safeParse(ach)
          : null;
    if (parsed && !parsed.success) Object.assign(found, fieldMessages(parsed.error));
    if (Object.keys(found).length > 0 || !parsed?.success || !verification) {
      setErrors(found);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    setFailure(null);
    setAmountChanged(false);
    setWorking(true);
    try {
      const tokenizer = tokenizerFor(config.data);
      const common = {
        verification,
        agree: true as const,
        page,
        ClientSFRecordId: undefined,
        // The total this page showed: if the bill changed meanwhile, the server charges nothing.
        ...(amountDue ? { expectedTotalCents: totalFor(book, amountDue, method) } : {}),
      };
      const idempotencyKey = crypto.randomUUID();
      const data = parsed.data;
      const request =
        'Credit_Card_Number' in data
          ? (() => {
              const { Credit_Card_Number: _n, CVV: _c, ...display } = data;
              return tokenizer
                .tokenizeCard(data)
                .then((token) => ({ ...common, ...display, Payment_Type: 'CC' as const, token }));
            })()
          : tokenizer.tokenizeBank(data).then((token) => ({
              ...common,
              Payment_Type: 'ACH' as const,
              token,
              Name_On_Account: data.Name_On_Account,
              ABA_Routing_Number: data.ABA_Routing_Number,
            }));
      const response = await save.mutateAsync({ request: await request, idempotencyKey });
      setDone({
        message: response.message,
        charged:
          response.amountCharged > 0
            ? `We charged ${formatUsd(Math.round(response.amountCharged * 100))}${response.processingFee > 0 ? `, including the ${formatUsd(Math.round(response.processingFee * 100))} card processing fee` : ''}. Transaction number: ${response.TransactionId}.`
            : null,
      });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields);
      // The confirmation expired (15 minutes): ask for it again.
      if (error instanceof ApiError && error.fields.verify) {
        setVerification(null);
        setAmountDue(null);
        setByLink(false);
        confirmedBy.current = null;
      }
      if (error instanceof ApiError && error.code === 'AMOUNT_CHANGED' && (await readAmountDueAgain())) {
        // The new figures are shown (summary and button): the client checks them before paying.
        setAmountChanged(true);
        return;
      }
      setFailure(submissionFailureMessage(error));
    } finally {
      setWorking(false);
    }
  };

  /**
   * After a 409 AMOUNT_CHANGED: reads the amount due (and the price book, for the card fee) again,
   * as the confirmation read it, so the page shows, and the next save sends, the server's total.
   * False if it could not be read: the client then confirms again, which reads it.
   */
  const readAmountDueAgain = async (): Promise<boolean> => {
    const request = confirmedBy.current;
    try {
      if (!request) throw new Error('not confirmed');
      const [data] = await Promise.all([
        verifyClient.mutateAsync(request),
        queryClient.invalidateQueries({ queryKey: priceBookQueryKey }),
      ]);
      setVerification(data.verification);
      setAmountDue(data.amountDue);
      return true;
    } catch {
      setVerification(null);
      setAmountDue(null);
      setByLink(false);
      setErrors({ verify: v.confirmFirst });
      confirmedBy.current = null;
      return false;
    }
  };

  const confirmed = verification !== null;
  const total = amountDue && method ? totalFor(book, amountDue, method) : 0;
  const saveLabel =
    total > 0
      ? `Pay ${formatUsd(total)} and save ${method === 'card' ? 'card' : 'bank account'}`
      : method === 'card'
        ? 'Save card'
        : method === 'ach'
          ? 'Save bank account'
          : 'Save';

  return (
    <PublicShell title="Update Payment Information" width={760}>
      {done ? (
        <Alert color="green" icon={<IconCircleCheck aria-hidden />} role="status" title={done.message}>
          {done.charged && <Text mb="xs">{done.charged}</Text>}
          <Text>Thank you. A confirmation has been e-mailed to the address we have on file.</Text>
        </Alert>
      ) : (
        <form onSubmit={onSave} noValidate aria-label="Update payment information">
          <Stack gap="lg">
            <Fieldset legend="Client Identification" radius="md">
              {byLink ? (
                <Text c="teal.9" fw={600} role="status">
                  {v.confirmed}
                </Text>
              ) : (
                <Stack>
                  <Radio.Group
                    label="Identify the client by"
                    value={mode}
                    onChange={(value) => {
                      setMode(value as Mode);
                      setErrors({});
                    }}
                    error={errors.mode}
                    readOnly={confirmed}
                  >
                    <Group mt="xs">
                      <Radio value="id" label="Client ID and Last Name" disabled={confirmed} />
                      <Radio value="contact" label="Client Full Contact Information" disabled={confirmed} />
                    </Group>
                  </Radio.Group>
                  {mode === 'id' && (
                    <SimpleGrid cols={{ base: 1, sm: 2 }}>
                      <TextInput
                        label="Client ID"
                        value={identity.ClientId}
                        onChange={(e) => setField('ClientId')(e.currentTarget.value)}
                        error={errors.ClientId}
                        readOnly={confirmed}
                        required
                      />
                      <TextInput
                        label="Last Name"
                        value={identity.ClientLastname}
                        onChange={(e) => setField('ClientLastname')(e.currentTarget.value)}
                        error={errors.ClientLastname}
                        readOnly={confirmed}
                        required
                      />
                    </SimpleGrid>
                  )}
                  {mode === 'contact' && (
                    <SimpleGrid cols={{ base: 1, sm: 2 }}>
                      <TextInput
                        label="First Name"
                        value={identity.ClientFirstName}
                        onChange={(e) => setField('ClientFirstName')(e.currentTarget.value)}
                        error={errors.ClientFirstName}
                        readOnly={confirmed}
                        required
                      />
                      <TextInput
                        label="Last Name"
                        value={identity.Clientlastname}
                        onChange={(e) => setField('Clientlastname')(e.currentTarget.value)}
                        error={errors.Clientlastname}
                        readOnly={confirmed}
                        required
                      />
                      <TextInput
                        label="Email"
                        type="email"
                        value={identity.ClientEmail}
                        onChange={(e) => setField('ClientEmail')(e.currentTarget.value)}
                        error={errors.ClientEmail}
                        readOnly={confirmed}
                        required
                      />
                      <DateOfBirthInput
                        label="Date of Birth"
                        value={identity.ClientDob}
                        onChange={setField('ClientDob')}
                        maxDate={today}
                        error={errors.ClientDob}
                        readOnly={confirmed}
                        required
                      />
                    </SimpleGrid>
                  )}
                  {confirmed ? (
                    <Text c="teal.9" fw={600} role="status">
                      {v.confirmed}
                    </Text>
                  ) : (
                    <div>
                      <Button variant="outline" onClick={onConfirm} loading={verifyClient.isPending}>
                        Confirm Client Details
                      </Button>
                      {errors.verify && (
                        <Text c="red.9" size="sm" mt="xs">
                          {errors.verify}
                        </Text>
                      )}
                      {verifyError && (
                        <Text c="red.9" size="sm" mt="xs" role="alert">
                          {verifyError}
                        </Text>
                      )}
                    </div>
                  )}
                </Stack>
              )}
            </Fieldset>

            <Fieldset legend="Payment Method" radius="md">
              <Stack>
                <Radio.Group
                  label="Pay by"
                  value={method}
                  onChange={(value) => setMethod(value as 'card' | 'ach')}
                  error={errors.method}
                >
                  <Group mt="xs">
                    <Radio value="card" label="Credit Card" />
                    <Radio value="ach" label="ACH Payment" />
                  </Group>
                </Radio.Group>
                <Text size="sm">
                  A {cardFeePercent(book)} processing fee applies to card payments. Pay by ACH to avoid it.
                </Text>
                {method === 'card' && (
                  <CardFields
                    values={card}
                    onChange={setCard}
                    errors={errors}
                    today={today}
                    disabled={working}
                  />
                )}
                {method === 'ach' && (
                  <AchFields values={ach} onChange={setAch} errors={errors} disabled={working} />
                )}
              </Stack>
            </Fieldset>

            {amountDue && <AmountDueSummary amountDue={amountDue} method={method} />}

            <Checkbox
              checked={agree}
              onChange={(e) => setAgree(e.currentTarget.checked)}
              error={errors.agree}
              label="I am the owner of this card or bank account, and I authorize the bank to store this payment information and use it for overdue and future annual storage fees."
            />
            <Stack gap="xs">
              <Group>
                <Button type="submit" loading={working}>
                  {saveLabel}
                </Button>
                <Button variant="default" onClick={onCancel} disabled={working}>
                  Cancel
                </Button>
              </Group>
              <SubmitFailure message={amountChanged ? amountChangedMessage(total) : failure} />
            </Stack>
          </Stack>
        </form>
      )}
    </PublicShell>
  );
}

/** Beside the button after the server refused the total shown; `total` is the new one shown. */
function amountChangedMessage(total: number): string {
  return total > 0
    ? `The amount due has changed. The new total is ${formatUsd(total)}: please check it above before you pay.`
    : 'The amount due has changed: nothing is due now. Please check it above before you save.';
}

function totalFor(book: PriceBook, amountDue: AmountDue, method: 'card' | 'ach' | ''): number {
  const kind = method === 'card' ? 'card' : 'ach';
  return amountDue.overdueCents + cardProcessingFee(book, amountDue.overdueCents, kind);
}

/** What saving will charge, before it charges: the overdue years, the card fee, the total. */
function AmountDueSummary({ amountDue, method }: { amountDue: AmountDue; method: 'card' | 'ach' | '' }) {
  const book = usePriceBook();
  if (amountDue.overdueCents === 0) {
    return (
      <Text role="status">
        Nothing is due today. Saving stores this payment method for future annual storage fees.
      </Text>
    );
  }
  const fee = method === 'card' ? cardProcessingFee(book, amountDue.overdueCents, 'card') : 0;
  return (
    <Fieldset legend="Amount Due" radius="md">
      <Stack gap={4} component="dl" m={0} aria-label="Amount due">
        {amountDue.overdueYears.map((year) => (
          <Group key={year.dueDate} justify="space-between" wrap="nowrap">
            <Text component="dt">Annual storage due {isoToUsDate(year.dueDate)}</Text>
            <Text component="dd" m={0}>
              {formatUsd(year.amountCents)}
            </Text>
          </Group>
        ))}
        {method === 'card' && (
          <Group justify="space-between" wrap="nowrap">
            <Text component="dt">Card processing fee ({cardFeePercent(book)})</Text>
            <Text component="dd" m={0}>
              {formatUsd(fee)}
            </Text>
          </Group>
        )}
        <Group justify="space-between" wrap="nowrap">
          <Text component="dt" fw={700}>
            Total charged when you save
          </Text>
          <Text component="dd" m={0} fw={700}>
            {formatUsd(amountDue.overdueCents + fee)}
          </Text>
        </Group>
        {method === '' && (
          <Text size="sm" c="gray.7">
            A card adds the {cardFeePercent(book)} processing fee; ACH does not.
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
