import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { draftSaves } from '../../../lib/draft-saves';
import { sessionQueryKey } from '../../../lib/session';
import { signOutNotice } from '../../../lib/sign-out-notice';

export function logout(): Promise<{ message: string }> {
  return apiRequest('POST', 'pay/logout', { expectUnauthenticated: true });
}

/** Signs out on the server, then forgets every answer held in memory; `notice` says why. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    // A draft typed a moment ago is saved before the session ends (it is kept for the next sign-in).
    mutationFn: async (_notice: string | null) => {
      await draftSaves.flush();
      return logout();
    },
    onSettled: (_data, _error, notice) => {
      signOutNotice.set(notice);
      // The session query stays and turns null, so the session gate watching it hears the change
      // and sends the visitor to sign-in; every other answer goes.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
      queryClient.setQueryData(sessionQueryKey, null);
    },
  });
}
