import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentInfo } from '../../../domain/payment-info';
import { apiRequest } from '../api-client';

export const paymentInfoQueryKey = ['payment-info'] as const;

export const paymentInfoQuery = queryOptions({
  queryKey: paymentInfoQueryKey,
  queryFn: async () => (await apiRequest<{ result: PaymentInfo }>('GET', 'pay/get_PaymentInfo')).result,
});

export function usePaymentInfo() {
  return useQuery(paymentInfoQuery);
}
