import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  SendProcessDataResponse,
  sendProcessDataRequestSchema,
} from '../../../../domain/initial-processing';
import { apiRequest } from '../../../lib/api-client';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';
import { physicianClientsQueryKey } from '../../../lib/physician-clients-key';

export type SendProcessDataBody = z.input<ReturnType<typeof sendProcessDataRequestSchema>>;

/** Sends the new sample form; the key makes a double click or a retry one client and one charge. */
export function sendProcessData(
  request: SendProcessDataBody,
  idempotencyKey: string,
): Promise<SendProcessDataResponse> {
  return apiRequest('POST', 'pay/send_ProcessData', {
    body: request,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSendProcessData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SendProcessDataBody; idempotencyKey: string }) =>
      sendProcessData(body, idempotencyKey),
    // A new client in My Clients, and perhaps a card newly on the physician's file.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: physicianClientsQueryKey });
      void queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey });
    },
  });
}
