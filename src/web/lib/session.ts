import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PhysicianSessionInfo, SessionInfo } from '../../domain/auth';
import { apiRequest } from './api-client';

export const sessionQueryKey = ['session'] as const;

/** Who is signed in on this browser: a client or a physician. */
export type Session = SessionInfo | PhysicianSessionInfo;
export type Role = Session['role'];

/** Who is signed in, or null. Reading it does not extend the session. */
export async function getSession(): Promise<Session | null> {
  const answer = await apiRequest<Session | { signedIn: false }>('GET', 'pay/session');
  return answer.signedIn ? answer : null;
}

export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: getSession,
  staleTime: Infinity,
});

/** The session, read once for the whole app and shared by the gate, the layouts and the pages. */
export function useSession() {
  return useQuery(sessionQuery);
}

/** The client a session is about: the signed-in client, or the one a physician acts for (or none). */
export function subjectClientId(session: Session | null | undefined): string | null {
  if (!session) return null;
  return session.role === 'client' ? session.id : (session.actingFor?.id ?? null);
}

/** Where each role starts after sign-in, and where a page of the other role sends them. */
export const homeOf: Record<Role, string> = {
  client: '/client-information',
  physician: '/my-clients',
};
