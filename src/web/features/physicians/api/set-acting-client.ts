import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActingFor } from '../../../../domain/auth';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryPrefix } from '../../../lib/client-record';
import { sessionQueryKey } from '../../../lib/session';

export function setActingClient(clientId: string): Promise<{ actingFor: ActingFor }> {
  return apiRequest('POST', 'pay/set_ActingClient', { body: { clientId } });
}

/**
 * Chooses the client the physician acts for. The session names them afresh, and every answer
 * about a client is dropped, so no page shows one client's data while another is chosen.
 */
export function useSetActingClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setActingClient,
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: clientQueryPrefix });
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}
