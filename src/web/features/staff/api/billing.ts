import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type BillingRunResponse,
  billingOverviewSchema,
  billingRunResponseSchema,
} from '../../../../domain/storage-billing';
import { ApiError, apiRequest } from '../../../lib/api-client';

export const billingOverviewQueryKey = ['staff', 'billing'] as const;

/** The Billing page: storage renewals due soon, charged on the billing day, retrying, overdue, recovered. */
export function useBillingOverview() {
  return useQuery({
    queryKey: billingOverviewQueryKey,
    queryFn: async () => billingOverviewSchema.parse(await apiRequest('GET', 'staff/billing')),
  });
}

/**
 * "Run billing as of…" (demo, admins). The key is made per press and travels in the variables, so
 * the retry after a lost connection is the same run; the overview is read again afterwards.
 */
export function useRunBilling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ asOf, idempotencyKey }: { asOf: string; idempotencyKey: string }) =>
      billingRunResponseSchema.parse(
        await apiRequest<BillingRunResponse>('POST', 'staff/billing/run', {
          body: { asOf },
          headers: { 'idempotency-key': idempotencyKey },
        }),
      ),
    retry: (failures, error) => error instanceof ApiError && error.status === 0 && failures < 2,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: billingOverviewQueryKey });
    },
  });
}

/** E-mails the main contact an overdue newborn installment's amount and the link to pay it. */
export function useSendInstallmentLink() {
  return useMutation({
    mutationFn: (installmentId: string) =>
      apiRequest<{ sentTo: string }>(
        'POST',
        `staff/billing/installments/${encodeURIComponent(installmentId)}/payment_link`,
      ),
  });
}
