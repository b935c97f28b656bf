import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PlanOrderAwaitingCheck,
  RecordPlanCheckRequest,
  RecordPlanCheckResponse,
  StoreQueueActionResponse,
  StoreQueueItem,
} from '../../../../domain/staff-queues';
import { apiRequest } from '../../../lib/api-client';
import { queuesQueryKey } from './queues';

const planChecksKey = [...queuesQueryKey, 'plan-checks'] as const;
const storeOrdersKey = [...queuesQueryKey, 'store-orders'] as const;

/** Banking and Storage Plans orders paid by check, waiting for the check: oldest first. */
export function usePlanChecks() {
  return useQuery({
    queryKey: planChecksKey,
    queryFn: async () =>
      (await apiRequest<{ orders: PlanOrderAwaitingCheck[] }>('GET', 'staff/plan_checks')).orders,
  });
}

/** Records a plan order's check; the queues are read again afterwards, whatever the answer. */
export function useRecordPlanCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordPlanCheckRequest) =>
      apiRequest<RecordPlanCheckResponse>('POST', 'staff/record_plan_check', { body }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queuesQueryKey });
    },
  });
}

/** Store orders not yet delivered, oldest first. */
export function useStoreOrdersQueue() {
  return useQuery({
    queryKey: storeOrdersKey,
    queryFn: async () =>
      (await apiRequest<{ orders: StoreQueueItem[] }>('GET', 'staff/queues/store-orders')).orders,
  });
}

export type StoreOrderAction =
  | { action: 'ship'; body: { trackingNumber: string } }
  | { action: 'deliver' }
  | { action: 'cancel'; body: { reason: string } };

/** One action on one store order, with the submission's key (kept across a double click). */
export function useStoreOrderAction(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: StoreOrderAction; idempotencyKey: string }) =>
      apiRequest<StoreQueueActionResponse>(
        'POST',
        `staff/store_orders/${encodeURIComponent(orderId)}/${request.action}`,
        {
          body: 'body' in request ? request.body : {},
          headers: { 'idempotency-key': idempotencyKey },
        },
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queuesQueryKey });
    },
  });
}
