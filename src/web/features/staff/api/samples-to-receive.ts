import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ReceiveSampleRequest,
  ReceiveSampleResponse,
  SampleToReceive,
} from '../../../../domain/storage-year';
import { apiRequest } from '../../../lib/api-client';
import { queuesQueryKey } from './queues';

export const samplesToReceiveQueryKey = ['staff', 'queues', 'samples-to-receive'] as const;

/** New samples whose tissue has not arrived yet: earliest ship date first. */
export function useSamplesToReceive() {
  return useQuery({
    queryKey: samplesToReceiveQueryKey,
    queryFn: async () =>
      (await apiRequest<{ samples: SampleToReceive[] }>('GET', 'staff/samples_to_receive')).samples,
  });
}

/** Records a sample's arrival; the queue and the home page's counts are read again afterwards. */
export function useReceiveSample() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReceiveSampleRequest) =>
      apiRequest<ReceiveSampleResponse>('POST', 'staff/receive_sample', { body }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: samplesToReceiveQueryKey });
      await queryClient.invalidateQueries({ queryKey: queuesQueryKey, exact: true });
    },
  });
}
