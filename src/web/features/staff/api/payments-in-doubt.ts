import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentInDoubt, SettlePaymentResponse } from '../../../../domain/staff-queues';
import { apiRequest } from '../../../lib/api-client';
import { queuesQueryKey } from './queues';

const paymentsInDoubtKey = [...queuesQueryKey, 'payments-in-doubt'] as const;

/** The ledger's payments whose outcome is unknown, oldest first. */
export function usePaymentsInDoubt() {
  return useQuery({
    queryKey: paymentsInDoubtKey,
    queryFn: async () =>
      (await apiRequest<{ payments: PaymentInDoubt[] }>('GET', 'staff/queues/payments-in-doubt')).payments,
  });
}

/** Looks one payment up at the gateway and settles it. */
export function useSettlePayment(paymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<SettlePaymentResponse>('POST', `staff/payments/${encodeURIComponent(paymentId)}/settle`, {
        body: {},
      }),
    // The home page's counts only: the settled payment stays on this page with its answer
    // until the page is opened again.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queuesQueryKey, exact: true });
    },
  });
}
