import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CellRequest } from '../../../../domain/cell-request';
import { apiRequest } from '../../../lib/api-client';

/** The physician approves one of the acting-for client's requests. */
export function useSetCellRequestApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<CellRequest>('POST', 'pay/set_CellRequestApproval', { body: { id } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['client'] });
    },
  });
}
