import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { FormSubmissionResponse } from '../../../../domain/consent-form';
import type { setDiseaseDataRequestSchema } from '../../../../domain/infectious-disease';
import { apiRequest } from '../../../lib/api-client';

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
    // Built inside the mutation, so the loading overlay also covers the tokenizing and file reading.
    mutationFn: async ({
      buildRequest,
      idempotencyKey,
    }: {
      buildRequest: () => Promise<SetDiseaseDataBody>;
      idempotencyKey: string;
    }) => setDiseaseData(await buildRequest(), idempotencyKey),
    onSuccess: () => {
      void queryClient.invalidateQueries();
    },
  });
}
