import { Navigate } from 'react-router';
import { homeOf, type Role, useSession } from '../lib/session';
import { PendingFrame } from './pending-frame';
import { PhysicianLayout } from './physician-layout';
import { PortalLayout } from './portal-layout';

/**
 * The one gate in front of every signed-in page: it reads the session once and opens the layout
 * of its role. A visitor without a session goes to sign-in; someone on a page of the other role
 * goes to their own start page.
 */
export function SessionGate({ roles }: { roles: readonly Role[] }) {
  const session = useSession();
  if (session.isPending) return <PendingFrame />;
  if (!session.data) return <Navigate to="/" replace />;
  if (!roles.includes(session.data.role)) return <Navigate to={homeOf[session.data.role]} replace />;
  return session.data.role === 'physician' ? (
    <PhysicianLayout session={session.data} />
  ) : (
    <PortalLayout session={session.data} />
  );
}
