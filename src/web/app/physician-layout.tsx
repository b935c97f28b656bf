import { Anchor, AppShell, Group, Menu, NavLink, ScrollArea, Text, VisuallyHidden } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { PhysicianSessionInfo } from '../../domain/auth';
import { physicianNavigation } from './navigation';
import { PortalShell, ProfileMenuButton } from './portal-shell';
import { usePortalSession } from './use-portal-session';

const PROFILE_NAME_DISPLAY = { base: 'none', sm: 'block' } as const;

/** The signed-in physician's frame: the client's look, their own menu, and whom they act for. */
export function PhysicianLayout({ session }: { session: PhysicianSessionInfo }) {
  const { signOut, navOpen, toggleNav, isActive, idleWarning } = usePortalSession(session);
  const displayName = `Dr. ${session.physicianLastName}`;
  const acting = session.actingFor;

  return (
    <PortalShell
      title="Physician Portal"
      home={physicianNavigation.myClients.to}
      navOpen={navOpen}
      toggleNav={toggleNav}
      dialogs={idleWarning}
      headerBand={<ActingFor acting={acting} />}
      headerEnd={
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ProfileMenuButton
                name={displayName}
                initial={session.physicianLastName}
                nameDisplay={PROFILE_NAME_DISPLAY}
              />
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{session.physicianACTId}</Menu.Label>
              <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => signOut()}>
                Sign Out
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      }
      navbar={
        <AppShell.Section grow component={ScrollArea}>
          <nav aria-label="Portal sections">
            {Object.values(physicianNavigation).map((link) => (
              <NavLink
                key={link.to}
                component={Link}
                to={link.to}
                label={link.label}
                active={isActive(link.to)}
              />
            ))}
          </nav>
        </AppShell.Section>
      }
    />
  );
}

/**
 * Whom the physician acts for, under the header at every width (a phone included), and the way
 * to choose another: the name gives way before the Client ID and the link do.
 */
function ActingFor({ acting }: { acting: PhysicianSessionInfo['actingFor'] }) {
  return (
    <Group gap="xs" wrap="nowrap" miw={0} w="100%" data-testid="acting-for">
      <IconUser size={16} color="var(--mantine-color-gray-7)" aria-hidden style={{ flex: 'none' }} />
      {acting ? (
        <Text size="sm" miw={0} style={{ display: 'flex', gap: 4, whiteSpace: 'nowrap' }}>
          {/* A phone keeps its width for the name; a screen reader still hears "Client:". */}
          <Text span visibleFrom="xs">
            Client:
          </Text>
          <VisuallyHidden hiddenFrom="xs">Client:</VisuallyHidden>{' '}
          <Text span fw={700} truncate="end" miw={0}>
            {acting.name}
          </Text>{' '}
          <Text span fw={700} style={{ flex: 'none' }}>
            ({acting.clientACTId})
          </Text>
        </Text>
      ) : (
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          No client chosen
        </Text>
      )}
      <Anchor
        component={Link}
        to={physicianNavigation.myClients.to}
        size="sm"
        c="blue.9"
        style={{ flex: 'none', whiteSpace: 'nowrap' }}
      >
        {acting ? 'Change client' : 'Choose a client'}
      </Anchor>
    </Group>
  );
}
