import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientActivityRecord } from '../../../../domain/client-activity';
import { apiRequest } from '../../../lib/api-client';

export async function getClientActivity(): Promise<ClientActivityRecord[]> {
  const data = await apiRequest<{ result: ClientActivityRecord[] }>('GET', 'pay/get_ClientActivity');
  return data.result;
}

export const clientActivityQuery = queryOptions({
  queryKey: ['client-activity'],
  queryFn: getClientActivity,
});

export function useClientActivity() {
  return useQuery(clientActivityQuery);
}
