import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PlanOrderAwaitingCheck,
  RecordPlanCheckRequest,
  RecordPlanCheckResponse,
  StoreQueueActionResponse,
  StoreQueueItem,
} from '../../../../domain/staff-queues';
import { apiRequest } from '../../../lib/api-client';
import { queuesQueryKey, useQueueItemAction } from './queues';

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
  | { action: 'create_label'; body: { contents: string } }
  | { action: 'track' }
  | { action: 'ship'; body: { trackingNumber: string } }
  | { action: 'deliver' }
  | { action: 'cancel'; body: { reason: string } };

/** One action on one store order, with the submission's key (kept across a double click). */
export const useStoreOrderAction = (orderId: string) =>
  useQueueItemAction<StoreOrderAction, StoreQueueActionResponse>(
    `staff/store_orders/${encodeURIComponent(orderId)}`,
  );
