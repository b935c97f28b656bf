import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendStoragePlanInput, SendStoragePlanResponse } from '../../../../domain/storage-plans';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';

/** Orders the plans; the key makes a double click or a retry one order (and one charge). */
export function sendStoragePlan(body: SendStoragePlanInput, idempotencyKey: string) {
  return apiRequest<SendStoragePlanResponse>('POST', 'pay/send_StoragePlan', {
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSendStoragePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    // Built inside the mutation, so the loading state also covers the tokenizing.
    mutationFn: async ({
      buildRequest,
      idempotencyKey,
    }: {
      buildRequest: () => Promise<SendStoragePlanInput>;
      idempotencyKey: string;
    }) => sendStoragePlan(await buildRequest(), idempotencyKey),
    onSuccess: () => {
      // The paid-until date, the vials, Client Activity and the payment methods may all have changed.
      void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
      void queryClient.invalidateQueries();
    },
  });
}
