import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendCellRequestInput, SendCellRequestResponse } from '../../../../domain/cell-request';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';

/** Orders the vials; the key makes a double click or a retry one order (and one charge). */
export function sendCellRequest(body: SendCellRequestInput, idempotencyKey: string) {
  return apiRequest<SendCellRequestResponse>('POST', 'pay/send_CellRequest', {
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSendCellRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SendCellRequestInput; idempotencyKey: string }) =>
      sendCellRequest(body, idempotencyKey),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
    },
  });
}
