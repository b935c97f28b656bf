import { Button, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { type ClientRecord, todayFor } from '../../../../domain/client';
import type { FormSubmissionResponse } from '../../../../domain/consent-form';
import { fieldMessages } from '../../../../domain/errors';
import { methodsOnFileOf } from '../../../../domain/form-payment';
import {
  diseaseCardEmptyMessages,
  diseaseMessages,
  INFECTIOUS_DISEASE_TERMS_VERSION,
  infectiousDiseaseTerms,
  type PhysicianDiseaseResponse,
  physicianDiseaseMessages,
  SCREENING_EXPLANATION,
  SUBMISSION_OPTIONS,
  type SubmissionOption,
  setDiseaseDataRequestSchema,
  setPhysicianDiseaseDataRequestSchema,
  type VerifyPhysicianClientResponse,
  whiteGloveQuote,
} from '../../../../domain/infectious-disease';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { useClient } from '../../../lib/client-record';
import { tokenizerFor } from '../../../lib/payment/card-tokenizer';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import {
  checkPaymentChoice,
  initialPaymentChoice,
  paymentRequestFields,
  withSavedCardByDefault,
} from '../../../lib/payment/payment-choice';
import { usePaymentConfig } from '../../../lib/payment/payment-config';
import { usePriceBook } from '../../../lib/price-book';
import { type SetDiseaseDataBody, useSetDiseaseData } from '../api/set-disease-data';
import {
  type SetPhysicianDiseaseDataBody,
  useSetPhysicianDiseaseData,
} from '../api/set-physician-disease-data';
import { type SubmissionFailure, submissionFailure } from '../lib/submission-failure';
import { CompletedNotice } from './completed-notice';
import { FormFailure } from './form-failure';
import { type LabReport, LocalLabSection } from './local-lab-section';
import { ScreeningComparison } from './screening-comparison';
import { ScrollableText } from './scrollable-text';
import { type Waiver, WaiverSection } from './waiver-section';
import { KIT_ADDRESS_FIELDS, type KitAddress, WhiteGloveSection } from './white-glove-section';

function kitAddressOf(client: ClientRecord | undefined): KitAddress {
  return {
    FirstName: client?.firstName ?? '',
    LastName: client?.lastName ?? '',
    Street: client?.street ?? '',
    City: client?.city ?? '',
    State: client?.state ?? '',
    ZipCode: client?.zip ?? '',
    Country: client?.country ?? '',
  };
}

/**
 * The physician variant (spec 2, "Physician variant only"): the client identification heads the
 * form and must be confirmed; White Glove Labs is paid with the physician's own card.
 */
export interface PhysicianVariant {
  kind: 'physician';
  /** The Client Information section, with the form's messages for its fields. */
  identification(errors: Record<string, string>): ReactNode;
  /** The identification fields the request carries. */
  identificationRequest(): Record<string, string | undefined>;
  confirmed: VerifyPhysicianClientResponse | null;
  onSubmitted(response: PhysicianDiseaseResponse): void;
}

export type DiseaseFormVariant =
  | { kind: 'client'; onSubmitted(response: FormSubmissionResponse): void }
  | PhysicianVariant;

/** The physician's legacy body names the kit's address fields in lower case. */
const PHYSICIAN_ADDRESS_NAMES = {
  Street: 'street',
  City: 'city',
  State: 'state',
  Country: 'country',
} as const;

function toPageFields(fields: Record<string, string>): Record<string, string> {
  const onPage: Record<string, string> = { ...fields };
  for (const [page, legacy] of Object.entries(PHYSICIAN_ADDRESS_NAMES)) {
    if (legacy in onPage) {
      onPage[page] ??= onPage[legacy] as string;
      delete onPage[legacy];
    }
  }
  return onPage;
}

/**
 * The Infectious Disease Form (spec 2, sections 2, 4 and 5): the screening route and its section,
 * the terms, and one submission however often Submit is pressed. The client submits it for
 * themselves; a physician for a client they confirm first.
 */
export function DiseaseForm({ variant }: { variant: DiseaseFormVariant }) {
  const today = todayFor(new Date());
  const physician = variant.kind === 'physician' ? variant : null;
  const queryClient = useQueryClient();
  const client = useClient();
  const paymentInfo = usePaymentInfo();
  const config = usePaymentConfig();
  const book = usePriceBook();
  const sendForClient = useSetDiseaseData();
  const sendForPhysician = useSetPhysicianDiseaseData();
  const send = physician ? sendForPhysician : sendForClient;
  const [option, setOption] = useState<SubmissionOption | ''>('');
  const [address, setAddress] = useState<KitAddress>(() => kitAddressOf(client.data));
  // The physician pays by card only: it is the method from the start.
  const [payment, setPayment] = useState(() => ({
    ...initialPaymentChoice(false),
    ...(physician ? { method: 'Credit Card' as const } : {}),
  }));
  const [labReport, setLabReport] = useState<LabReport>({ file: null, dataUrl: null });
  const [labProblem, setLabProblem] = useState<string | null>(null);
  const [waiver, setWaiver] = useState<Waiver>({ notice: '', signature: null, diseases: '' });
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<SubmissionFailure | null>(null);
  const submitting = useRef(false);
  const cardOnFile = Boolean(paymentInfo.data?.Credit_Card_Number);
  useEffect(() => {
    setPayment((choice) => withSavedCardByDefault(choice, cardOnFile));
  }, [cardOnFile]);
  const formRef = useRef<HTMLFormElement>(null);

  // The kit goes to the client's address of record unless they change it; a record that arrives
  // late fills only what is still empty. When a physician confirms another client, the address is
  // that client's.
  const addressOf = useRef<string | null>(null);
  useEffect(() => {
    const record = client.data;
    if (!record) return;
    const anotherClient = addressOf.current !== null && addressOf.current !== record.clientRecordId;
    addressOf.current = record.clientRecordId;
    setAddress((current) => {
      const fromRecord = kitAddressOf(record);
      if (anotherClient) return fromRecord;
      const filled = { ...current };
      for (const { field } of KIT_ADDRESS_FIELDS) filled[field] ||= fromRecord[field];
      return filled;
    });
  }, [client.data]);

  const onLabProblem = (message: string | null) => {
    setLabProblem(message);
    setErrors(({ lab_report_file: _, ...rest }) => rest);
  };

  // What the person chose, as the schema judges it; only the chosen section's fields go in.
  const request = () => ({
    submissionOption: option || undefined,
    agree,
    termsVersion: INFECTIOUS_DISEASE_TERMS_VERSION,
    ...(option === 'White Glove Labs' && {
      ...address,
      PaymentMethod: payment.method === 'Check' || !payment.method ? undefined : payment.method,
    }),
    ...(option === 'Local Lab Submission' && {
      lab_report_file: labReport.dataUrl ?? undefined,
      lab_report_name: labReport.file?.name,
    }),
    ...(option === 'Waiver Submission' && {
      WaiverNotice: waiver.notice || undefined,
      Signature: waiver.signature ?? undefined,
      InfectiousDisease: waiver.diseases || undefined,
    }),
  });

  // The physician's body: the client identification, and the kit's address by the legacy names.
  const physicianRequest = (physicianVariant: PhysicianVariant) => {
    const { Street, City, State, Country, PaymentMethod: _card, ...rest } = request();
    return {
      ...physicianVariant.identificationRequest(),
      ...rest,
      ...(option === 'White Glove Labs' && {
        street: Street,
        city: City,
        state: State,
        country: Country,
        PaymentMethod: 'Credit Card' as const,
      }),
    };
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting.current || !config.data) return;
    const schema = physician ? setPhysicianDiseaseDataRequestSchema(today) : setDiseaseDataRequestSchema;
    const body = physician ? physicianRequest(physician) : request();
    const checked = schema.safeParse(body);
    // The schema checks the chosen section only once the rest passes; check it as if the box were
    // ticked too, so every problem shows at once.
    const section = !checked.success && option ? schema.safeParse({ ...body, agree: true }) : null;
    const whiteGlove = option === 'White Glove Labs';
    const checkedPayment = whiteGlove
      ? checkPaymentChoice(
          payment,
          methodsOnFileOf(paymentInfo.data ?? null),
          today,
          diseaseCardEmptyMessages,
        )
      : { problems: {} };
    const problems: Record<string, string> = toPageFields({
      ...(section && !section.success ? fieldMessages(section.error) : {}),
      ...(checked.success ? {} : fieldMessages(checked.error)),
      ...checkedPayment.problems,
    });
    if (physician && !physician.confirmed) problems.verify = physicianDiseaseMessages.confirmFirst;
    if (option === 'Local Lab Submission' && labProblem) problems.lab_report_file = labProblem;
    if (!checked.success || Object.keys(problems).length > 0) {
      setErrors(problems);
      focusFirstInvalid(formRef.current);
      return;
    }
    const method = payment.method;
    setErrors({});
    setFailure(null);
    submitting.current = true;
    try {
      const tokenizer = tokenizerFor(config.data);
      const withPayment = async <T extends object>(data: T) =>
        whiteGlove && (method === 'Credit Card' || method === 'ACH Payment')
          ? {
              ...data,
              ...(await paymentRequestFields(method, checkedPayment, payment, tokenizer)),
              PaymentMethod: method,
              expectedTotalCents: whiteGloveQuote(book, method).total,
            }
          : data;
      const idempotencyKey = crypto.randomUUID();
      if (physician) {
        const response = await sendForPhysician.mutateAsync({
          buildRequest: () => withPayment(checked.data) as Promise<SetPhysicianDiseaseDataBody>,
          idempotencyKey,
        });
        physician.onSubmitted(response);
      } else if (variant.kind === 'client') {
        const response = await sendForClient.mutateAsync({
          buildRequest: () => withPayment(checked.data) as Promise<SetDiseaseDataBody>,
          idempotencyKey,
        });
        variant.onSubmitted(response);
      }
    } catch (error) {
      // The server's quote differs from the one shown (its message says so), or the form was done
      // meanwhile in another window: refresh what the page knows.
      const refused = submissionFailure(error, method);
      if (refused.pageIsStale) void queryClient.invalidateQueries();
      const fields = toPageFields(refused.fields);
      setErrors(fields);
      setFailure(refused);
      if (Object.keys(fields).length > 0) focusFirstInvalid(formRef.current);
    } finally {
      submitting.current = false;
    }
  };

  const busy = send.isPending;

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      aria-label={physician ? 'Client Infectious Disease Form' : 'Infectious Disease Form'}
    >
      <Stack gap="lg">
        {physician?.identification(errors)}
        {physician?.confirmed?.infectiousDiseaseFormCompleted ? (
          <CompletedNotice message={diseaseMessages.alreadyCompleted}>
            <Text size="sm">
              {physician.confirmed.ClientName} ({physician.confirmed.ClientId})
            </Text>
          </CompletedNotice>
        ) : (
          <>
            <Title order={2} size="h3">
              Infectious Disease Screening
            </Title>
            <Stack gap="xs">
              {SCREENING_EXPLANATION.map((paragraph) => (
                <Text key={paragraph} size="sm">
                  {paragraph}
                </Text>
              ))}
            </Stack>
            <ScreeningComparison />

            <Select
              label="Submission Option"
              name="submissionOption"
              placeholder="Choose how to submit your screening"
              data={[...SUBMISSION_OPTIONS]}
              value={option || null}
              onChange={(value) => {
                setOption((value ?? '') as SubmissionOption | '');
                setErrors(({ submissionOption: _, ...rest }) => rest);
              }}
              error={errors.submissionOption}
              disabled={busy}
              allowDeselect={false}
              maw={420}
              required
            />

            {option === 'White Glove Labs' && (
              <WhiteGloveSection
                address={address}
                onAddressChange={setAddress}
                payment={payment}
                onPaymentChange={setPayment}
                paymentInfo={paymentInfo.data}
                errors={errors}
                today={today}
                disabled={busy}
                variant={variant.kind}
              />
            )}
            {option === 'Local Lab Submission' && (
              <LocalLabSection
                value={labReport}
                onChange={setLabReport}
                onProblem={onLabProblem}
                error={errors.lab_report_file ?? labProblem ?? undefined}
                disabled={busy}
              />
            )}
            {option === 'Waiver Submission' && (
              <WaiverSection value={waiver} onChange={setWaiver} errors={errors} disabled={busy} />
            )}

            <Stack gap="xs">
              <Title order={3} size="h4">
                Infectious Disease Terms and Conditions
              </Title>
              <ScrollableText label="Infectious Disease Terms and Conditions">
                <Stack gap="xs">
                  {infectiousDiseaseTerms(book).map((term) => (
                    <Text key={term} size="sm">
                      {term}
                    </Text>
                  ))}
                </Stack>
              </ScrollableText>
              <Checkbox
                name="agree"
                label="I agree to the Infectious Disease Terms and Conditions"
                checked={agree}
                onChange={(e) => {
                  setAgree(e.currentTarget.checked);
                  setErrors(({ agree: _, ...rest }) => rest);
                }}
                error={errors.agree}
                aria-invalid={Boolean(errors.agree) || undefined}
                disabled={busy}
              />
            </Stack>
            <Group justify="flex-end">
              <Button type="submit" loading={busy} disabled={!config.data}>
                Submit
              </Button>
            </Group>
            <FormFailure failure={failure} reloadLabel="Load the updated terms" />
          </>
        )}
      </Stack>
    </form>
  );
}
