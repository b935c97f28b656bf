import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { SHIPPED_PRICE_AMOUNTS } from '../../domain/price-book';
import { priceBookQueryKey } from '../lib/price-book';
import { siteConfigQuery } from '../lib/site';

/** The bank's details as the tests' server has them (the demo placeholders). */
export const TEST_SITE_CONFIG = {
  contactUrl: 'https://www.stemcellbank.example.com/contact-us',
  bank: {
    name: 'ACT',
    phone: '3055550100',
    payee: 'Stem Cell Bank',
    remitTo: ['Attn: Accounts Receivable', '1450 Brickell Avenue, Suite 1900', 'Miami, FL 33131'],
    privacyUrl: 'https://www.stemcellbank.example.com/privacy',
  },
};

/**
 * Renders a component as the portal would: Mantine's theme and a query client that never retries,
 * holding the price book as shipped as the one in force (what GET /api/pay/price_book answers first).
 */
export function renderInPortal(ui: ReactElement) {
  const queries = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  queries.setQueryData(priceBookQueryKey, { version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
  queries.setQueryData(siteConfigQuery.queryKey, TEST_SITE_CONFIG);
  return render(
    <QueryClientProvider client={queries}>
      <MantineProvider>{ui}</MantineProvider>
    </QueryClientProvider>,
  );
}
