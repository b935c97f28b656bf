import { Alert, Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { cellRequestMessages, type SendCellRequestResponse } from '../../../../domain/cell-request';
import { objectionDeadlineText } from '../../../../domain/cell-request-objection';
import { todayFor } from '../../../../domain/client';
import { formatUsd } from '../../../../domain/money';
import {
  type ReleaseReadiness,
  releaseRefusals,
  withAddressOnForm,
} from '../../../../domain/release-readiness';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { NoClientChosen } from '../../../components/no-client-chosen';
import { ReleaseChecklist } from '../../../components/release-checklist';
import { useClient } from '../../../lib/client-record';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import { subjectClientId, useSession } from '../../../lib/session';
import { useSiteConfig } from '../../../lib/site';
import { useClientPaymentInfo } from '../api/get-client-payment-info';
import { useReleaseReadiness } from '../api/get-release-readiness';
import { CellRequestDetail } from './cell-request-detail';
import { CellRequestForm } from './cell-request-form';

/**
 * /stem-cell-request (the form) and /stem-cell-request/{id} (one request and its timeline); in the
 * physician portal, /request-cells: the same form for the client acted for (issue 23).
 */
export function StemCellRequestPage() {
  const { id } = useParams();
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Stem Cell Request Form
      </Title>
      {id ? <CellRequestDetail id={id} /> : <OrderArea />}
    </Stack>
  );
}

function OrderArea() {
  const session = useSession();
  const clientId = subjectClientId(session.data);
  const client = useClient();
  const physician = session.data?.role === 'physician';
  // In physician pages get_PaymentInfo answers the physician's own; the client's is asked by id.
  const ownPaymentInfo = usePaymentInfo();
  const clientPaymentInfo = useClientPaymentInfo(physician ? clientId : null);
  const paymentInfo = physician ? clientPaymentInfo : ownPaymentInfo;
  const readiness = useReleaseReadiness(clientId);
  // The bank's phone fills a shipping phone the client has none of: the form starts with it.
  const site = useSiteConfig();
  const [done, setDone] = useState<SendCellRequestResponse | null>(null);
  // The form's own verification of the address with FedEx, which the server learns only on submit.
  const [addressVerified, setAddressVerified] = useState(false);

  if (physician && !clientId) {
    return <NoClientChosen page="/request-cells" purpose="to request cells for them" />;
  }
  if (done) {
    return (
      <Card withBorder padding="md" role="status">
        <Stack gap="xs">
          <Text fw={700} c="teal.9">
            {cellRequestMessages.submitted}
          </Text>
          <Text>
            {done.amountChargedCents > 0
              ? `We charged ${formatUsd(done.amountChargedCents)}${done.TransactionId ? ` (transaction ${done.TransactionId})` : ''}.`
              : 'Nothing was charged today.'}
            {done.request.shippingPriceToBeConfirmed
              ? ' The ACT VIP shipping price is to be confirmed: ACT will contact you.'
              : ''}
          </Text>
          {physician ? (
            <>
              <Text>
                The client was e-mailed the request with a link to object until{' '}
                {done.request.objectionDeadline
                  ? objectionDeadlineText(done.request.objectionDeadline)
                  : 'two business days from now'}
                ; the vials ship only after that.
              </Text>
              <Anchor component={Link} to="/cell-requests">
                View the client's cell requests
              </Anchor>
            </>
          ) : (
            <Anchor component={Link} to={`/stem-cell-request/${done.id}`}>
              View your request
            </Anchor>
          )}
        </Stack>
      </Card>
    );
  }
  const ownInfo = ownPaymentInfo.data;
  if (!client.data || !paymentInfo.data || !ownInfo || !readiness.data || !site.data || !clientId) {
    if (
      client.isError ||
      paymentInfo.isError ||
      ownPaymentInfo.isError ||
      readiness.isError ||
      site.isError
    ) {
      return (
        <Alert color="red" role="alert">
          The form could not be loaded. Please reload the page.
        </Alert>
      );
    }
    return <LoadingSpinner label="Loading" />;
  }
  const checklist = (
    <ReleaseChecklist
      readiness={withAddressOnForm(readiness.data, addressVerified)}
      links={session.data?.role === 'client'}
    />
  );
  const hold = holdOf(readiness.data, client.data.clientConsentFormCompleted, paymentInfo.data, physician);
  if (hold) {
    return (
      <Stack gap="md">
        {hold}
        {checklist}
      </Stack>
    );
  }
  const { overdueStorage } = readiness.data;
  return (
    <Stack gap="md">
      {checklist}
      <CellRequestForm
        client={client.data}
        paymentInfo={paymentInfo.data}
        {...(physician ? { physician: { paymentInfo: ownInfo } } : {})}
        clientId={clientId}
        today={todayFor(new Date())}
        {...(overdueStorage.addedToOrder ? { overdueStorage } : {})}
        onAmountChanged={() => void readiness.refetch()}
        onAddressVerifiedChange={setAddressVerified}
        onSubmitted={(response) => {
          setDone(response);
          window.scrollTo({ top: 0 });
        }}
      />
    </Stack>
  );
}

/**
 * What holds a new request, said before the form (the server refuses it too): the consent (the
 * spec's alert), no method on file (with overdue annual storage: the years to pay first), or the
 * three months after the Enrollment Date. A physician may pay with their own method: the client's
 * having none holds nothing.
 */
function holdOf(
  readiness: ReleaseReadiness,
  consentSigned: boolean,
  paymentInfo: { Credit_Card_Number?: string | null; Account_Number?: string | null },
  physician: boolean,
) {
  if (!consentSigned) {
    return (
      <Alert color="red" role="alert" title="Alert!">
        <Text>{cellRequestMessages.consentRequired}</Text>
        <Anchor
          component={Link}
          to={physician ? '/client-consent' : '/form-document/Consent-form'}
          c="red.9"
          underline="always"
        >
          Complete the client consent
        </Anchor>
      </Alert>
    );
  }
  const overdue = readiness.overdueStorage;
  if (overdue.years > 0 && !overdue.addedToOrder) {
    return (
      <Alert color="red" role="alert" title="Annual storage overdue">
        <Text>{releaseRefusals.storageOverdue(overdue.years, overdue.amountCents)}</Text>
        {!physician && (
          <Anchor component={Link} to="/payment-information" c="red.9" underline="always">
            Pay the overdue annual storage
          </Anchor>
        )}
      </Alert>
    );
  }
  if (!physician && !paymentInfo.Credit_Card_Number && !paymentInfo.Account_Number) {
    return (
      <Alert color="red" role="alert" title="No payment information on file">
        <Text>{cellRequestMessages.paymentInfoRequired}</Text>
        <Anchor component={Link} to="/payment-information" c="red.9" underline="always">
          Update payment information
        </Anchor>
      </Alert>
    );
  }
  const enrollment = readiness.items.find((i) => i.key === 'enrollment');
  if (enrollment?.holdsRequest) {
    return (
      <Alert color="blue" role="alert" title="Not yet">
        <Text>{enrollment.text}</Text>
      </Alert>
    );
  }
  return null;
}
