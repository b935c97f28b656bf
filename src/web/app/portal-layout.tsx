import {
  AppShell,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconFlag, IconLogout, IconPencil, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { SessionInfo } from '../../domain/auth';
import { formsIncomplete } from '../../domain/client-basics';
import { useClient } from '../lib/client-record';
import { formLinks, navigation } from './navigation';
import { PortalShell, ProfileMenuButton } from './portal-shell';
import { usePortalSession } from './use-portal-session';

// The header menu of spec 1 shows from 1200 px (lg). Up to 1408 px (xl) its links are set a
// little tighter and the profile menu shows the initial without the name, so the header fits.
const HEADER_LINK_PX = { base: 8, xl: 'xs' } as const;
const HEADER_LINK_FZ = { base: 'xs', xl: 'sm' } as const;
const PROFILE_NAME_DISPLAY = { base: 'none', sm: 'block', lg: 'none', xl: 'block' } as const;

/** The signed-in client's frame: header, menus, left navigation. The session gate chose it. */
export function PortalLayout({ session }: { session: SessionInfo }) {
  const client = useClient();
  const { signOut, navOpen, toggleNav, isActive, idleWarning } = usePortalSession(session);

  const record = client.data;
  const formsRed = record ? formsIncomplete(record) : false;
  const noCard = record ? !record.creditCardNumber : false;
  const displayName = record ? `${record.firstName} ${record.lastName}` : session.clientACTId;

  return (
    <PortalShell
      title="Client Portal"
      home="/client-information"
      navOpen={navOpen}
      toggleNav={toggleNav}
      dialogs={idleWarning}
      headerEnd={
        <>
          <Group gap={0} visibleFrom="lg" component="nav" aria-label="Main menu" wrap="nowrap">
            <HeaderLink to={navigation.clientInformation.to} label={navigation.clientInformation.label} />
            <HeaderLink to={navigation.clientActivity.to} label={navigation.clientActivity.label} />
            <Menu position="bottom-start" withinPortal>
              <Menu.Target>
                <UnstyledButton
                  px={HEADER_LINK_PX}
                  py={6}
                  fz={HEADER_LINK_FZ}
                  c={formsRed ? 'red.9' : undefined}
                  style={{ whiteSpace: 'nowrap' }}
                >
                  <Group gap={4} wrap="nowrap">
                    {navigation.forms.label}
                    <IconChevronDown size={14} aria-hidden />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                {formLinks.map((link) => (
                  <Menu.Item key={link.to} component={Link} to={link.to}>
                    {link.label}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
            <HeaderLink to={navigation.stemCellRequest.to} label={navigation.stemCellRequest.label} />
            <HeaderLink to={navigation.plans.to} label={navigation.plans.label} />
            <HeaderLink to={navigation.paymentInformation.to} label={navigation.paymentInformation.label} />
          </Group>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ProfileMenuButton
                name={displayName}
                initial={displayName}
                nameDisplay={PROFILE_NAME_DISPLAY}
              />
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                leftSection={<IconUser size={16} aria-hidden />}
                component={Link}
                to="/client-information"
              >
                Profile
              </Menu.Item>
              <Menu.Item
                leftSection={<IconPencil size={16} aria-hidden />}
                component={Link}
                to="/client-information?edit=1"
              >
                Edit Profile
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => signOut()}>
                Sign Out
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </>
      }
      navbar={
        <AppShell.Section grow component={ScrollArea}>
          <nav aria-label="Portal sections">
            <SideLink
              to={navigation.clientInformation.to}
              label={navigation.clientInformation.label}
              active={isActive}
            />
            <SideLink
              to={navigation.clientActivity.to}
              label={navigation.clientActivity.label}
              active={isActive}
            />
            <SideLink to={navigation.plans.to} label={navigation.plans.label} active={isActive} />
            <NavLink
              component="button"
              label={navigation.forms.label}
              defaultOpened
              c={formsRed ? 'red.9' : undefined}
              description={
                formsRed ? (
                  // The description is dimmed by default, too light on white to read easily.
                  <Text span fz="xs" c="red.9">
                    Consent or screening to complete
                  </Text>
                ) : undefined
              }
              data-incomplete={formsRed || undefined}
              childrenOffset="md"
            >
              {formLinks.map((link) => (
                <NavLink
                  key={link.to}
                  component={Link}
                  to={link.to}
                  label={link.label}
                  active={isActive(link.to)}
                  // Red for the form still to do only; the open page keeps the active colours (red on
                  // its light red background is too faint).
                  c={record && !record[link.done] && !isActive(link.to) ? 'red.9' : undefined}
                  data-incomplete={(record && !record[link.done]) || undefined}
                />
              ))}
            </NavLink>
            <SideLink
              to={navigation.stemCellRequest.to}
              label={navigation.stemCellRequest.label}
              active={isActive}
            />
            <SideLink to={navigation.store.to} label={navigation.store.label} active={isActive} />
            <NavLink
              component={Link}
              to={navigation.paymentInformation.to}
              label={navigation.paymentInformation.label}
              active={isActive(navigation.paymentInformation.to)}
              rightSection={
                noCard ? (
                  <Group gap={2} c="red.9" wrap="nowrap">
                    <IconFlag size={16} aria-hidden />
                    <VisuallyHidden>No card on file</VisuallyHidden>
                  </Group>
                ) : undefined
              }
              data-flagged={noCard || undefined}
            />
          </nav>
        </AppShell.Section>
      }
    />
  );
}

function HeaderLink({ to, label }: { to: string; label: string }) {
  return (
    <UnstyledButton
      component={Link}
      to={to}
      px={HEADER_LINK_PX}
      py={6}
      fz={HEADER_LINK_FZ}
      style={{ whiteSpace: 'nowrap' }}
    >
      {label}
    </UnstyledButton>
  );
}

function SideLink({ to, label, active }: { to: string; label: string; active: (to: string) => boolean }) {
  return <NavLink component={Link} to={to} label={label} active={active(to)} />;
}
