import { useQuery } from '@tanstack/react-query';
import type { CellRequest } from '../../../../domain/cell-request';
import { apiRequest } from '../../../lib/api-client';

export const cellRequestQueryKey = (clientId: string | null, id: string) =>
  ['client', clientId, 'cell-request', id] as const;

export function useCellRequest(clientId: string | null, id: string) {
  return useQuery({
    queryKey: cellRequestQueryKey(clientId, id),
    queryFn: () => apiRequest<CellRequest>('GET', 'pay/get_CellRequest', { query: { id } }),
    enabled: clientId !== null,
  });
}
