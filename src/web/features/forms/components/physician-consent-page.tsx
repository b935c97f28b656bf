import { Alert, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Navigate } from 'react-router';
import {
  consentMessages,
  type FormSubmissionResponse,
  physicianConsentMessages,
} from '../../../../domain/consent-form';
import { subjectClientId, useSession } from '../../../lib/session';
import { useSiteConfig } from '../../../lib/site';
import { usePhysicianConsent } from '../api/get-physician-consent';
import { bankDate, CompletedNotice } from './completed-notice';
import { ConsentForm } from './consent-form';
import { DocumentLink } from './document-link';

/**
 * ACT Client Consent of the Physician Portal (spec 2, the physician variant): the consent of the
 * client the physician acts for, read and signed by the client in the clinic, with the client's
 * details entered or corrected by the physician. Without a chosen client it sends the physician
 * to My Clients to choose one.
 */
export function PhysicianConsentPage() {
  const session = useSession();
  const clientId = subjectClientId(session.data);
  const consent = usePhysicianConsent(clientId);
  // Spec 2: "titled as a client consent of the company" (the bank's name is COMPANY_NAME).
  const bankName = useSiteConfig().data?.bank.name;
  const [submitted, setSubmitted] = useState<FormSubmissionResponse | null>(null);
  if (!clientId) return <Navigate to="/my-clients" replace />;

  const data = consent.data;
  let content = null;
  if (submitted) {
    // The confirmation stays in place of the form while the refreshed answers arrive behind it.
    content = (
      <CompletedNotice message={physicianConsentMessages.submitted}>
        <Text size="sm">{physicianConsentMessages.consentSaved}</Text>
        {submitted.documentId && (
          <DocumentLink documentId={submitted.documentId}>Download signed agreement (PDF)</DocumentLink>
        )}
      </CompletedNotice>
    );
  } else if (data?.completed) {
    const signedOn = bankDate(data.signedAt);
    content = (
      <CompletedNotice message={consentMessages.alreadyCompleted}>
        {signedOn && <Text size="sm">Signed on {signedOn}.</Text>}
        {data.documentId && (
          <DocumentLink documentId={data.documentId}>Download signed agreement (PDF)</DocumentLink>
        )}
      </CompletedNotice>
    );
  } else if (data && !data.initialProcessingFormCompleted) {
    content = (
      <Alert color="yellow" variant="light" role="status">
        <Text fw={600}>{consentMessages.initialProcessingFirst}</Text>
      </Alert>
    );
  } else if (data) {
    content = (
      <ConsentForm
        key={clientId}
        variant={{ kind: 'physician', clientDetails: data.client }}
        physician={{ id: data.physician.PhysicianId, lastName: data.physician.PhysicianLastName }}
        paymentInfo={data.pay_info}
        onSubmitted={setSubmitted}
      />
    );
  }

  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1} size="h2">
          {bankName ? `${bankName} Client Consent` : 'Client Consent'}
        </Title>
        {data && (
          <Text size="sm">
            Client Consent and Service Agreement of {data.client.FirstName} {data.client.LastName} (Client ID{' '}
            {data.clientACTId}). The client reads the agreement, answers and signs on this screen in your
            presence; the annual storage is paid by the client&apos;s own card, bank account or check.
          </Text>
        )}
      </Stack>
      {consent.isError && (
        <Alert color="red" role="alert">
          {consent.error.message}
        </Alert>
      )}
      {content}
    </Stack>
  );
}
