import { Alert, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { isoDateOf, isoToUsDate } from '../../../../domain/dates';

/** An instant as the bank's calendar date, MM/DD/YYYY. */
export function bankDate(instant: string | null): string | null {
  if (!instant) return null;
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? null : isoToUsDate(isoDateOf(date));
}

/** A form that is done: the message of the spec, then the details and documents to download. */
export function CompletedNotice({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
      <Stack gap="xs">
        <Text fw={600}>{message}</Text>
        {children}
      </Stack>
    </Alert>
  );
}
