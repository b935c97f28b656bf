import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueueSummary } from '../../../../domain/staff-queues';
import { apiRequest } from '../../../lib/api-client';

export const queuesQueryKey = ['staff', 'queues'] as const;

/** Each work queue with the number of items waiting in it. */
export function useStaffQueues() {
  return useQuery({
    queryKey: queuesQueryKey,
    queryFn: async () => (await apiRequest<{ queues: QueueSummary[] }>('GET', 'staff/queues')).queues,
  });
}

/** An action on one queue item, as the item's page sends it: its name, and its body if any. */
export interface QueueItemAction {
  action: string;
  body?: object;
}

/**
 * One action on one queue item (`staff/<items>/<id>/<action>`) with the submission's key (kept
 * across a double click); the queues are read again afterwards, whatever the answer.
 */
export function useQueueItemAction<A extends QueueItemAction, R>(itemPath: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: A; idempotencyKey: string }) =>
      apiRequest<R>('POST', `${itemPath}/${request.action}`, {
        body: request.body ?? {},
        headers: { 'idempotency-key': idempotencyKey },
      }),
    // Not awaited: the caller's own callbacks run first, while its form is still on the page.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queuesQueryKey });
    },
  });
}
