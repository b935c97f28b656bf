import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  FormSubmissionResponse,
  sendPhysicianConsentDataRequestSchema,
} from '../../../../domain/consent-form';
import { apiRequest } from '../../../lib/api-client';

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
    // The client's record and My Clients now read differently; the page shows its confirmation meanwhile.
    onSuccess: () => {
      void queryClient.invalidateQueries();
    },
  });
}
