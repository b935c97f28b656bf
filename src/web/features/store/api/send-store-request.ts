import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendStoreRequestInput, SendStoreRequestResponse } from '../../../../domain/store';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';
import { storeOrdersQueryKey } from './store-orders';

/** Orders the serum; the key makes a double click or a retry one order (and one charge). */
export function sendStoreRequest(body: SendStoreRequestInput, idempotencyKey: string) {
  return apiRequest<SendStoreRequestResponse>('POST', 'pay/send_CP_StoreRequest', {
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSendStoreRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SendStoreRequestInput; idempotencyKey: string }) =>
      sendStoreRequest(body, idempotencyKey),
    // Client Activity and a saved address (the client's record), a card or account kept on file, the orders to ship.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
      void queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey });
      void queryClient.invalidateQueries({ queryKey: storeOrdersQueryKey });
    },
  });
}
