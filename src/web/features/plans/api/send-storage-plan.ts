import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendStoragePlanInput, SendStoragePlanResponse } from '../../../../domain/storage-plans';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';

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
    mutationFn: ({ body, idempotencyKey }: { body: SendStoragePlanInput; idempotencyKey: string }) =>
      sendStoragePlan(body, idempotencyKey),
    onSuccess: () => {
      // The paid-until date, the vials and Client Activity (the client's queries); a method kept on file.
      void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
      void queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey });
    },
  });
}
