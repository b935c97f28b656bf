import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { sessionQuery } from '../../../lib/session';

export interface WelcomeLink {
  clientACTId: string;
  firstName: string;
  expiresAt: string;
}

interface WelcomePasswordResponse {
  result: { login: true; message: string; id: string; clientACTId: string; clientLastName: string };
}

export function getWelcomeLink(token: string): Promise<WelcomeLink> {
  return apiRequest('GET', 'pay/get_WelcomeLink', { query: { token } });
}

export function welcomeLinkQuery(token: string) {
  return queryOptions({
    queryKey: ['welcome-link', token],
    queryFn: () => getWelcomeLink(token),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useWelcomeLink(token: string) {
  return useQuery(welcomeLinkQuery(token));
}

export function setWelcomePassword(request: { token: string; password: string }) {
  return apiRequest<WelcomePasswordResponse>('POST', 'pay/set_WelcomePassword', {
    body: request,
    expectUnauthenticated: true,
  });
}

/** Sets the first password and signs the new client in: the session is theirs from now on. */
export function useSetWelcomePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setWelcomePassword,
    onSuccess: async () => {
      // Everything of the browser's previous session goes, but the link itself: asked again it
      // would answer that it was used, while the page is on its way to the portal.
      await queryClient.cancelQueries();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'welcome-link' });
      await queryClient.fetchQuery(sessionQuery);
    },
  });
}
