import { useQuery } from '@tanstack/react-query';
import type { VialQueueActionResponse, VialQueueItem } from '../../../../domain/staff-queues';
import { apiRequest } from '../../../lib/api-client';
import { queuesQueryKey, useQueueItemAction } from './queues';

const vialQueueKey = [...queuesQueryKey, 'vial-requests'] as const;

/** The vial requests waiting for the bank, oldest first. */
export function useVialRequestsQueue() {
  return useQuery({
    queryKey: vialQueueKey,
    queryFn: async () =>
      (await apiRequest<{ requests: VialQueueItem[] }>('GET', 'staff/queues/vial-requests')).requests,
  });
}

export type VialRequestAction =
  | { action: 'approve' }
  | { action: 'confirm_vip_price'; body: { amountCents: number } }
  | { action: 'approve_vip_price'; body: { amountCents: number } }
  | { action: 'ship'; body: { trackingNumber: string; courier?: string } }
  | { action: 'create_label'; body: { dryShipperId: string; contents: string } }
  | { action: 'track' }
  | { action: 'deliver' }
  | { action: 'cancel'; body: { reason: string } };

/**
 * One action on one request. The key is the submission's: the caller keeps it across a double
 * click or a retry (the server answers the first result) and takes a new one after an answer.
 */
export const useVialRequestAction = (requestId: string) =>
  useQueueItemAction<VialRequestAction, VialQueueActionResponse>(
    `staff/vial_requests/${encodeURIComponent(requestId)}`,
  );
