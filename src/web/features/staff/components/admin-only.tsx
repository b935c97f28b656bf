import { Alert, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useStaffSession } from '../api/staff-session';

/** What a failed call says on an admin page: the server's message, or a plain one. */
export function errorText(error: unknown): string | null {
  if (!error) return null;
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}

/** A section whose list could not be read: the reason, as an alert. */
export function LoadFailure({ error }: { error: unknown }) {
  return (
    <Alert color="red" role="alert">
      {errorText(error)}
    </Alert>
  );
}

/** An admin page: a `staff`-level member sees the not-found page a missing address shows. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const session = useStaffSession();
  if (session.data?.stage !== 'signed-in') return null;
  if (session.data.staff.level !== 'admin') {
    return (
      <Stack maw={640} align="flex-start">
        <Title order={1} size="h2">
          Page not found
        </Title>
        <Text>There is no page at this address. It may have been moved, or the link may be mistyped.</Text>
      </Stack>
    );
  }
  return <>{children}</>;
}
