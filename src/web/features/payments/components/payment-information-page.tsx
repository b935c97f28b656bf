import { Alert, Anchor, Breadcrumbs, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconBuildingBank, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatUsd } from '../../../../domain/money';
import { PAYMENT_INFO_UPDATED, type SetPaymentInfoResponse } from '../../../../domain/payment-info';
import { cardFeePercent } from '../../../../domain/payments';
import { CardBrandMark } from '../../../components/payment/card-brand-mark';
import { usePaymentInfo } from '../../../lib/payment/get-payment-info';
import { useStorageRenewal } from '../../../lib/payment/storage-renewal';
import { usePriceBook } from '../../../lib/price-book';
import { PaymentMethodEditor } from './payment-method-editor';

/**
 * The card and the bank account on file, each with its own editor: opening one keeps what was typed
 * in the other. A save refreshes what the portal shows (the mutation invalidates the queries), with
 * no reload of the page.
 */
export function PaymentInformationPage() {
  const book = usePriceBook();
  const info = usePaymentInfo();
  const [editingCard, setEditingCard] = useState(false);
  const [editingAch, setEditingAch] = useState(false);
  const [saved, setSaved] = useState<SetPaymentInfoResponse | null>(null);
  const savedWith = (close: () => void) => (response: SetPaymentInfoResponse) => {
    close();
    setSaved(response);
  };
  const openCard = () => {
    setSaved(null);
    setEditingCard(true);
  };
  const openAch = () => {
    setSaved(null);
    setEditingAch(true);
  };

  const data = info.data;
  const renewal = useStorageRenewal();
  const overdue = data?.Total_Amount_Overdue ?? 0;

  return (
    <Stack gap="lg" maw={960}>
      <Breadcrumbs aria-label="You are here">
        <Anchor component={Link} to="/client-information" size="sm">
          Client Portal
        </Anchor>
        <Text size="sm">Payment Information</Text>
      </Breadcrumbs>
      <Title order={1} size="h2">
        Payment Information
      </Title>

      {overdue > 0 && (
        <Alert color="red" variant="filled" role="alert">
          Total Amount Overdue = {formatUsd(Math.round(overdue * 100))} (this amount is the sum of all annual
          storage overdue payments)
        </Alert>
      )}
      {renewal.data?.retryingOn && <Text fw={700}>{renewal.data.retryingOn}</Text>}
      {renewal.data?.nextCharge && (
        <Text>
          <Text component="span" fw={700} inherit>
            Next annual storage charge:
          </Text>{' '}
          {renewal.data.nextCharge}
        </Text>
      )}
      {renewal.data?.expiring && (
        <Alert color="yellow" variant="light" role="status">
          {renewal.data.expiring}
        </Alert>
      )}
      <Stack gap={4}>
        <Text size="sm">
          Please provide valid payment information below; it is stored securely with our payment processor.
        </Text>
        <Text size="sm">
          This payment method will be charged for any overdue annual storage fees and, if you have no other
          method on file, used for future annual storage fees.
        </Text>
      </Stack>

      {info.isError && (
        <Alert color="red" role="alert">
          {info.error.message}
        </Alert>
      )}

      {saved && (
        <Alert
          color="green"
          icon={<IconCircleCheck aria-hidden />}
          role="status"
          title={PAYMENT_INFO_UPDATED}
        >
          {saved.amountCharged > 0 && (
            <Text size="sm">
              We charged {formatUsd(Math.round(saved.amountCharged * 100))} for your overdue annual storage
              {saved.processingFee > 0
                ? `, including a ${formatUsd(Math.round(saved.processingFee * 100))} card processing fee`
                : ''}
              . Transaction {saved.TransactionId}.
            </Text>
          )}
        </Alert>
      )}
      {data && (
        <>
          <Card withBorder radius="md" component="section" aria-labelledby="card-on-file">
            <Title order={2} size="h4" id="card-on-file" mb="sm">
              Current Payment Method Secured For Annual Banking
            </Title>
            <Group gap="md" align="center" wrap="nowrap">
              <CardBrandMark brand={data.Credit_Card_Type} />
              {data.Credit_Card_Number ? (
                <Stack gap={2}>
                  <Text fw={600}>Credit Card ending in {data.Credit_Card_Number.slice(-4)}</Text>
                  <Text size="sm">
                    Name on card:{' '}
                    {data.Credit_Card_Holder_First_Name
                      ? `${data.Credit_Card_Holder_First_Name} ${data.Credit_Card_Holder_Last_Name ?? ''}`.trim()
                      : 'NA'}
                  </Text>
                  <Text size="sm">
                    Expires:{' '}
                    {data.Month_of_Expiry && data.Year_of_Expiry
                      ? `${data.Month_of_Expiry} / ${data.Year_of_Expiry}`
                      : 'NA'}
                  </Text>
                </Stack>
              ) : (
                <Stack gap={2}>
                  <Text fw={600}>No card on file</Text>
                  <Text size="sm">Add a card to pay your annual storage.</Text>
                </Stack>
              )}
            </Group>
            {editingCard ? (
              <Stack mt="md">
                <PaymentMethodEditor
                  kind="card"
                  overdue={data.overdueCharges.card}
                  onCancel={() => setEditingCard(false)}
                  onSaved={savedWith(() => setEditingCard(false))}
                />
              </Stack>
            ) : (
              <Group mt="md">
                {/* "Edit" whether a card is on file or not, as spec 1 names it. */}
                <Button onClick={openCard} aria-label="Edit credit card">
                  Edit
                </Button>
              </Group>
            )}
          </Card>

          <Card withBorder radius="md" component="section" aria-labelledby="ach-on-file">
            <Title order={2} size="h4" id="ach-on-file" mb="sm">
              ACH Payment
            </Title>
            <Group gap="md" align="center" wrap="nowrap">
              <IconBuildingBank size={40} aria-hidden />
              {data.Account_Number ? (
                <Stack gap={2}>
                  <Text fw={600}>Account Number Ending in {data.Account_Number}</Text>
                  <Text size="sm">Name on account: {data.Name_On_Account ?? 'NA'}</Text>
                </Stack>
              ) : (
                <Stack gap={2}>
                  <Text fw={600}>No bank account on file</Text>
                  <Text size="sm">ACH payments carry no processing fee.</Text>
                </Stack>
              )}
            </Group>
            {editingAch ? (
              <Stack mt="md">
                <PaymentMethodEditor
                  kind="ach"
                  overdue={data.overdueCharges.ach}
                  onCancel={() => setEditingAch(false)}
                  onSaved={savedWith(() => setEditingAch(false))}
                />
              </Stack>
            ) : (
              <Group mt="md">
                <Button onClick={openAch} aria-label="Edit ACH payment">
                  Edit
                </Button>
              </Group>
            )}
          </Card>
          <Text size="xs" c="gray.7">
            A {cardFeePercent(book)} processing fee applies to card payments; ACH payments have none.
          </Text>
        </>
      )}
    </Stack>
  );
}
