import { AppShell, Menu, NavLink, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { idleTimeText, staffPolicy } from '../../domain/auth-policy';
import { IdleWarningDialog } from '../components/idle-warning-dialog';
import { staffSessionQueryKey, useStaffSession } from '../features/staff/api/staff-session';
import { useStaffLogout } from '../features/staff/api/staff-sign-in';
import { apiRequest, onUnauthenticated } from '../lib/api-client';
import { returnPath, returnPathOwner } from '../lib/return-path';
import { signOutNotice } from '../lib/sign-out-notice';
import { PendingFrame } from './pending-frame';
import { PortalShell, ProfileMenuButton } from './portal-shell';
import { useIdleSignOut } from './use-idle-sign-out';

const ENDED_NOTICE = 'Your session has ended. Please sign in again.';

/** The back office's sections: Home (a card per work queue), Clients, each queue, and Billing. */
export const staffNavigation = {
  home: { to: '/staff/home', label: 'Home' },
  clients: { to: '/staff/clients', label: 'Clients' },
  checks: { to: '/staff/queues/checks', label: 'Checks' },
  samplesToReceive: { to: '/staff/queues/samples-to-receive', label: 'Samples to Receive' },
  labReports: { to: '/staff/queues/lab-reports', label: 'Lab Reports' },
  vialRequests: { to: '/staff/queues/vial-requests', label: 'Vial Requests' },
  paymentsInDoubt: { to: '/staff/queues/payments-in-doubt', label: 'Payments in Doubt' },
  planChecks: { to: '/staff/queues/plan-checks', label: 'Plan Checks' },
  storageChecks: { to: '/staff/queues/storage-checks', label: 'Storage Checks' },
  storeOrders: { to: '/staff/queues/store-orders', label: 'Store Orders' },
  billing: { to: '/staff/billing', label: 'Billing' },
} as const;

/** Admins only: a `staff`-level member has no such menu items (and the pages answer as not found). */
export const staffAdminNavigation = {
  accounts: { to: '/staff/admin/accounts', label: 'Staff Accounts' },
  audit: { to: '/staff/admin/audit', label: 'Audit Trail' },
  calendar: { to: '/staff/admin/calendar', label: 'Shipping Calendar' },
  prices: { to: '/staff/admin/prices', label: 'Price Book' },
} as const;

const PROFILE_NAME_DISPLAY = { base: 'none', sm: 'block' } as const;

/** The back office's frame over the shared shell: only for a staff session past both factors. */
export function StaffLayout() {
  const session = useStaffSession();
  const logout = useStaffLogout();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [navOpen, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const signedIn = session.data?.stage === 'signed-in' ? session.data : null;
  const owner = signedIn ? returnPathOwner('staff', signedIn.staff.id) : null;
  const here = `${location.pathname}${location.search}`;
  const hereRef = useRef(here);
  hereRef.current = here;

  const signOut = useCallback(
    (notice: string | null) =>
      logout.mutate(undefined, {
        onSettled: () => {
          signOutNotice.set(notice);
          navigate('/staff', { replace: true });
        },
      }),
    [logout, navigate],
  );
  // A staff call answered 401: the session ended on the server (idle, disabled, signed out elsewhere).
  useEffect(
    () =>
      onUnauthenticated(() => {
        signOutNotice.set(ENDED_NOTICE);
        if (owner) returnPath.remember(hereRef.current, owner);
        queryClient.removeQueries({ queryKey: ['client'] });
        queryClient.setQueryData(staffSessionQueryKey, null);
      }),
    [queryClient, owner],
  );
  // Signed in and on a page: any return path has been followed.
  useEffect(() => {
    if (owner) returnPath.clear();
  }, [owner]);
  const keepAlive = useCallback(() => {
    void apiRequest('POST', 'staff/keepalive').catch(() => {});
  }, []);
  const idleMs = signedIn?.idleTimeoutMs ?? staffPolicy.idleTimeoutMs;
  const idle = useIdleSignOut({
    onIdle: () => {
      if (owner) returnPath.remember(hereRef.current, owner);
      signOut(`You were signed out after ${idleTimeText(idleMs)} without activity. Please sign in again.`);
    },
    keepAlive,
    enabled: signedIn !== null,
    idleMs,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the menu closes when the page changes
  useEffect(() => closeNav(), [location.pathname, closeNav]);

  // The header the server painted (PendingFrame) stays until the frame replaces it.
  if (session.isPending) return <PendingFrame />;
  if (session.data?.stage !== 'signed-in') return <Navigate to="/staff" replace />;
  const staff = session.data.staff;

  return (
    <PortalShell
      title="Back Office"
      home={staffNavigation.home.to}
      navOpen={navOpen}
      toggleNav={toggleNav}
      dialogs={
        <IdleWarningDialog
          opened={idle.warning}
          warnBeforeMs={idle.warnBeforeMs}
          onStay={idle.staySignedIn}
          onSignOut={() => signOut(null)}
        />
      }
      headerEnd={
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ProfileMenuButton name={staff.name} initial={staff.name} nameDisplay={PROFILE_NAME_DISPLAY} />
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>
              {staff.email} ({staff.level})
            </Menu.Label>
            <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => signOut(null)}>
              Sign Out
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      }
      navbar={
        <AppShell.Section grow component={ScrollArea}>
          <nav aria-label="Back office sections">
            {[
              ...Object.values(staffNavigation),
              ...(staff.level === 'admin' ? Object.values(staffAdminNavigation) : []),
            ].map((link) => (
              <NavLink
                key={link.to}
                component={Link}
                to={link.to}
                label={link.label}
                active={location.pathname.startsWith(link.to)}
              />
            ))}
          </nav>
        </AppShell.Section>
      }
    />
  );
}
