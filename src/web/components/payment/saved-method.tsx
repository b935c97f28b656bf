import { Group, Paper, Stack, Text } from '@mantine/core';
import { IconBuildingBank, IconCreditCard } from '@tabler/icons-react';
import type { PaymentInfo } from '../../../domain/payment-info';

/** The card on file as the forms show it: brand, the last 4 digits only, holder and expiry. */
export function SavedCard({ info }: { info: PaymentInfo }) {
  const holder = [info.Credit_Card_Holder_First_Name, info.Credit_Card_Holder_Last_Name]
    .filter(Boolean)
    .join(' ');
  return (
    <Paper withBorder p="sm" radius="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconCreditCard size={28} aria-hidden />
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            Credit card on file
          </Text>
          <Text fw={600}>
            {info.Credit_Card_Type ?? 'Card'} {info.Credit_Card_Number}
          </Text>
          {holder && <Text size="sm">Name on card: {holder}</Text>}
          {info.Month_of_Expiry && info.Year_of_Expiry && (
            <Text size="sm">
              Expires: {info.Month_of_Expiry}/{info.Year_of_Expiry}
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

/** The bank account on file: the last digits only and the name (spec 1 section 2), no routing number. */
export function SavedAch({ info }: { info: PaymentInfo }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconBuildingBank size={28} aria-hidden />
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            Bank account on file
          </Text>
          <Text fw={600}>Account {info.Account_Number}</Text>
          {info.Name_On_Account && <Text size="sm">Name on account: {info.Name_On_Account}</Text>}
        </Stack>
      </Group>
    </Paper>
  );
}
