import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { todayFor } from '../../../../domain/client';
import { CONSENT_AGREEMENT_VERSION } from '../../../../domain/consent-agreement';
import {
  type ConsentPageOne,
  consentCardEmptyMessages,
  consentPageOneOrder,
  consentPageOneProblems,
  type FormSubmissionResponse,
  RELEASE_TO_INDIVIDUAL,
  sendConsentDataRequestSchema,
} from '../../../../domain/consent-form';
import { fieldMessages } from '../../../../domain/errors';
import { methodsOnFileOf } from '../../../../domain/form-payment';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { useClient } from '../../../lib/client-record';
import { tokenizerFor } from '../../../lib/payment/card-tokenizer';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import { usePaymentConfig } from '../../../lib/payment/payment-config';
import { useSendConsentData } from '../api/send-consent-data';
import {
  checkPaymentChoice,
  initialPaymentChoice,
  paymentRequestFields,
  withSavedCardByDefault,
} from '../lib/payment-choice';
import { type SubmissionFailure, submissionFailure } from '../lib/submission-failure';
import { ConsentPageOneFields } from './consent-page-one';
import { type ConsentPageTwo, ConsentPageTwoFields } from './consent-page-two';
import { FormFailure } from './form-failure';

/** The page 1 answers as sent: the addendum and the medication list only where they apply. */
function pageOneRequest(answers: ConsentPageOne) {
  const individual = answers.Tissue_deliver === RELEASE_TO_INDIVIDUAL;
  return {
    Medications: answers.Medications,
    Medications_taking: answers.Medications === 'Yes' ? answers.Medications_taking : undefined,
    Tissue_deliver: answers.Tissue_deliver,
    Addendum_name: individual ? answers.Addendum_name : undefined,
    Addendum_dob: individual ? answers.Addendum_dob : undefined,
    Addendum_address: individual ? answers.Addendum_address : undefined,
    Addendum_phone: individual ? answers.Addendum_phone : undefined,
    Relationship: individual ? answers.Relationship : undefined,
  };
}

const pageOneFields = new Set(consentPageOneOrder);

/**
 * The Client Consent Form in two pages (spec 2, sections 2, 4 and 5). Answers are kept while
 * moving between the pages; the submission is checked by the same rules as on the server.
 */
export function ConsentForm({ onSubmitted }: { onSubmitted(response: FormSubmissionResponse): void }) {
  const today = todayFor(new Date());
  const client = useClient();
  const paymentInfo = usePaymentInfo();
  const config = usePaymentConfig();
  const send = useSendConsentData();
  const queryClient = useQueryClient();
  const [page, setPage] = useState<1 | 2>(1);
  const [answers, setAnswers] = useState<ConsentPageOne>({});
  const [pageTwo, setPageTwo] = useState<ConsentPageTwo>({
    sampleType: '',
    payment: initialPaymentChoice(true),
    agree: false,
    signature: null,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<SubmissionFailure | null>(null);
  const submitting = useRef(false);
  const cardOnFile = Boolean(paymentInfo.data?.Credit_Card_Number);
  useEffect(() => {
    setPageTwo((values) => ({ ...values, payment: withSavedCardByDefault(values.payment, cardOnFile) }));
  }, [cardOnFile]);
  const formRef = useRef<HTMLFormElement>(null);
  const topRef = useRef<HTMLHeadingElement>(null);

  const showPage = (next: 1 | 2) => {
    setPage(next);
    requestAnimationFrame(() => {
      topRef.current?.focus();
      topRef.current?.scrollIntoView({ block: 'start' });
    });
  };

  const refuse = (problems: Record<string, string>) => {
    setErrors(problems);
    const onPageOne = Object.keys(problems).some((field) => pageOneFields.has(field));
    if (onPageOne && page !== 1) setPage(1);
    focusFirstInvalid(formRef.current);
  };

  const nextPage = () => {
    const problems = consentPageOneProblems(answers);
    if (Object.keys(problems).length > 0) {
      refuse(problems);
      return;
    }
    setErrors({});
    showPage(2);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Enter in a page 1 field moves on, as the Next Page button does.
    if (page === 1) {
      nextPage();
      return;
    }
    if (submitting.current || !config.data) return;
    const onFile = methodsOnFileOf(paymentInfo.data ?? null);
    const body = {
      ...pageOneRequest(answers),
      sample_type: pageTwo.sampleType || undefined,
      PaymentMethod: pageTwo.payment.method || undefined,
      agree: pageTwo.agree,
      Signature: pageTwo.signature ?? undefined,
      agreementVersion: CONSENT_AGREEMENT_VERSION,
    };
    const checked = sendConsentDataRequestSchema.safeParse(body);
    const payment = checkPaymentChoice(pageTwo.payment, onFile, today, consentCardEmptyMessages);
    const problems = {
      ...consentPageOneProblems(answers),
      ...(checked.success ? {} : fieldMessages(checked.error)),
      ...payment.problems,
    };
    if (!checked.success || Object.keys(problems).length > 0 || !pageTwo.payment.method) {
      refuse(problems);
      return;
    }
    const method = pageTwo.payment.method;
    setErrors({});
    setFailure(null);
    submitting.current = true;
    try {
      const tokenizer = tokenizerFor(config.data);
      const response = await send.mutateAsync({
        buildRequest: async () => ({
          ...checked.data,
          ...(await paymentRequestFields(method, payment, pageTwo.payment, tokenizer)),
        }),
        idempotencyKey: crypto.randomUUID(),
      });
      onSubmitted(response);
    } catch (error) {
      // Done meanwhile (another tab) or not yet possible: the refreshed flags show the tab's notice.
      const refused = submissionFailure(error, method);
      if (refused.pageIsStale) void queryClient.invalidateQueries();
      const { fields } = refused;
      setErrors(fields);
      setFailure(refused);
      if (Object.keys(fields).some((field) => pageOneFields.has(field))) setPage(1);
      if (Object.keys(fields).length > 0) focusFirstInvalid(formRef.current);
    } finally {
      submitting.current = false;
    }
  };

  const busy = send.isPending;

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Client Consent Form">
      <Stack gap="lg">
        <Title order={2} size="h3" ref={topRef} tabIndex={-1}>
          Client Consent Form, page {page} of 2
        </Title>
        <FormFailure failure={failure} reloadLabel="Load the updated agreement" />
        {page === 1 ? (
          <ConsentPageOneFields answers={answers} onChange={setAnswers} errors={errors} />
        ) : (
          <ConsentPageTwoFields
            values={pageTwo}
            onChange={setPageTwo}
            errors={errors}
            client={client.data}
            paymentInfo={paymentInfo.data}
            today={today}
            disabled={busy}
          />
        )}
        {page === 1 ? (
          <Group justify="flex-end">
            <Button type="button" onClick={nextPage}>
              Next Page
            </Button>
          </Group>
        ) : (
          <Stack gap="xs">
            {Object.keys(errors).length > 0 && !failure && (
              <Text c="red.9" size="sm" role="alert">
                Please correct the fields marked above.
              </Text>
            )}
            <Group justify="space-between">
              <Button type="button" variant="default" onClick={() => showPage(1)} disabled={busy}>
                Previous Page
              </Button>
              <Button type="submit" loading={busy} disabled={!config.data}>
                Submit
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </form>
  );
}
