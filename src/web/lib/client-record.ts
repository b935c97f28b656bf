import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientRecord } from '../../domain/client';
import { apiRequest } from './api-client';
import { subjectClientId, useSession } from './session';

/** Every query about one client starts with this; invalidating it refreshes them all. */
export const clientQueryPrefix = ['client'] as const;

/**
 * The key of a client's record carries the client it is about, so a physician who moves from one
 * client to another never sees the first one's answer under the second one's name.
 */
export function clientQueryKey(clientId: string | null) {
  return [...clientQueryPrefix, clientId] as const;
}

export async function getClient(clientId: string): Promise<ClientRecord> {
  const data = await apiRequest<{ result: { listResponse: ClientRecord[] } }>('GET', 'pay/get_Client', {
    query: { id: clientId },
  });
  const client = data.result.listResponse[0];
  if (!client) throw new Error('The client record is missing from the answer');
  return client;
}

export function clientQuery(clientId: string | null) {
  return queryOptions({
    queryKey: clientQueryKey(clientId),
    queryFn: () => (clientId ? getClient(clientId) : Promise.reject(new Error('No client chosen'))),
  });
}

/**
 * The record of the client the session is about (the signed-in client, or the one a physician acts
 * for), read once for the whole portal: the layout uses its flags, the profile page its fields, the
 * forms its summary; a submission that invalidates it refreshes them all.
 */
export function useClient({ enabled = true }: { enabled?: boolean } = {}) {
  const session = useSession();
  const clientId = subjectClientId(session.data);
  return useQuery({ ...clientQuery(clientId), enabled: enabled && clientId !== null });
}
