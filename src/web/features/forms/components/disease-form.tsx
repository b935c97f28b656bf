import { Button, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
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
import { clientQueryPrefix, useClient } from '../../../lib/client-record';
import { usePayingForm } from '../../../lib/paying-form';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import {
  fieldsOnPage,
  initialPaymentChoice,
  type PaymentChoice,
  withSavedCardByDefault,
} from '../../../lib/payment/payment-choice';
import { usePriceBook } from '../../../lib/price-book';
import { formDocumentsQueryKey } from '../api/get-form-documents';
import { type SetDiseaseDataBody, useSetDiseaseData } from '../api/set-disease-data';
import {
  type SetPhysicianDiseaseDataBody,
  useSetPhysicianDiseaseData,
} from '../api/set-physician-disease-data';
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

interface DiseaseValues extends KitAddress {
  submissionOption: SubmissionOption | '';
  agree: boolean;
  payment: PaymentChoice;
  labReport: LabReport;
  waiver: Waiver;
}

const isWhiteGlove = (values: DiseaseValues) => values.submissionOption === 'White Glove Labs';
const cardOrAch = (method: PaymentChoice['method']) =>
  method === 'Credit Card' || method === 'ACH Payment' ? method : null;

/** What the person chose, as the schema judges it; only the chosen section's fields go in. */
function diseaseRequestOf(values: DiseaseValues) {
  const option = values.submissionOption;
  const { labReport, waiver } = values;
  return {
    submissionOption: option || undefined,
    agree: values.agree,
    termsVersion: INFECTIOUS_DISEASE_TERMS_VERSION,
    ...(option === 'White Glove Labs' && {
      ...kitAddressFrom(values),
      PaymentMethod: cardOrAch(values.payment.method) ?? undefined,
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
  };
}

function kitAddressFrom(values: DiseaseValues): KitAddress {
  const address = kitAddressOf(undefined);
  for (const { field } of KIT_ADDRESS_FIELDS) address[field] = values[field];
  return address;
}

/** The keys of the page that a refusal names as out of date: the client's flags, the forms done. */
const STALE_CODES = new Set(['ALREADY_COMPLETED', 'INITIAL_PROCESSING_REQUIRED', 'AMOUNT_CHANGED']);

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
  const book = usePriceBook();
  const sendForClient = useSetDiseaseData();
  const sendForPhysician = useSetPhysicianDiseaseData();
  const [labProblem, setLabProblem] = useState<string | null>(null);
  const [textChanged, setTextChanged] = useState(false);
  const schema = physician ? setPhysicianDiseaseDataRequestSchema(today) : setDiseaseDataRequestSchema;

  // The physician's body: the client identification, and the kit's address by the legacy names.
  const requestOf = (values: DiseaseValues) => {
    const request = diseaseRequestOf(values);
    if (!physician) return request;
    const { Street, City, State, Country, PaymentMethod: _card, ...rest } = request;
    return {
      ...physician.identificationRequest(),
      ...rest,
      ...(isWhiteGlove(values) && {
        street: Street,
        city: City,
        state: State,
        country: Country,
        PaymentMethod: 'Credit Card' as const,
      }),
    };
  };

  const form = usePayingForm<DiseaseValues, object, FormSubmissionResponse | PhysicianDiseaseResponse>({
    initialValues: {
      submissionOption: '',
      ...kitAddressOf(client.data),
      agree: false,
      // The physician pays by card only: it is the method from the start.
      payment: { ...initialPaymentChoice(false), ...(physician ? { method: 'Credit Card' as const } : {}) },
      labReport: { file: null, dataUrl: null },
      waiver: { notice: '', signature: null, diseases: '' },
    },
    validate: (values) => {
      const body = requestOf(values);
      const checked = schema.safeParse(body);
      // The schema checks the chosen section only once the rest passes; check it as if the box were
      // ticked too, so every problem shows at once.
      const section =
        !checked.success && values.submissionOption ? schema.safeParse({ ...body, agree: true }) : null;
      const problems = toPageFields({
        ...(section && !section.success ? fieldMessages(section.error) : {}),
        ...(checked.success ? {} : fieldMessages(checked.error)),
      });
      if (physician && !physician.confirmed) problems.verify = physicianDiseaseMessages.confirmFirst;
      if (values.submissionOption === 'Local Lab Submission' && labProblem) {
        problems.lab_report_file = labProblem;
      }
      return problems;
    },
    payment: {
      choice: (values) => values.payment,
      applies: isWhiteGlove,
      onFile: methodsOnFileOf(paymentInfo.data ?? null),
      today,
      cardEmpty: diseaseCardEmptyMessages,
    },
    amount: (values) => {
      const method = cardOrAch(values.payment.method);
      return isWhiteGlove(values) && method ? whiteGloveQuote(book, method).total : null;
    },
    // What was checked is what is sent, as the schema reads it.
    request: (values) => schema.parse(requestOf(values)),
    send: (request, idempotencyKey) =>
      physician
        ? sendForPhysician.mutateAsync({ body: request as SetPhysicianDiseaseDataBody, idempotencyKey })
        : sendForClient.mutateAsync({ body: request as SetDiseaseDataBody, idempotencyKey }),
    onSuccess: (response) => {
      if (physician) physician.onSubmitted(response as PhysicianDiseaseResponse);
      else if (variant.kind === 'client') variant.onSubmitted(response as FormSubmissionResponse);
    },
    fieldsOnPage: (fields, values) => toPageFields(fieldsOnPage(fields, values.payment.method)),
    onRefused: (error) => {
      setTextChanged(error.code === 'AGREEMENT_CHANGED');
      // Done meanwhile in another window, or a price changed: what the page knows is read again.
      if (STALE_CODES.has(error.code)) {
        void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
        void queryClient.invalidateQueries({ queryKey: formDocumentsQueryKey });
      }
    },
  });
  const { values, errors } = form;
  const option = values.submissionOption;
  const busy = form.submitting;

  const { patch, getValues } = form;
  const cardOnFile = Boolean(paymentInfo.data?.Credit_Card_Number);
  useEffect(() => {
    patch({ payment: withSavedCardByDefault(getValues().payment, cardOnFile) });
  }, [cardOnFile, patch, getValues]);

  // The kit goes to the client's address of record unless they change it; a record that arrives
  // late fills only what is still empty. When a physician confirms another client, the address is
  // that client's.
  const addressOf = useRef<string | null>(null);
  useEffect(() => {
    const record = client.data;
    if (!record) return;
    const anotherClient = addressOf.current !== null && addressOf.current !== record.clientRecordId;
    addressOf.current = record.clientRecordId;
    const fromRecord = kitAddressOf(record);
    const current = getValues();
    const filled = { ...fromRecord };
    if (!anotherClient) {
      for (const { field } of KIT_ADDRESS_FIELDS) filled[field] = current[field] || fromRecord[field];
    }
    patch(filled);
  }, [client.data, patch, getValues]);

  const onLabProblem = (message: string | null) => {
    setLabProblem(message);
    form.clearError('lab_report_file');
  };

  return (
    <form
      {...form.formProps}
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
              onChange={(value) => form.patch({ submissionOption: (value ?? '') as SubmissionOption | '' })}
              error={errors.submissionOption}
              disabled={busy}
              allowDeselect={false}
              maw={420}
              required
            />

            {option === 'White Glove Labs' && (
              <WhiteGloveSection
                address={kitAddressFrom(values)}
                onAddressChange={(address) => form.patch(address)}
                payment={values.payment}
                onPaymentChange={(next) => form.setPayment(next)}
                paymentInfo={paymentInfo.data}
                errors={errors}
                today={today}
                disabled={busy}
                variant={variant.kind}
              />
            )}
            {option === 'Local Lab Submission' && (
              <LocalLabSection
                value={values.labReport}
                onChange={(labReport) => form.patch({ labReport })}
                onProblem={onLabProblem}
                error={errors.lab_report_file ?? labProblem ?? undefined}
                disabled={busy}
              />
            )}
            {option === 'Waiver Submission' && (
              <WaiverSection
                value={values.waiver}
                onChange={(waiver) => form.patch({ waiver })}
                errors={errors}
                disabled={busy}
              />
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
                {...form.form.getInputProps('agree', { type: 'checkbox' })}
                aria-invalid={Boolean(errors.agree) || undefined}
                disabled={busy}
              />
            </Stack>
            <Group justify="flex-end">
              <Button type="submit" loading={busy} disabled={!form.ready}>
                {form.payLabel()}
              </Button>
            </Group>
            <FormFailure
              failure={form.failure ? { message: form.failure, textChanged } : null}
              reloadLabel="Load the updated terms"
            />
          </>
        )}
      </Stack>
    </form>
  );
}
