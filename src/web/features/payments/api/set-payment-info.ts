import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SetPaymentInfoRequest, SetPaymentInfoResponse } from '../../../../domain/payment-info';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';
import { storageRenewalQueryKey } from '../../../lib/payment/storage-renewal';

/** Saves a tokenized method; the key makes a double click or a retry one submission. */
export function setPaymentInfo(
  request: SetPaymentInfoRequest,
  idempotencyKey: string,
): Promise<SetPaymentInfoResponse> {
  return apiRequest('POST', 'pay/set_PaymentInfo', {
    body: request,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSetPaymentInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: SetPaymentInfoRequest; idempotencyKey: string }) =>
      setPaymentInfo(request, idempotencyKey),
    // The method on file, and the client's record and activity when the overdue years were paid.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey }),
        queryClient.invalidateQueries({ queryKey: clientQueryPrefix }),
        queryClient.invalidateQueries({ queryKey: storageRenewalQueryKey }),
      ]),
  });
}
