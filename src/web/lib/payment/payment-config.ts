import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api-client';

export type PaymentConfig =
  | { gateway: 'sandbox'; tokenizeUrl: string }
  | { gateway: 'authorize-net'; acceptJsUrl: string; apiLoginId: string; clientKey: string };

export const paymentConfigQuery = queryOptions({
  queryKey: ['payment-config'],
  queryFn: () => apiRequest<PaymentConfig>('GET', 'pay/payment_config'),
  staleTime: Number.POSITIVE_INFINITY,
});

export function usePaymentConfig() {
  return useQuery(paymentConfigQuery);
}
