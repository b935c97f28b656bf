import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  RecordStorageCheckRequest,
  RecordStorageCheckResponse,
  StorageYearAwaitingCheck,
} from '../../../../domain/storage-year-checks';
import { apiRequest } from '../../../lib/api-client';
import { queuesQueryKey } from './queues';

const storageChecksKey = [...queuesQueryKey, 'storage-checks'] as const;

/** Storage years invoiced or overdue, waiting for a check: oldest due first. */
export function useStorageChecks() {
  return useQuery({
    queryKey: storageChecksKey,
    queryFn: async () =>
      (await apiRequest<{ years: StorageYearAwaitingCheck[] }>('GET', 'staff/storage_checks')).years,
  });
}

/** Records a storage year's check; the queues are read again afterwards, whatever the answer. */
export function useRecordStorageCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordStorageCheckRequest) =>
      apiRequest<RecordStorageCheckResponse>('POST', 'staff/record_storage_check', { body }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queuesQueryKey });
    },
  });
}
