import { useQuery } from '@tanstack/react-query';
import type { CellRequestList } from '../../../../domain/cell-request';
import { apiRequest } from '../../../lib/api-client';

export const cellRequestsQueryKey = (clientId: string | null) =>
  ['client', clientId, 'cell-requests'] as const;

export function useCellRequests(clientId: string | null) {
  return useQuery({
    queryKey: cellRequestsQueryKey(clientId),
    queryFn: () => apiRequest<CellRequestList>('GET', 'pay/get_CellRequests'),
    enabled: clientId !== null,
  });
}
