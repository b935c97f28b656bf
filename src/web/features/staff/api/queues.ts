import { useQuery } from '@tanstack/react-query';
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
