import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { type ClientRecord, todayFor } from '../../../../domain/client';
import { CONSENT_AGREEMENT_VERSION, RELEASE_TO_INDIVIDUAL } from '../../../../domain/consent-agreement';
import {
  type ConsentPageOne,
  type ConsentVariant,
  consentCardEmptyMessages,
  consentPageOneOrder,
  consentPageOneProblems,
  type FormSubmissionResponse,
  type PhysicianConsentClient,
  sendConsentDataRequestSchema,
  sendPhysicianConsentDataRequestSchema,
} from '../../../../domain/consent-form';
import { fieldMessages } from '../../../../domain/errors';
import { methodsOnFileOf } from '../../../../domain/form-payment';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { LeaveGuard } from '../../../components/leave-guard';
import { clientQueryPrefix } from '../../../lib/client-record';
import { useFormDraftQuery, useSaveFormDraft } from '../../../lib/form-draft';
import { tokenizerFor } from '../../../lib/payment/card-tokenizer';
import {
  checkPaymentChoice,
  initialPaymentChoice,
  type PaymentChoice,
  paymentRequestFields,
  withSavedCardByDefault,
} from '../../../lib/payment/payment-choice';
import { usePaymentConfig } from '../../../lib/payment/payment-config';
import { subjectClientId, useSession } from '../../../lib/session';
import { formDocumentsQueryKey } from '../api/get-form-documents';
import { useSendConsentData } from '../api/send-consent-data';
import { useSendPhysicianConsentData } from '../api/send-physician-consent-data';
import { annualFeeProblems } from '../lib/annual-fee-method';
import { type SubmissionFailure, submissionFailure } from '../lib/submission-failure';
import { ClientSummary } from './client-summary';
import { ConsentPageOneFields } from './consent-page-one';
import { type ConsentPageTwo, ConsentPageTwoFields } from './consent-page-two';
import { FormFailure } from './form-failure';
import { PhysicianClientFields } from './physician-client-fields';

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

/** The draft the server kept, as the form's state; null when there is none or it is not one. */
function consentDraftOf(kept: Record<string, unknown> | null | undefined): ConsentDraft | null {
  const saved = kept as Partial<ConsentDraft> | null | undefined;
  if (!saved || typeof saved !== 'object' || typeof saved.answers !== 'object') return null;
  return {
    answers: saved.answers ?? {},
    details: saved.details ?? null,
    sampleType: saved.sampleType ?? '',
    payment: { ...initialPaymentChoice(true), ...saved.payment },
  } as ConsentDraft;
}

/** The keys whose values differ between two versions of a flat record. */
function changedKeys(before: object, after: object): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => a[key] !== b[key]);
}

/** The fields of page 2 that an edit touched, by the names their errors carry. */
function pageTwoEdits(before: ConsentPageTwo, after: ConsentPageTwo): string[] {
  const fields: string[] = [];
  if (before.sampleType !== after.sampleType) fields.push('sample_type');
  if (before.agree !== after.agree) fields.push('agree');
  if (before.signature !== after.signature) fields.push('Signature');
  if (before.payment.method !== after.payment.method) fields.push('PaymentMethod');
  if (before.payment.useAnotherCard !== after.payment.useAnotherCard) fields.push('update_card');
  if (before.payment.useAnotherAch !== after.payment.useAnotherAch) fields.push('update_ach');
  return [
    ...fields,
    ...changedKeys(before.payment.card, after.payment.card),
    ...changedKeys(before.payment.ach, after.payment.ach),
  ];
}

/**
 * What the server keeps of the form while it is filled in (a draft, sealed, for the person signed
 * in): the answers and choices, so that a reload, an idle sign-out or another computer loses
 * nothing. Not the new card's or account's fields, never sent anywhere but the gateway; not the
 * drawn signature nor the "I agree" box, which are the act of signing and are done again.
 */
interface ConsentDraft {
  answers: ConsentPageOne;
  details: PhysicianConsentClient | null;
  sampleType: ConsentPageTwo['sampleType'];
  payment: Pick<PaymentChoice, 'method' | 'useAnotherCard' | 'useAnotherAch' | 'saveCard' | 'saveAch'>;
}

/**
 * The form's page in the address (`?page=2`), so Back and Forward move between its pages. While the
 * address is another one (the page's other tab, the form kept mounted behind it), the page stays.
 */
function usePageInAddress() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { pathname } = useLocation();
  const [ownPath] = useState(() => pathname.toLowerCase());
  const lastPage = useRef<1 | 2>(1);
  const page: 1 | 2 =
    pathname.toLowerCase() === ownPath ? (searchParams.get('page') === '2' ? 2 : 1) : lastPage.current;
  lastPage.current = page;
  const goTo = (next: 1 | 2, { replace = false } = {}) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.set('page', String(next));
        return params;
      },
      { replace },
    );
  return [page, goTo] as const;
}

/**
 * Who fills the form in: the client in the Client Portal, with their details of record shown; or
 * a physician for the client they act for, signing in the clinic, with the client's details to
 * edit (prefilled from the record). Either way the annual storage is paid by the client's own
 * method, so `paymentInfo` is the client's.
 */
export type ConsentFormVariant =
  | { kind: 'client'; client: ClientRecord | undefined }
  | { kind: 'physician'; clientDetails: PhysicianConsentClient };

interface Props {
  variant: ConsentFormVariant;
  physician: { id: string; lastName: string };
  paymentInfo: PaymentInfo | undefined;
  onSubmitted(response: FormSubmissionResponse): void;
}

/**
 * The Client Consent Form in two pages (spec 2, sections 2, 4 and 5), opened with the draft the
 * server kept, if any (the page's loading overlay shows while it is read).
 */
export function ConsentForm(props: Props) {
  const session = useSession();
  const clientId = subjectClientId(session.data);
  const kept = useFormDraftQuery('consent', clientId);
  if (clientId !== null && kept.isPending) return null;
  return <ConsentFormPages {...props} clientId={clientId} restored={consentDraftOf(kept.data?.draft)} />;
}

/**
 * The form's two pages. Answers are kept while moving between the pages, and as a draft on the
 * server; the submission is checked by the same rules as on the server.
 */
function ConsentFormPages({
  variant,
  physician,
  paymentInfo,
  onSubmitted,
  clientId,
  restored,
}: Props & { clientId: string | null; restored: ConsentDraft | null }) {
  const today = todayFor(new Date());
  const kind: ConsentVariant = variant.kind;
  const config = usePaymentConfig();
  const sendClient = useSendConsentData();
  const sendPhysician = useSendPhysicianConsentData();
  const queryClient = useQueryClient();
  const [page, goToPage] = usePageInAddress();
  const [dirty, setDirty] = useState(false);
  // The physician variant starts with Medications at No (spec 2).
  const [answers, setAnswers] = useState<ConsentPageOne>(
    restored?.answers ?? (kind === 'physician' ? { Medications: 'No' } : {}),
  );
  const [details, setDetails] = useState<PhysicianConsentClient | null>(
    variant.kind === 'physician' ? (restored?.details ?? variant.clientDetails) : null,
  );
  const [pageTwo, setPageTwo] = useState<ConsentPageTwo>(() => ({
    sampleType: restored?.sampleType ?? '',
    payment: { ...initialPaymentChoice(true), ...restored?.payment },
    agree: false,
    signature: null,
  }));
  const changed = dirty || restored !== null;
  // Saved once something is changed here: a restored draft stays as it was kept until then.
  const draft = useSaveFormDraft(
    'consent',
    clientId,
    dirty
      ? {
          answers,
          details,
          sampleType: pageTwo.sampleType,
          payment: {
            method: pageTwo.payment.method,
            useAnotherCard: pageTwo.payment.useAnotherCard,
            useAnotherAch: pageTwo.payment.useAnotherAch,
            saveCard: pageTwo.payment.saveCard,
            saveAch: pageTwo.payment.saveAch,
          },
        }
      : null,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<SubmissionFailure | null>(null);
  const submitting = useRef(false);
  const cardOnFile = Boolean(paymentInfo?.Credit_Card_Number);
  useEffect(() => {
    setPageTwo((values) => ({ ...values, payment: withSavedCardByDefault(values.payment, cardOnFile) }));
  }, [cardOnFile]);
  // A field's message goes once the field is changed; the next check marks what still fails.
  const forget = (fields: string[]) =>
    fields.length > 0 &&
    setErrors((current) => {
      if (!fields.some((field) => field in current)) return current;
      const rest = { ...current };
      for (const field of fields) delete rest[field];
      return rest;
    });
  const editAnswers = (next: ConsentPageOne) => {
    setDirty(true);
    forget(changedKeys(answers, next));
    setAnswers(next);
  };
  const editDetails = (next: PhysicianConsentClient) => {
    setDirty(true);
    if (details) forget(changedKeys(details, next));
    setDetails(next);
  };
  const editPageTwo = (next: ConsentPageTwo) => {
    setDirty(true);
    forget(pageTwoEdits(pageTwo, next));
    setPageTwo(next);
  };
  const formRef = useRef<HTMLFormElement>(null);
  const topRef = useRef<HTMLHeadingElement>(null);

  // A new page, by its buttons or by Back and Forward, starts at its heading.
  const shownPage = useRef(page);
  useEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    requestAnimationFrame(() => {
      topRef.current?.focus();
      topRef.current?.scrollIntoView({ block: 'start' });
    });
  }, [page]);

  // Page 2 only once page 1 is answered (an address with ?page=2 opened afresh, or a stale one).
  const pageOneAnswered = Object.keys(consentPageOneProblems(answers, kind)).length === 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked when the page or the answers change
  useEffect(() => {
    if (page === 2 && !pageOneAnswered) goToPage(1, { replace: true });
  }, [page, pageOneAnswered]);

  const showPage = (next: 1 | 2) => goToPage(next);

  const refuse = (problems: Record<string, string>) => {
    setErrors(problems);
    const onPageOne = Object.keys(problems).some((field) => pageOneFields.has(field));
    if (onPageOne && page !== 1) goToPage(1);
    focusFirstInvalid(formRef.current);
  };

  const nextPage = () => {
    const problems = consentPageOneProblems(answers, kind);
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
    const onFile = methodsOnFileOf(paymentInfo ?? null);
    const common = {
      ...pageOneRequest(answers),
      sample_type: pageTwo.sampleType || undefined,
      PaymentMethod: pageTwo.payment.method || undefined,
      agree: pageTwo.agree,
      Signature: pageTwo.signature ?? undefined,
      agreementVersion: CONSENT_AGREEMENT_VERSION,
    };
    const checked =
      details === null
        ? sendConsentDataRequestSchema.safeParse(common)
        : sendPhysicianConsentDataRequestSchema(today).safeParse({ ...common, ...details });
    const payment = checkPaymentChoice(pageTwo.payment, onFile, today, consentCardEmptyMessages);
    const problems = {
      ...consentPageOneProblems(answers, kind),
      ...(checked.success ? {} : fieldMessages(checked.error)),
      ...payment.problems,
      ...annualFeeProblems(pageTwo.payment, paymentInfo),
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
      const paymentFields = () => paymentRequestFields(method, payment, pageTwo.payment, tokenizer);
      const idempotencyKey = crypto.randomUUID();
      const response =
        details === null
          ? await sendClient.mutateAsync({
              buildRequest: async () => ({
                ...sendConsentDataRequestSchema.parse(common),
                ...(await paymentFields()),
              }),
              idempotencyKey,
            })
          : await sendPhysician.mutateAsync({
              buildRequest: async () => ({
                ...sendPhysicianConsentDataRequestSchema(today).parse({ ...common, ...details }),
                ...(await paymentFields()),
              }),
              idempotencyKey,
            });
      setDirty(false);
      draft.forget();
      onSubmitted(response);
    } catch (error) {
      // Done meanwhile (another tab) or not yet possible: the refreshed flags show the tab's notice.
      const refused = submissionFailure(error, method);
      if (refused.pageIsStale) {
        void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
        void queryClient.invalidateQueries({ queryKey: formDocumentsQueryKey });
      }
      const { fields } = refused;
      setErrors(fields);
      setFailure(refused);
      if (Object.keys(fields).some((field) => pageOneFields.has(field))) goToPage(1);
      if (Object.keys(fields).length > 0) focusFirstInvalid(formRef.current);
    } finally {
      submitting.current = false;
    }
  };

  const busy = sendClient.isPending || sendPhysician.isPending;

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Client Consent Form">
      <LeaveGuard when={changed && !busy} onLeave={draft.discard} />
      <Stack gap="lg">
        <Title order={2} size="h3" ref={topRef} tabIndex={-1}>
          Client Consent Form, page {page} of 2
        </Title>
        {page === 1 ? (
          <ConsentPageOneFields answers={answers} onChange={editAnswers} errors={errors} />
        ) : (
          <ConsentPageTwoFields
            variant={kind}
            values={pageTwo}
            onChange={editPageTwo}
            errors={errors}
            physician={physician}
            clientInformation={
              details === null ? (
                variant.kind === 'client' && <ClientSummary client={variant.client} />
              ) : (
                <PhysicianClientFields
                  values={details}
                  onChange={editDetails}
                  errors={errors}
                  disabled={busy}
                />
              )
            }
            paymentInfo={paymentInfo}
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
            <FormFailure failure={failure} reloadLabel="Load the updated agreement" />
          </Stack>
        )}
      </Stack>
    </form>
  );
}
