import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { sessionQueryKey } from './session';

export function logout(): Promise<{ message: string }> {
  return apiRequest('POST', 'pay/logout', { expectUnauthenticated: true });
}

/** Signs out on the server, then forgets every answer held in memory. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(sessionQueryKey, null);
    },
  });
}
