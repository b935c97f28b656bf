import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { SendProcessDataResponse } from '../../../../domain/initial-processing';
import { formatUsd } from '../../../../domain/money';
import { Instructions } from './instructions';
import { SampleForm } from './sample-form';

/** What was done, after a successful submission: the spec's message and the new Client ID. */
function Submitted({ response, onAnother }: { response: SendProcessDataResponse; onAnother(): void }) {
  const cents = (dollars: number) => Math.round(dollars * 100);
  return (
    <Stack>
      <Alert color="green" role="status">
        <Stack gap={4}>
          <Text fw={700}>{response.message}</Text>
          <Text size="sm">New Client ID: {response.ClientId}</Text>
          {response.paymentKind === 'card' ? (
            <Text size="sm">
              Charged {formatUsd(cents(response.amountCharged))} to the card ending in {response.cardLast4}{' '}
              (transaction {response.TransactionId})
            </Text>
          ) : (
            <Text size="sm">Check to put in the shipment: {formatUsd(cents(response.amountDue))}</Text>
          )}
          <Text size="sm">The client was e-mailed a link to set their password.</Text>
        </Stack>
      </Alert>
      <Group>
        <Button onClick={onAnother}>Submit another sample</Button>
        <Anchor component={Link} to="/my-clients">
          Back to My Clients
        </Anchor>
      </Group>
    </Stack>
  );
}

/**
 * Initial Sample Processing (spec 2): page 1 the instructions, page 2 the new sample form,
 * confirmed before it is sent; then the confirmation.
 */
export function InitialProcessingPage() {
  const [page, setPage] = useState<1 | 2>(1);
  const [submitted, setSubmitted] = useState<SendProcessDataResponse | null>(null);
  // A new form for each sample: nothing typed for the last client stays.
  const [formKey, setFormKey] = useState(0);

  const goTo = (next: 1 | 2) => {
    setPage(next);
    window.scrollTo({ top: 0 });
  };

  return (
    <Stack>
      <Title order={1} size="h2">
        Initial Sample Processing
      </Title>
      {submitted ? (
        <Submitted
          response={submitted}
          onAnother={() => {
            setSubmitted(null);
            setFormKey((k) => k + 1);
            goTo(1);
          }}
        />
      ) : page === 1 ? (
        <>
          <Text c="gray.7">Page 1 of 2: instructions</Text>
          <Instructions onNext={() => goTo(2)} />
        </>
      ) : (
        <>
          <Text c="gray.7">Page 2 of 2: new sample form</Text>
          <SampleForm
            key={formKey}
            onPrevious={() => goTo(1)}
            onSubmitted={(response) => {
              setSubmitted(response);
              window.scrollTo({ top: 0 });
            }}
          />
        </>
      )}
    </Stack>
  );
}
