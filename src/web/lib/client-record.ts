import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientRecord } from '../../domain/client';
import { apiRequest } from './api-client';

export const clientQueryKey = ['client'] as const;

export async function getClient(): Promise<ClientRecord> {
  const data = await apiRequest<{ result: { listResponse: ClientRecord[] } }>('GET', 'pay/get_Client');
  const client = data.result.listResponse[0];
  if (!client) throw new Error('The client record is missing from the answer');
  return client;
}

export const clientQuery = queryOptions({ queryKey: clientQueryKey, queryFn: getClient });

/**
 * The signed-in client's record, read once for the whole portal: the layout uses its flags, the
 * profile page its fields, the forms its summary; a submission that invalidates it refreshes them all.
 */
export function useClient({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...clientQuery, enabled });
}
