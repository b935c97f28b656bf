import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  PhysicianDiseaseResponse,
  setPhysicianDiseaseDataRequestSchema,
} from '../../../../domain/infectious-disease';
import { apiRequest } from '../../../lib/api-client';

export type SetPhysicianDiseaseDataBody = z.input<ReturnType<typeof setPhysicianDiseaseDataRequestSchema>>;

/** The physician's submission for a client; the key makes a double click or a retry one charge. */
export function setPhysicianDiseaseData(
  request: SetPhysicianDiseaseDataBody,
  idempotencyKey: string,
): Promise<PhysicianDiseaseResponse> {
  return apiRequest('POST', 'pay/set_PhysicianDiseaseData', {
    body: request,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function useSetPhysicianDiseaseData() {
  const queryClient = useQueryClient();
  return useMutation({
    // Built inside the mutation, so the loading overlay also covers the tokenizing and file reading.
    mutationFn: async ({
      buildRequest,
      idempotencyKey,
    }: {
      buildRequest: () => Promise<SetPhysicianDiseaseDataBody>;
      idempotencyKey: string;
    }) => setPhysicianDiseaseData(await buildRequest(), idempotencyKey),
    // A saved card is now on the physician's file; the client's flags and the session changed.
    onSuccess: () => {
      void queryClient.invalidateQueries();
    },
  });
}
