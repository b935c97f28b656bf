import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  RemovePhysicianPaymentInfoRequest,
  RemovePhysicianPaymentInfoResponse,
} from '../../../../domain/payment-info';
import { apiRequest } from '../../../lib/api-client';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';

/** Takes the physician's own card (CC) or bank account (ACH) off file. */
export function removePhysicianPaymentInfo(
  request: RemovePhysicianPaymentInfoRequest,
): Promise<RemovePhysicianPaymentInfoResponse> {
  return apiRequest('POST', 'pay/remove_PhysicianPaymentInfo', { body: request });
}

export function useRemovePhysicianPaymentInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePhysicianPaymentInfo,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey }),
  });
}
