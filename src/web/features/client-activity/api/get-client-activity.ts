import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientActivityRecord } from '../../../../domain/client-activity';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryKey } from '../../../lib/client-record';
import { subjectClientId, useSession } from '../../../lib/session';

export async function getClientActivity(clientId: string): Promise<ClientActivityRecord[]> {
  const data = await apiRequest<{ result: ClientActivityRecord[] }>('GET', 'pay/get_ClientActivity', {
    query: { id: clientId },
  });
  return data.result;
}

/** Under the client's key: a payment that invalidates the client refreshes their activity too. */
export function clientActivityQuery(clientId: string | null) {
  return queryOptions({
    queryKey: [...clientQueryKey(clientId), 'activity'] as const,
    queryFn: () => (clientId ? getClientActivity(clientId) : Promise.reject(new Error('No client chosen'))),
  });
}

export function useClientActivity() {
  const clientId = subjectClientId(useSession().data);
  return useQuery({ ...clientActivityQuery(clientId), enabled: clientId !== null });
}
