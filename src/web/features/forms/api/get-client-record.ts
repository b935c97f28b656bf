import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientRecord } from '../../../../domain/client';
import { apiRequest } from '../../../lib/api-client';

// The same key as the portal's other readers of get_Client, so the record is fetched once and a
// submission that invalidates it refreshes the navigation's highlight too.
export const clientRecordQueryKey = ['client'] as const;

export async function getClientRecord(): Promise<ClientRecord> {
  const data = await apiRequest<{ result: { listResponse: ClientRecord[] } }>('GET', 'pay/get_Client');
  const client = data.result.listResponse[0];
  if (!client) throw new Error('The client record is missing from the answer');
  return client;
}

export const clientRecordQuery = queryOptions({ queryKey: clientRecordQueryKey, queryFn: getClientRecord });

/** The signed-in client's record: the summary on the consent form and the kit's shipping address. */
export function useClientRecord() {
  return useQuery(clientRecordQuery);
}
