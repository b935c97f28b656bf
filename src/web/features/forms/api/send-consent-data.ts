import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { FormSubmissionResponse, sendConsentDataRequestSchema } from '../../../../domain/consent-form';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';
import { formDocumentsQueryKey } from './get-form-documents';

export type SendConsentDataBody = z.input<typeof sendConsentDataRequestSchema>;

/** Sends the signed consent; the key makes a double click or a retry one submission. */
export function sendConsentData(
  request: SendConsentDataBody,
  idempotencyKey: string,
): Promise<FormSubmissionResponse> {
  return apiRequest('POST', 'pay/send_ConsentData', {
    body: request,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSendConsentData() {
  const queryClient = useQueryClient();
  return useMutation({
    // The request is built inside the mutation, so the loading overlay also covers the card's
    // tokenizing by the gateway.
    mutationFn: async ({
      buildRequest,
      idempotencyKey,
    }: {
      buildRequest: () => Promise<SendConsentDataBody>;
      idempotencyKey: string;
    }) => sendConsentData(await buildRequest(), idempotencyKey),
    // Not awaited: the page shows its confirmation at once while the flags refresh behind it: the
    // client's record and activity, the forms done and their documents, a method kept on file.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
      void queryClient.invalidateQueries({ queryKey: formDocumentsQueryKey });
      void queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey });
    },
  });
}
