import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  FormSubmissionResponse,
  sendPhysicianConsentDataRequestSchema,
} from '../../../../domain/consent-form';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';
import { physicianClientsQueryKey } from '../../../lib/physician-clients-key';

export type SendPhysicianConsentDataBody = z.input<ReturnType<typeof sendPhysicianConsentDataRequestSchema>>;

/** Sends the consent a physician submits for the client they act for; the key makes it one submission. */
export function sendPhysicianConsentData(
  request: SendPhysicianConsentDataBody,
  idempotencyKey: string,
): Promise<FormSubmissionResponse> {
  return apiRequest('POST', 'pay/send_PhysicianConsentData', {
    body: request,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSendPhysicianConsentData() {
  const queryClient = useQueryClient();
  return useMutation({
    // Built inside the mutation, so the loading overlay also covers the card's tokenizing.
    mutationFn: async ({
      buildRequest,
      idempotencyKey,
    }: {
      buildRequest: () => Promise<SendPhysicianConsentDataBody>;
      idempotencyKey: string;
    }) => sendPhysicianConsentData(await buildRequest(), idempotencyKey),
    // The client's record (and its consent) and My Clients now read differently, and a card may be
    // kept on the physician's file; the page shows its confirmation meanwhile.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
      void queryClient.invalidateQueries({ queryKey: physicianClientsQueryKey });
      void queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey });
    },
  });
}
