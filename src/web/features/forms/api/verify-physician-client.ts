import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  VerifyPhysicianClientRequest,
  VerifyPhysicianClientResponse,
} from '../../../../domain/infectious-disease';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';
import { type Session, sessionQueryKey } from '../../../lib/session';

/** Confirm Client Details: one of the physician's own clients, who becomes the one they act for. */
export function verifyPhysicianClient(
  identification: VerifyPhysicianClientRequest,
): Promise<VerifyPhysicianClientResponse> {
  return apiRequest('POST', 'pay/set_verifyPhysicianClientData', { body: identification });
}

export function useVerifyPhysicianClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyPhysicianClient,
    // The header names the confirmed client: the session is read again, and no answer about the
    // client acted for before stays in the cache under the new one.
    onSuccess: async (answer) => {
      const session = queryClient.getQueryData<Session | null>(sessionQueryKey);
      const before = session?.role === 'physician' ? session.actingFor?.id : undefined;
      if (before !== answer.actingFor.id) {
        queryClient.removeQueries({ queryKey: clientQueryPrefix });
      }
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}
