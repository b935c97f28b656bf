import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { createElement, useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { idleTimeText } from '../../domain/auth-policy';
import { IdleWarningDialog } from '../components/idle-warning-dialog';
import { useLogout } from '../features/auth/api/logout';
import { apiRequest, onUnauthenticated } from '../lib/api-client';
import { returnPath, returnPathOwner } from '../lib/return-path';
import { type Session, sessionQueryKey } from '../lib/session';
import { signOutNotice } from '../lib/sign-out-notice';
import { useIdleSignOut } from './use-idle-sign-out';

const ENDED_NOTICE = 'Your session has ended. Please sign in again.';

/**
 * What every signed-in layout shares, whatever the role: sign-out (by the menu, after 5 minutes
 * idle with a warning a minute before, or when the server says the session ended), the keepalive
 * while someone types, and the phone menu that closes when the page changes. The session gate has
 * already checked there is a session; once it is gone the gate sends the visitor to sign-in, which
 * shows the notice and, after an idle or ended session, takes them back to the page they were on.
 */
export function usePortalSession(session: Session) {
  const logout = useLogout();
  const queryClient = useQueryClient();
  const location = useLocation();
  const [navOpen, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const here = `${location.pathname}${location.search}`;
  const hereRef = useRef(here);
  hereRef.current = here;
  const owner = returnPathOwner(session.role, session.id);

  const signOut = useCallback((notice: string | null = null) => logout.mutate(notice), [logout]);

  // Signed in and on a page: any return path has been followed.
  useEffect(() => returnPath.clear(), []);

  useEffect(
    () =>
      onUnauthenticated(() => {
        signOutNotice.set(ENDED_NOTICE);
        returnPath.remember(hereRef.current, owner);
        // Everything but the session query goes: clearing that one too would leave the gate
        // watching a query no longer in the cache, pending for ever, when the 401 of another call
        // arrives while the session is still being read.
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
        queryClient.setQueryData(sessionQueryKey, null);
      }),
    [queryClient, owner],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: the menu closes when the page changes
  useEffect(() => closeNav(), [location.pathname, closeNav]);

  // The server only sees API calls: while someone is active in a page, tell it so.
  const keepAlive = useCallback(() => {
    void apiRequest('POST', 'pay/keepalive').catch(() => {});
  }, []);

  const idleMs = session.idleTimeoutMs;
  const idle = useIdleSignOut({
    onIdle: () => {
      returnPath.remember(hereRef.current, owner);
      signOut(`You were signed out after ${idleTimeText(idleMs)} without activity. Please sign in again.`);
    },
    keepAlive,
    idleMs,
  });
  const idleWarning = createElement(IdleWarningDialog, {
    opened: idle.warning,
    warnBeforeMs: idle.warnBeforeMs,
    onStay: idle.staySignedIn,
    onSignOut: () => signOut(null),
  });

  const isActive = (to: string) => location.pathname.toLowerCase() === to.toLowerCase();

  return { signOut, navOpen, toggleNav, isActive, idleWarning };
}
