import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { StoreOrderSummary } from '../../../../domain/store';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';

export const storeOrdersQueryKey = ['store-orders'] as const;

/** get_StoreOrders: the client's store orders not yet shipped. */
export function useStoreOrdersToShip() {
  return useQuery({
    queryKey: storeOrdersQueryKey,
    queryFn: async () =>
      (await apiRequest<{ orders: StoreOrderSummary[] }>('GET', 'pay/get_StoreOrders')).orders,
  });
}

/**
 * cancel_StoreOrder: the client cancels one of their orders before it ships. One Idempotency-Key
 * per cancellation, kept across a retry after an error (a new one only after it went through).
 */
export function useCancelStoreOrder(id: string, onCancelled: (order: StoreOrderSummary) => void) {
  const queryClient = useQueryClient();
  const key = useRef(crypto.randomUUID());
  return useMutation({
    mutationFn: () =>
      apiRequest<StoreOrderSummary>('POST', 'pay/cancel_StoreOrder', {
        body: { id },
        headers: { 'idempotency-key': key.current },
      }),
    // Here, not as mutate()'s own callback: that one is dropped when the order's card has left the
    // page first (the list refetched while the answer was on its way), and the refund went unsaid.
    onSuccess: (order) => {
      onCancelled(order);
      key.current = crypto.randomUUID();
      // The order leaves the list; Client Activity gains the cancellation and the refund.
      void queryClient.invalidateQueries({ queryKey: storeOrdersQueryKey });
      void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
    },
  });
}
