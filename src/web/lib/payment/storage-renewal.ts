import { queryOptions, useQuery } from '@tanstack/react-query';
import { type StorageRenewal, storageRenewalSchema } from '../../../domain/storage-billing';
import { apiRequest } from '../api-client';
import { useSession } from '../session';

export const storageRenewalQueryKey = ['storage-renewal'] as const;

const storageRenewalQuery = queryOptions({
  queryKey: storageRenewalQueryKey,
  queryFn: async (): Promise<StorageRenewal> =>
    storageRenewalSchema.parse(await apiRequest('GET', 'pay/storage_renewal')),
});

/**
 * The signed-in client's next annual storage charge ("$350.00 on 06/14/2027 to Visa ending 4242"),
 * a retry under way, or a card expiring before it. A physician acting for a client does not see it.
 */
export function useStorageRenewal() {
  const session = useSession();
  return useQuery({ ...storageRenewalQuery, enabled: session.data?.role === 'client' });
}
