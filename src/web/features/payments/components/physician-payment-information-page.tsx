import { Alert, Anchor, Breadcrumbs, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconBuildingBank, IconCircleCheck } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { PAYMENT_INFO_UPDATED, type PaymentInfo } from '../../../../domain/payment-info';
import { CardBrandMark } from '../../../components/payment/card-brand-mark';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import { useRemovePhysicianPaymentInfo } from '../api/remove-physician-payment-info';
import { PhysicianPaymentMethodEditor } from './payment-method-editor';

type Kind = 'card' | 'ach';

/** What happened last on the page: a method saved or removed (its message), shown until the next action. */
type Outcome = { message: string } | null;

/**
 * The physician's own card and bank account on file (issue 23): the method that pays for their
 * clients when a form or the store is paid with the one on file. Each can be replaced (tokenized in
 * the browser, as on the client's page) or removed after a confirmation; nothing is charged here.
 * GET get_PaymentInfo answers the physician's own methods in a physician session.
 */
export function PhysicianPaymentInformationPage() {
  const info = usePaymentInfo();
  const [editing, setEditing] = useState<Kind | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const data = info.data;

  const open = (kind: Kind) => {
    setOutcome(null);
    setEditing(kind);
  };
  const done = (message: string) => {
    setEditing(null);
    setOutcome({ message });
  };

  return (
    <Stack gap="lg" maw={960}>
      <Breadcrumbs aria-label="You are here">
        <Anchor component={Link} to="/my-clients" size="sm">
          Physician Portal
        </Anchor>
        <Text size="sm">Payment Information</Text>
      </Breadcrumbs>
      <Title order={1} size="h2">
        Payment Information
      </Title>
      <Stack gap={4}>
        <Text size="sm">
          Your own card or bank account, stored securely with our payment processor. It pays for your clients
          when you choose the card or account on file in the Physician Portal's forms and store.
        </Text>
        <Text size="sm">Saving or removing it here charges nothing.</Text>
      </Stack>

      {info.isError && (
        <Alert color="red" role="alert">
          {info.error.message}
        </Alert>
      )}
      {outcome && (
        <Alert color="green" icon={<IconCircleCheck aria-hidden />} role="status">
          <Text fw={700}>{outcome.message}</Text>
        </Alert>
      )}

      {data && (
        <>
          <MethodCard
            kind="card"
            title="Card on file"
            heading="physician-card-on-file"
            icon={<CardBrandMark brand={data.Credit_Card_Type} />}
            summary={cardSummary(data)}
            empty={{ title: 'No card on file', add: 'Add a card' }}
            editing={editing === 'card'}
            onEdit={() => open('card')}
            onClose={() => setEditing(null)}
            onDone={done}
            onStart={() => setOutcome(null)}
          />
          <MethodCard
            kind="ach"
            title="Bank account on file (ACH)"
            heading="physician-ach-on-file"
            icon={<IconBuildingBank size={40} aria-hidden />}
            summary={achSummary(data)}
            empty={{ title: 'No bank account on file', add: 'Add a bank account' }}
            editing={editing === 'ach'}
            onEdit={() => open('ach')}
            onClose={() => setEditing(null)}
            onDone={done}
            onStart={() => setOutcome(null)}
          />
        </>
      )}
    </Stack>
  );
}

/** How a method on file reads: its name for the buttons and the confirmation, and its lines. */
interface Summary {
  name: string;
  lines: ReactNode[];
}

function cardSummary(data: PaymentInfo): Summary | null {
  if (!data.Credit_Card_Number) return null;
  const last4 = data.Credit_Card_Number.slice(-4);
  const holder = [data.Credit_Card_Holder_First_Name, data.Credit_Card_Holder_Last_Name]
    .filter(Boolean)
    .join(' ');
  return {
    name: `${data.Credit_Card_Type ?? 'Card'} ending in ${last4}`,
    lines: [
      <Text key="number" fw={600}>
        Credit Card ending in {last4}
      </Text>,
      <Text key="holder" size="sm">
        Name on card: {holder || 'NA'}
      </Text>,
      <Text key="expiry" size="sm">
        Expires:{' '}
        {data.Month_of_Expiry && data.Year_of_Expiry
          ? `${data.Month_of_Expiry} / ${data.Year_of_Expiry}`
          : 'NA'}
      </Text>,
    ],
  };
}

function achSummary(data: PaymentInfo): Summary | null {
  if (!data.Account_Number) return null;
  const last4 = data.Account_Number.slice(-4);
  return {
    name: `bank account ending in ${last4}`,
    lines: [
      <Text key="number" fw={600}>
        Account Number Ending in {data.Account_Number}
      </Text>,
      <Text key="name" size="sm">
        Name on account: {data.Name_On_Account ?? 'NA'}
      </Text>,
    ],
  };
}

interface MethodCardProps {
  kind: Kind;
  title: string;
  heading: string;
  icon: ReactNode;
  summary: Summary | null;
  empty: { title: string; add: string };
  editing: boolean;
  onEdit(): void;
  onClose(): void;
  onDone(message: string): void;
  /** A new action began (a removal asked for): the last outcome goes. */
  onStart(): void;
}

/** One method on file: what it is, and Replace and Remove (or Add when there is none). */
function MethodCard(props: MethodCardProps) {
  const { kind, summary, empty, editing } = props;
  const [confirming, setConfirming] = useState(false);
  const removal = useRemovePhysicianPaymentInfo();
  const noun = kind === 'card' ? 'card' : 'bank account';

  const remove = async () => {
    try {
      const answer = await removal.mutateAsync({ Payment_Type: kind === 'card' ? 'CC' : 'ACH' });
      setConfirming(false);
      props.onDone(answer.message);
    } catch {
      // The failure shows under the confirmation; the method stays as it was.
    }
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby={props.heading}>
      <Title order={2} size="h4" id={props.heading} mb="sm">
        {props.title}
      </Title>
      <Group gap="md" align="center" wrap="nowrap">
        {props.icon}
        <Stack gap={2} miw={0}>
          {summary ? summary.lines : <Text fw={600}>{empty.title}</Text>}
        </Stack>
      </Group>
      {editing ? (
        <Stack mt="md">
          <PhysicianPaymentMethodEditor
            kind={kind}
            onCancel={props.onClose}
            onSaved={() => props.onDone(PAYMENT_INFO_UPDATED)}
          />
        </Stack>
      ) : confirming && summary ? (
        <Alert
          mt="md"
          color="red"
          variant="light"
          role="alertdialog"
          aria-labelledby={`${props.heading}-confirm`}
          title={<span id={`${props.heading}-confirm`}>Remove the {summary.name}?</span>}
        >
          <Stack gap="sm">
            <Text size="sm">
              Forms and the store will ask for a new {noun} until you add one. Payments already made are not
              affected.
            </Text>
            <Group>
              <Button color="red" onClick={remove} loading={removal.isPending}>
                Remove {noun}
              </Button>
              <Button variant="default" onClick={() => setConfirming(false)} disabled={removal.isPending}>
                Keep it
              </Button>
            </Group>
            {removal.isError && (
              <Text size="sm" c="red.8" role="alert">
                {removal.error.message}
              </Text>
            )}
          </Stack>
        </Alert>
      ) : (
        <Group mt="md">
          {summary ? (
            <>
              <Button onClick={props.onEdit} aria-label={`Replace ${noun}`}>
                Replace
              </Button>
              <Button
                variant="default"
                color="red"
                aria-label={`Remove ${noun}`}
                onClick={() => {
                  props.onStart();
                  removal.reset();
                  setConfirming(true);
                }}
              >
                Remove
              </Button>
            </>
          ) : (
            <Button onClick={props.onEdit}>{empty.add}</Button>
          )}
        </Group>
      )}
    </Card>
  );
}
