import { Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { whiteGloveQuote, whiteGloveTotalLine } from '../../../../domain/infectious-disease';
import { formatUsd } from '../../../../domain/money';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { cardFeePercent } from '../../../../domain/payments';
import { FormPaymentChoice } from '../../../components/payment/form-payment-choice';
import type { PaymentChoice } from '../../../lib/payment/payment-choice';
import { usePriceBook } from '../../../lib/price-book';

export const KIT_ADDRESS_FIELDS = [
  { field: 'FirstName', label: 'First Name', autoComplete: 'given-name' },
  { field: 'LastName', label: 'Last Name', autoComplete: 'family-name' },
  { field: 'Street', label: 'Street', autoComplete: 'address-line1' },
  { field: 'City', label: 'City', autoComplete: 'address-level2' },
  { field: 'State', label: 'State', autoComplete: 'address-level1' },
  { field: 'ZipCode', label: 'Zip Code', autoComplete: 'postal-code' },
  { field: 'Country', label: 'Country', autoComplete: 'country-name' },
] as const;

export type KitAddress = Record<(typeof KIT_ADDRESS_FIELDS)[number]['field'], string>;

const WHITE_GLOVE_METHODS = ['Credit Card', 'ACH Payment'] as const;
/** A physician pays with their own card (spec 2: "saved card with Use Another Credit Card"). */
const PHYSICIAN_METHODS = ['Credit Card'] as const;

interface Props {
  address: KitAddress;
  onAddressChange(address: KitAddress): void;
  payment: PaymentChoice;
  onPaymentChange(payment: PaymentChoice): void;
  paymentInfo: PaymentInfo | undefined;
  errors: Record<string, string>;
  today: string;
  disabled: boolean;
  /** The physician variant: their own card only, the street not required, the spec's total line. */
  variant?: 'client' | 'physician';
}

/** The itemised amount: the lab fee, the card fee (none by ACH) and the total that is charged. */
function WhiteGloveAmount({
  method,
  variant,
}: {
  method: PaymentChoice['method'];
  variant: 'client' | 'physician';
}) {
  const book = usePriceBook();
  if (method !== 'Credit Card' && method !== 'ACH Payment') {
    return (
      <Text size="sm">
        White Glove Labs fee: {formatUsd(book.whiteGloveLabFee)}. Card payments add a {cardFeePercent(book)}{' '}
        processing fee; ACH payments have none.
      </Text>
    );
  }
  const quote = whiteGloveQuote(book, method);
  // One total in bold, what is charged; the spec's total line of the physician variant is the lab's.
  return (
    <Paper withBorder p="md" radius="md" bg="gray.0" aria-live="polite">
      <Stack gap={4}>
        {variant === 'physician' && <Text size="sm">{whiteGloveTotalLine(book)}</Text>}
        <Text size="sm">White Glove Labs fee: {formatUsd(quote.labFee)}</Text>
        {method === 'Credit Card' && (
          <Text size="sm">
            Credit card processing fee ({cardFeePercent(book)}): {formatUsd(quote.processingFee)}
          </Text>
        )}
        <Text fw={700}>
          {variant === 'physician' ? 'Total charged to your card' : 'Total'}: {formatUsd(quote.total)}
        </Text>
      </Stack>
    </Paper>
  );
}

/** White Glove Labs: where the blood draw kit goes, and how the lab fee is paid. */
export function WhiteGloveSection({
  address,
  onAddressChange,
  payment,
  onPaymentChange,
  paymentInfo,
  errors,
  today,
  disabled,
  variant = 'client',
}: Props) {
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={3} size="h4">
          Shipping address for the blood draw kit
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {KIT_ADDRESS_FIELDS.map(({ field, label, autoComplete }) => (
            <TextInput
              key={field}
              label={label}
              name={field}
              autoComplete={autoComplete}
              value={address[field]}
              onChange={(e) => onAddressChange({ ...address, [field]: e.currentTarget.value })}
              error={errors[field]}
              disabled={disabled}
              required={variant === 'client' || field !== 'Street'}
            />
          ))}
        </SimpleGrid>
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h4">
          Payment
        </Title>
        <FormPaymentChoice
          methods={variant === 'client' ? WHITE_GLOVE_METHODS : PHYSICIAN_METHODS}
          payer={variant}
          value={payment}
          onChange={onPaymentChange}
          info={paymentInfo}
          errors={errors}
          today={today}
          disabled={disabled}
        />
        <WhiteGloveAmount method={payment.method} variant={variant} />
      </Stack>
    </Stack>
  );
}
