import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SetPaymentInfoResponse, SetPhysicianPaymentInfoRequest } from '../../../../domain/payment-info';
import { apiRequest } from '../../../lib/api-client';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';

/** Saves a tokenized card or account as the physician's own; the key makes a retry one submission. */
export function setPhysicianPaymentInfo(
  request: SetPhysicianPaymentInfoRequest,
  idempotencyKey: string,
): Promise<SetPaymentInfoResponse> {
  return apiRequest('POST', 'pay/set_PhysicianPaymentInfo', {
    body: request,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSetPhysicianPaymentInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      request,
      idempotencyKey,
    }: {
      request: SetPhysicianPaymentInfoRequest;
      idempotencyKey: string;
    }) => setPhysicianPaymentInfo(request, idempotencyKey),
    // In physician pages the method on file is the physician's own: the forms' "card on file" too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey }),
  });
}
