import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';

/** Renders a component as the portal would: Mantine's theme and a query client that never retries. */
export function renderInPortal(ui: ReactElement) {
  const queries = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queries}>
      <MantineProvider>{ui}</MantineProvider>
    </QueryClientProvider>,
  );
}
