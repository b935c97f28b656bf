import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { apiRequest } from '../../../lib/api-client';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';

/**
 * In physician pages, the card and account on file of the client acted for (display data only):
 * a physician's vial request may be paid with them.
 */
export const clientPaymentInfoQuery = (clientId: string) =>
  queryOptions({
    queryKey: [...paymentInfoQueryKey, 'client', clientId],
    queryFn: async () =>
      (await apiRequest<{ result: PaymentInfo }>('GET', 'pay/get_PaymentInfo', { query: { id: clientId } }))
        .result,
  });

export function useClientPaymentInfo(clientId: string | null) {
  return useQuery({ ...clientPaymentInfoQuery(clientId ?? ''), enabled: clientId !== null });
}
