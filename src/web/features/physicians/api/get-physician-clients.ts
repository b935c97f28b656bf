import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PhysicianClient } from '../../../../domain/physician';
import { apiRequest } from '../../../lib/api-client';
import { physicianClientsQueryKey } from '../../../lib/physician-clients-key';

export const physicianClientsQuery = queryOptions({
  queryKey: physicianClientsQueryKey,
  queryFn: async () =>
    (await apiRequest<{ clients: PhysicianClient[] }>('GET', 'pay/get_PhysicianClients')).clients,
});

/** The signed-in physician's clients, with what each has paid and signed. */
export function usePhysicianClients() {
  return useQuery(physicianClientsQuery);
}
