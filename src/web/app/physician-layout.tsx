import { Anchor, AppShell, Group, Menu, NavLink, ScrollArea, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
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
      headerEnd={
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Group gap={6} wrap="nowrap" miw={0} data-testid="acting-for" visibleFrom="xs">
            <ActingFor acting={acting} />
          </Group>
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
        <>
          <AppShell.Section hiddenFrom="xs" p="xs">
            <ActingFor acting={acting} />
          </AppShell.Section>
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
        </>
      }
    />
  );
}

/** Whom the physician acts for, and the way back to choosing another. */
function ActingFor({ acting }: { acting: PhysicianSessionInfo['actingFor'] }) {
  return (
    <Text size="sm" truncate="end">
      {acting ? (
        <>
          Client:{' '}
          <Text span fw={600}>
            {acting.name} ({acting.clientACTId})
          </Text>
        </>
      ) : (
        'No client chosen'
      )}{' '}
      <Anchor component={Link} to={physicianNavigation.myClients.to} size="sm">
        {acting ? 'Change client' : 'Choose a client'}
      </Anchor>
    </Text>
  );
}
