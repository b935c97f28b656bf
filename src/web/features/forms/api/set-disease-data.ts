import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { FormSubmissionResponse } from '../../../../domain/consent-form';
import type { setDiseaseDataRequestSchema } from '../../../../domain/infectious-disease';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';
import { formDocumentsQueryKey } from './get-form-documents';

export type SetDiseaseDataBody = z.input<typeof setDiseaseDataRequestSchema>;

/** Sends the screening choice; the key makes a double click or a retry one submission (and one charge). */
export function setDiseaseData(
  request: SetDiseaseDataBody,
  idempotencyKey: string,
): Promise<FormSubmissionResponse> {
  return apiRequest('POST', 'pay/set_DiseaseData', {
    body: request,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSetDiseaseData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SetDiseaseDataBody; idempotencyKey: string }) =>
      setDiseaseData(body, idempotencyKey),
    // The client's flags and Client Activity, the forms done and their documents, a card kept on file.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
      void queryClient.invalidateQueries({ queryKey: formDocumentsQueryKey });
      void queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey });
    },
  });
}
