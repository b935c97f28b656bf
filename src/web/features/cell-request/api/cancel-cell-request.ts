import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { CellRequest } from '../../../../domain/cell-request';
import { apiRequest } from '../../../lib/api-client';
import { cellRequestQueryKey } from './get-cell-request';

/**
 * cancel_CellRequest: the client cancels one of their requests. One Idempotency-Key per
 * cancellation, kept across a retry after an error (a new one only after it went through).
 */
export function useCancelCellRequest(clientId: string | null, id: string) {
  const queryClient = useQueryClient();
  const key = useRef(crypto.randomUUID());
  return useMutation({
    mutationFn: () =>
      apiRequest<CellRequest>('POST', 'pay/cancel_CellRequest', {
        body: { id },
        headers: { 'idempotency-key': key.current },
      }),
    onSuccess: (request) => {
      key.current = crypto.randomUUID();
      queryClient.setQueryData(cellRequestQueryKey(clientId, id), request);
      // The vials given back, the activity rows: the client's other views read again.
      void queryClient.invalidateQueries({ queryKey: ['client', clientId] });
    },
  });
}
