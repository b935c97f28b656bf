import { Alert, Text } from '@mantine/core';
import { useState } from 'react';
import {
  consentMessages,
  type FormDocuments,
  type FormSubmissionResponse,
} from '../../../../domain/consent-form';
import { useClient } from '../../../lib/client-record';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import { bankDate, CompletedNotice } from './completed-notice';
import { ConsentForm } from './consent-form';
import { DocumentLink } from './document-link';

/** The Client Consent Form tab: done, waiting for initial processing, or the form itself. */
export function ConsentTab({ documents }: { documents: FormDocuments }) {
  const [submitted, setSubmitted] = useState<FormSubmissionResponse | null>(null);

  // The confirmation stays in place of the form while the refreshed flags arrive behind it.
  if (submitted) {
    return (
      <CompletedNotice message={consentMessages.submitted}>
        {/* The spec's sentence speaks of an order: what was done, said plainly after it. */}
        <Text size="sm">{consentMessages.consentSaved}</Text>
        {submitted.documentId && (
          <DocumentLink documentId={submitted.documentId}>Download signed agreement (PDF)</DocumentLink>
        )}
      </CompletedNotice>
    );
  }
  if (documents.consent.completed) {
    const signedOn = bankDate(documents.consent.signedAt);
    return (
      <CompletedNotice message={consentMessages.alreadyCompleted}>
        {signedOn && <Text size="sm">Signed on {signedOn}.</Text>}
        {documents.consent.documentId && (
          <DocumentLink documentId={documents.consent.documentId}>
            Download signed agreement (PDF)
          </DocumentLink>
        )}
      </CompletedNotice>
    );
  }
  if (!documents.initialProcessingFormCompleted) {
    return (
      <Alert color="yellow" variant="light" role="status">
        <Text fw={600}>{consentMessages.initialProcessingFirst}</Text>
      </Alert>
    );
  }
  return <ClientConsentForm onSubmitted={setSubmitted} />;
}

/** The client's own consent: their record summarised, their physician and their methods on file. */
function ClientConsentForm({ onSubmitted }: { onSubmitted(response: FormSubmissionResponse): void }) {
  const client = useClient();
  const paymentInfo = usePaymentInfo();
  return (
    <ConsentForm
      variant={{ kind: 'client', client: client.data }}
      physician={{
        id: paymentInfo.data?.Physician_ID ?? '',
        lastName: paymentInfo.data?.Physician_Last_Name ?? '',
      }}
      paymentInfo={paymentInfo.data}
      onSubmitted={onSubmitted}
    />
  );
}
