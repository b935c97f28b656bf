import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type PlanRefundRequest,
  planRefundResponseSchema,
  staffPlanOrdersSchema,
} from '../../../../domain/storage-plan-refund';
import { apiRequest } from '../../../lib/api-client';

export const clientPlanOrdersQueryKey = (clientActId: string) =>
  ['client', clientActId, 'staff-plan-orders'] as const;

/** A client's paid Banking and Storage Plans orders, each with what a take-back would do today. */
export function useClientPlanOrders(clientActId: string) {
  return useQuery({
    queryKey: clientPlanOrdersQueryKey(clientActId),
    queryFn: async () =>
      staffPlanOrdersSchema.parse(
        await apiRequest('GET', `staff/clients/${encodeURIComponent(clientActId)}/storage_plans`),
      ),
  });
}

/**
 * An admin takes back a plan order's unused part and refunds it. The key is the submission's: the
 * caller keeps it across a double click or a retry. The client's record (its orders, payments,
 * activity) is read again after any answer.
 */
export function usePlanRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { orderId: string; body: PlanRefundRequest; idempotencyKey: string }) =>
      planRefundResponseSchema.parse(
        await apiRequest('POST', `staff/storage_plans/${encodeURIComponent(input.orderId)}/refund`, {
          body: input.body,
          headers: { 'idempotency-key': input.idempotencyKey },
        }),
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['client'] });
    },
  });
}
