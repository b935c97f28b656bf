import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  PhysicianDiseaseResponse,
  setPhysicianDiseaseDataRequestSchema,
} from '../../../../domain/infectious-disease';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';
import { paymentInfoQueryKey } from '../../../lib/payment/get-payment-info';
import { physicianClientsQueryKey } from '../../../lib/physician-clients-key';
import { sessionQueryKey } from '../../../lib/session';

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
    mutationFn: ({ body, idempotencyKey }: { body: SetPhysicianDiseaseDataBody; idempotencyKey: string }) =>
      setPhysicianDiseaseData(body, idempotencyKey),
    // The client's flags and My Clients, the client the session acts for (the one submitted for),
    // and a card kept on the physician's file.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientQueryPrefix });
      void queryClient.invalidateQueries({ queryKey: physicianClientsQueryKey });
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      void queryClient.invalidateQueries({ queryKey: paymentInfoQueryKey });
    },
  });
}
