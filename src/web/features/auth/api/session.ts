import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionInfo } from '../../../../domain/auth';
import { apiRequest } from '../../../lib/api-client';

export const sessionQueryKey = ['session'] as const;

/** Who is signed in, or null. Reading it does not extend the session. */
export async function getSession(): Promise<SessionInfo | null> {
  const answer = await apiRequest<SessionInfo | { signedIn: false }>('GET', 'pay/session');
  return answer.signedIn ? answer : null;
}

export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: getSession,
  staleTime: Infinity,
});

export function useSession() {
  return useQuery(sessionQuery);
}
