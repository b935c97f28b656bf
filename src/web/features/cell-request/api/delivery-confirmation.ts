import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeliveryLinkView } from '../../../../domain/shipment';
import { apiRequest } from '../../../lib/api-client';

const deliveryKey = (token: string) => ['delivery-confirmation', token] as const;

/** The package a clinic's delivery link names, and its answer if given. */
export function useDeliveryLink(token: string) {
  return useQuery({
    queryKey: deliveryKey(token),
    queryFn: () => apiRequest<DeliveryLinkView>('GET', 'pay/get_DeliveryConfirmation', { query: { token } }),
    enabled: token !== '',
    retry: false,
  });
}

/** The clinic's answer: recorded once; the server answers the first if sent again. */
export function useConfirmDelivery(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (answer: { arrivedFrozen: boolean; note: string }) =>
      apiRequest<DeliveryLinkView>('POST', 'pay/confirm_Delivery', { body: { token, ...answer } }),
    onSuccess: (view) => queryClient.setQueryData(deliveryKey(token), view),
  });
}
