import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendStoreRequestInput, SendStoreRequestResponse } from '../../../../domain/store';
import { apiRequest } from '../../../lib/api-client';

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
    mutationFn: async ({
      buildRequest,
      idempotencyKey,
    }: {
      buildRequest: () => Promise<SendStoreRequestInput>;
      idempotencyKey: string;
    }) => sendStoreRequest(await buildRequest(), idempotencyKey),
    onSuccess: () => {
      void queryClient.invalidateQueries();
    },
  });
}
