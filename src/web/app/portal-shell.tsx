import {
  AppShell,
  Avatar,
  Burger,
  Group,
  type StyleProp,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { type ReactNode, type Ref, Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay';
import { SiteFooter } from '../components/site-footer';

/**
 * The frame every signed-in portal shares: the header with the phone menu's burger and the
 * portal's name (a link home), the left navigation, and the page with its loading overlay.
 * Each role's layout fills in its own menus.
 */
export function PortalShell(props: {
  title: string;
  home: string;
  navOpen: boolean;
  toggleNav: () => void;
  /** What the header shows after the portal's name: menus, the profile. */
  headerEnd: ReactNode;
  navbar: ReactNode;
}) {
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 270, breakpoint: 'md', collapsed: { mobile: !props.navOpen } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={props.navOpen}
              onClick={props.toggleNav}
              hiddenFrom="md"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Text
              component={Link}
              to={props.home}
              fw={700}
              size="lg"
              c="blue.9"
              style={{ textDecoration: 'none', whiteSpace: 'nowrap' }}
            >
              {props.title}
            </Text>
          </Group>
          {props.headerEnd}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Portal navigation">
        {props.navbar}
      </AppShell.Navbar>
      <AppShell.Main>
        {/* The page's own code may still be loading: the frame shows meanwhile, and its record
            queries start, instead of the whole app waiting (and rendering again) for the page.
            One overlay at a time: the page's own overlay is inside, hidden while it suspends. */}
        <Suspense fallback={<LoadingOverlay force />}>
          <LoadingOverlay />
          <Outlet />
        </Suspense>
        <SiteFooter />
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The button that opens a portal's profile menu (inside Menu.Target): the initial, the name where
 * the header has room, and "Profile menu" for assistive technology. Its accessible name holds the
 * name it shows, so a voice control user can say what they see.
 */
export function ProfileMenuButton({
  name,
  initial,
  nameDisplay,
  ref,
  ...props
}: {
  name: string;
  initial: string;
  /** Where the name shows (the initial always does). */
  nameDisplay: StyleProp<'none' | 'block'>;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <UnstyledButton ref={ref} {...props}>
      <Group gap={6} wrap="nowrap">
        <Avatar color="blue" radius="xl" size="sm" aria-hidden>
          {initial.slice(0, 1)}
        </Avatar>
        <Text size="sm" display={nameDisplay} style={{ whiteSpace: 'nowrap' }}>
          {name}
        </Text>
        <VisuallyHidden>Profile menu</VisuallyHidden>
        <IconChevronDown size={14} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}
