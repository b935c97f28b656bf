import { Alert, Text } from '@mantine/core';
import { useState } from 'react';
import {
  consentMessages,
  type FormDocuments,
  type FormSubmissionResponse,
} from '../../../../domain/consent-form';
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
  return <ConsentForm onSubmitted={setSubmitted} />;
}
