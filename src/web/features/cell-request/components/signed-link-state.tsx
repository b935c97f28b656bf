import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { ApiError } from '../../../lib/api-client';

/**
 * A public page opened from a signed link, before its own content: the link not valid (absent,
 * forged or expired: the server's 404), still loading, or failing; null once it has loaded.
 */
export function signedLinkState(
  token: string,
  link: { isPending: boolean; error: Error | null },
  invalid: string,
): ReactNode | null {
  if (token === '' || (link.error instanceof ApiError && link.error.status === 404)) {
    return (
      <Alert color="red" variant="light" role="alert">
        {invalid}
      </Alert>
    );
  }
  if (link.isPending) return <LoadingSpinner label="Loading" mx="auto" display="block" />;
  if (link.error) {
    return (
      <Alert color="red" variant="light" role="alert">
        {link.error.message}
      </Alert>
    );
  }
  return null;
}
