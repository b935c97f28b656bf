import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useLogout } from '../features/auth/api/logout';
import { apiRequest, onUnauthenticated } from '../lib/api-client';
import { forgetAllDrafts } from '../lib/form-draft';
import { sessionQueryKey } from '../lib/session';
import { signOutNotice } from '../lib/sign-out-notice';
import { useIdleSignOut } from './use-idle-sign-out';

const IDLE_NOTICE = 'You were signed out after 5 minutes without activity. Please sign in again.';
const ENDED_NOTICE = 'Your session has ended. Please sign in again.';
const KEEPALIVE_EVERY_MS = 60_000;

/**
 * What every signed-in layout shares, whatever the role: sign-out (by the menu, after 5 minutes
 * idle, or when the server says the session ended), the keepalive while someone types, and the
 * phone menu that closes when the page changes. The session gate has already checked there is a
 * session; once it is gone the gate sends the visitor to sign-in, which shows the notice.
 */
export function usePortalSession() {
  const logout = useLogout();
  const queryClient = useQueryClient();
  const location = useLocation();
  const [navOpen, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);

  const signOut = useCallback((notice: string | null = null) => logout.mutate(notice), [logout]);

  useEffect(
    () =>
      onUnauthenticated(() => {
        signOutNotice.set(ENDED_NOTICE);
        forgetAllDrafts();
        // Everything but the session query goes: clearing that one too would leave the gate
        // watching a query no longer in the cache, pending for ever, when the 401 of another call
        // arrives while the session is still being read.
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
        queryClient.setQueryData(sessionQueryKey, null);
      }),
    [queryClient],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: the menu closes when the page changes
  useEffect(() => closeNav(), [location.pathname, closeNav]);

  // The server only sees API calls: while someone types into a long form, tell it once a minute
  // that they are still here, so their session does not idle out under them.
  const lastKeepAlive = useRef(Date.now());
  const keepAlive = useCallback(() => {
    if (Date.now() - lastKeepAlive.current < KEEPALIVE_EVERY_MS) return;
    lastKeepAlive.current = Date.now();
    void apiRequest('POST', 'pay/keepalive').catch(() => {});
  }, []);

  useIdleSignOut(() => signOut(IDLE_NOTICE), true, keepAlive);

  const isActive = (to: string) => location.pathname.toLowerCase() === to.toLowerCase();

  return { signOut, navOpen, toggleNav, isActive };
}
