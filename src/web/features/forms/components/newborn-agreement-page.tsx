import { Alert, Button, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { useParams } from 'react-router';
import {
  type ClientAgreementResponse,
  newbornAgreementMessages as m,
  NEWBORN_AGREEMENT_TITLE,
  newbornAgreementRows,
  newbornAgreementTerms,
} from '../../../../domain/newborn-agreement';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { useClientAgreement, useSignClientAgreement } from '../api/newborn-agreement';
import { CompletedNotice } from './completed-notice';
import { SignaturePadField } from './signature-pad';

const cents = (dollars: number) => Math.round(dollars * 100);

function rowsOf(agreement: ClientAgreementResponse) {
  return newbornAgreementRows({
    mainContact: agreement.Name,
    patientId: agreement.Patient_ID__c,
    annualBankingFeeCents: cents(agreement.Annual_Banking_Fee_Amount__c),
    bioInsuranceFeeCents: cents(agreement.Bio_Insurance_Fee_Amount__c),
    downPaymentCents: cents(agreement.Down_Payment__c),
    initialProcessingFeeCents: cents(agreement.Initial_Processing_Fee_Amount__c),
    interestRateBasisPoints: Math.round(agreement.Interest_Rate__c * 100),
    installments: agreement.Number_Of_Installments__c,
    totalFinancedCents: cents(agreement.Total_Amount_Financing__c),
  });
}

/**
 * The newborn finance agreement (spec 3): the main contact opens it from the link sent to them,
 * reads the plan and its terms, confirms a drawn signature and submits; signed once.
 */
export function NewbornAgreementPage() {
  const id = useParams().id ?? '';
  const agreement = useClientAgreement(id);
  const signing = useSignClientAgreement(id);
  const [signature, setSignature] = useState<string | null>(null);
  const [signatureError, setSignatureError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // A double click submits once: the second click comes before the button shows it is busy.
  const sending = useRef(false);

  const invalid =
    id === '' || (agreement.error instanceof ApiError && agreement.error.status === 404)
      ? m.invalidClient
      : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!signature) {
      setSignatureError(m.signature);
      document.querySelector<HTMLCanvasElement>('[data-testid="signature-canvas"]')?.focus();
      return;
    }
    if (sending.current) return;
    sending.current = true;
    signing.mutate(
      { ClientId: id, signatureData: signature, NBAgreementCompleted: true },
      {
        onSuccess: () => setDone(true),
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'ALREADY_COMPLETED') setDone(true);
          else setFailure(error.message);
        },
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };

  let body: ReactNode;
  if (invalid) {
    body = (
      <Alert color="red" variant="light" role="alert">
        {invalid}
      </Alert>
    );
  } else if (agreement.isPending) {
    body = <Loader aria-label="Loading the agreement" mx="auto" display="block" />;
  } else if (agreement.error) {
    body = (
      <Alert color="red" variant="light" role="alert">
        {agreement.error.message}
      </Alert>
    );
  } else if (done || agreement.data.NB_Finance_Agreement_Completed__c) {
    body = <CompletedNotice message={m.completed} />;
  } else {
    const rows = rowsOf(agreement.data);
    body = (
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <Table variant="vertical" withTableBorder layout="fixed">
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.label}>
                  <Table.Th w="50%">{row.label}</Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Stack gap="xs">
            <Title order={2} size="h4">
              Terms
            </Title>
            <List spacing={6} size="sm">
              {newbornAgreementTerms.map((term) => (
                <List.Item key={term}>{term}</List.Item>
              ))}
            </List>
            <Text size="sm">
              By signing below, I agree to pay the amounts above on the terms of this agreement.
            </Text>
          </Stack>
          <SignaturePadField
            value={signature}
            onChange={(value) => {
              setSignature(value);
              if (value) setSignatureError(undefined);
            }}
            error={signatureError}
            confirmLabel={m.confirmSignature}
            unsignedMessage={m.signature}
            disabled={signing.isPending}
          />
          <Stack gap={6}>
            <Button type="submit" loading={signing.isPending} style={{ alignSelf: 'flex-start' }}>
              Submit
            </Button>
            {failure && (
              <Text size="sm" c="red.9" role="alert">
                {failure}
              </Text>
            )}
          </Stack>
        </Stack>
      </form>
    );
  }

  return (
    <PublicShell title={NEWBORN_AGREEMENT_TITLE} width={720}>
      {body}
    </PublicShell>
  );
}
