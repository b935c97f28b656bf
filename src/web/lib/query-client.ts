import { QueryClient } from '@tanstack/react-query';
import { ApiError, onAmountChanged } from './api-client';
import { priceBookQueryKey } from './price-book-key';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // The portal's own server is the only peer: always try it and show its answer or the
      // connection error, rather than wait silently on the browser's guess that it is offline.
      networkMode: 'always',
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
    },
    mutations: { networkMode: 'always' },
  },
});

// A refused amount may mean a new price book version took effect: the pages read it again.
onAmountChanged(() => {
  void queryClient.invalidateQueries({ queryKey: priceBookQueryKey });
});
