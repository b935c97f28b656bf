import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { todayFor } from '../../../../domain/client';
import {
  diseaseMessages,
  type PhysicianDiseaseResponse,
  type VerifyPhysicianClientResponse,
} from '../../../../domain/infectious-disease';
import { formatUsd } from '../../../../domain/money';
import { cardFeePercent } from '../../../../domain/payments';
import { useClient } from '../../../lib/client-record';
import { usePriceBook } from '../../../lib/price-book';
import {
  ClientIdentificationSection,
  type ClientIdentificationValues,
  emptyIdentification,
  identificationRequest,
} from './client-identification';
import { CompletedNotice } from './completed-notice';
import { DiseaseForm } from './disease-form';
import { DocumentLink } from './document-link';

const dollars = (amount: number) => formatUsd(Math.round(amount * 100));

/** What was submitted for whom, and what was charged to the physician's card. */
function Submitted({ response, onAnother }: { response: PhysicianDiseaseResponse; onAnother(): void }) {
  const book = usePriceBook();
  const charged = response.charged;
  return (
    <CompletedNotice message={diseaseMessages.submitted}>
      <Text size="sm">
        Submitted for {response.ClientName} ({response.ClientId}).
      </Text>
      {charged && (
        <Text size="sm" data-testid="amount-charged">
          Charged {dollars(charged.total)} to your {charged.brand ?? 'card'} ending in {charged.last4}: White
          Glove Labs fee {dollars(charged.labFee)} + credit card processing fee ({cardFeePercent(book)}){' '}
          {dollars(charged.processingFee)}. Transaction {response.TransactionId}.
        </Text>
      )}
      {response.documentId && (
        <DocumentLink documentId={response.documentId}>Download the submission (PDF)</DocumentLink>
      )}
      <Button variant="light" size="xs" w="fit-content" onClick={onAnother}>
        Submit the form for another client
      </Button>
    </CompletedNotice>
  );
}

/**
 * Client Infectious Disease Form of the Physician Portal (spec 2): the physician confirms one of
 * their clients, then submits the screening for them. The client the session acts for fills the
 * identification in; confirming another client makes them the one acted for, so the header always
 * names the client the form is for.
 */
export function PhysicianDiseasePage() {
  const today = todayFor(new Date());
  const actingFor = useClient();
  const [identification, setIdentification] = useState<ClientIdentificationValues>(emptyIdentification);
  const [confirmed, setConfirmed] = useState<VerifyPhysicianClientResponse | null>(null);
  const [submitted, setSubmitted] = useState<PhysicianDiseaseResponse | null>(null);
  const [round, setRound] = useState(0);

  // The client acted for, once known, fills the identification in while it is still untouched.
  const prefilled = useRef(false);
  useEffect(() => {
    const record = actingFor.data;
    if (!record || prefilled.current) return;
    prefilled.current = true;
    setIdentification((current) =>
      current === emptyIdentification
        ? {
            ...emptyIdentification,
            ClientInfo: 'client_id',
            ClientId: record.clientACTId,
            ClientLastname: record.lastName,
          }
        : current,
    );
  }, [actingFor.data]);

  const another = () => {
    setSubmitted(null);
    setConfirmed(null);
    setIdentification(emptyIdentification);
    setRound((n) => n + 1);
  };

  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        Client Infectious Disease Form
      </Title>
      <Text size="sm">
        White Glove Labs is paid with your own card: the one on file, or another card you enter.{' '}
        <Anchor component={Link} to="/my-clients" size="sm">
          Back to My Clients
        </Anchor>
      </Text>
      {submitted ? (
        <Submitted response={submitted} onAnother={another} />
      ) : (
        <DiseaseForm
          key={round}
          variant={{
            kind: 'physician',
            identification: (errors) => (
              <ClientIdentificationSection
                value={identification}
                onChange={setIdentification}
                confirmed={confirmed}
                onConfirmed={setConfirmed}
                errors={errors}
                today={today}
                disabled={false}
              />
            ),
            identificationRequest: () => identificationRequest(identification),
            confirmed,
            onSubmitted: setSubmitted,
          }}
        />
      )}
    </Stack>
  );
}
