import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  RecordCheckRequest,
  RecordCheckResponse,
  SampleAwaitingCheck,
} from '../../../../domain/staff-queues';
import { apiRequest } from '../../../lib/api-client';

export const sampleChecksQueryKey = ['staff', 'queues', 'sample-checks'] as const;

/** New samples sent with a check in the shipment, waiting for it: oldest first. */
export function useSampleChecks() {
  return useQuery({
    queryKey: sampleChecksQueryKey,
    queryFn: async () =>
      (await apiRequest<{ samples: SampleAwaitingCheck[] }>('GET', 'staff/sample_checks')).samples,
  });
}

/** Records a sample's check; the queue is read again afterwards, whatever the answer. */
export function useRecordCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordCheckRequest) =>
      apiRequest<RecordCheckResponse>('POST', 'staff/record_check', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sampleChecksQueryKey }),
  });
}
