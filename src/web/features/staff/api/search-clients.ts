import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ClientSummary } from '../../../../domain/staff';
import { apiRequest } from '../../../lib/api-client';

/** Clients matching a Client ID, name, e-mail or date of birth. */
export function useClientSearch(q: string) {
  return useQuery({
    queryKey: ['staff', 'clients', q] as const,
    queryFn: async () =>
      (await apiRequest<{ clients: ClientSummary[] }>('GET', 'staff/clients', { query: { q } })).clients,
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}
