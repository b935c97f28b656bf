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
import { type CSSProperties, type ReactNode, type Ref, Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavigationType, Outlet, useLocation, useNavigationType } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay';
import { LogoMark } from '../components/logo-mark';
import { SiteFooter } from '../components/site-footer';
import { LOGO_GAP, LOGO_SIZE } from './frame-placeholder';

/**
 * The frame every signed-in portal shares: the header with the phone menu's burger and the
 * bank's mark with the portal's name (a link home), the left navigation, and the page with its loading overlay.
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
  /** Dialogs over every page of the portal (the idle sign-out's warning). */
  dialogs?: ReactNode;
  /** A line under the header's, at every width: whom a physician acts for. */
  headerBand?: ReactNode;
}) {
  const main = useMainFocus();
  return (
    <AppShell
      header={{ height: props.headerBand ? HEADER_ROW + HEADER_BAND : HEADER_ROW }}
      navbar={{ width: 270, breakpoint: 'md', collapsed: { mobile: !props.navOpen } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <AppShell.Header>
        <SkipLink />
        <Group h={HEADER_ROW} px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={props.navOpen}
              onClick={props.toggleNav}
              hiddenFrom="md"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Link to={props.home} style={homeLink}>
              <LogoMark size={LOGO_SIZE} />
              <Text component="span" fw={700} size="lg" c="blue.9" style={{ whiteSpace: 'nowrap' }}>
                {props.title}
              </Text>
            </Link>
          </Group>
          {props.headerEnd}
        </Group>
        {props.headerBand && (
          <Group
            h={HEADER_BAND}
            px="md"
            gap="xs"
            wrap="nowrap"
            bg="gray.0"
            style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
          >
            {props.headerBand}
          </Group>
        )}
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Portal navigation">
        {props.navbar}
      </AppShell.Navbar>
      <AppShell.Main id="main-content" ref={main} tabIndex={-1} style={{ outline: 'none' }}>
        {/* The page's own code may still be loading: the frame shows meanwhile, and its record
            queries start, instead of the whole app waiting (and rendering again) for the page.
            One overlay at a time: the page's own overlay is inside, hidden while it suspends. */}
        <Suspense fallback={<LoadingOverlay force />}>
          <LoadingOverlay />
          <Outlet />
        </Suspense>
        <SiteFooter />
      </AppShell.Main>
      {props.dialogs}
    </AppShell>
  );
}

const HEADER_ROW = 60;

const homeLink: CSSProperties = {
  display: 'flex',
  alignItems: 'center',
  gap: LOGO_GAP,
  textDecoration: 'none',
};
const HEADER_BAND = 36;

const offScreen: CSSProperties = {
  position: 'absolute',
  left: -10_000,
  width: 1,
  height: 1,
  overflow: 'hidden',
};
const inView: CSSProperties = {
  position: 'absolute',
  top: 8,
  left: 8,
  zIndex: 1000,
  padding: '8px 12px',
  background: 'var(--mantine-color-white)',
  border: '2px solid var(--mantine-color-blue-7)',
  borderRadius: 4,
};

/** The first Tab of every page: straight to the page, past the header and the menu. */
function SkipLink() {
  const [focused, setFocused] = useState(false);
  return (
    <a
      href="#main-content"
      style={focused ? inView : offScreen}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
    >
      Skip to main content
    </a>
  );
}

/** Whether a portal page has been shown in this document yet (a page opened by its address is the first). */
let pageShown = false;

/**
 * Where the keyboard is after a page change: on the page's main heading (read out first, and the
 * next Tab is the page's first control), not left on the menu link that was pressed or on the
 * document after signing in; a page that put the focus somewhere itself (its first field, its
 * answer) keeps it. The heading may come after the page's code or data: the focus waits for it
 * (on the main region meanwhile), and stops waiting when the person moves the focus themselves.
 * A page opened by its address (typed, reloaded) leaves the focus where the browser put it, at
 * the start of the document: the first Tab is the skip link.
 */
function useMainFocus() {
  const main = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the focus moves on each new page.
  useEffect(() => {
    const opened = !pageShown && navigationType === NavigationType.Pop;
    pageShown = true;
    const region = main.current;
    if (!region || opened) return;
    const elsewhere = () => {
      const active = document.activeElement;
      return !active || active === document.body || !region.contains(active) || active === region;
    };
    if (!elsewhere()) return;
    const toHeading = () => {
      const heading = region.querySelector('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.style.outline = 'none';
      heading.focus({ preventScroll: true });
      return true;
    };
    if (!toHeading()) region.focus({ preventScroll: true });
    // The page may still change its heading (a loading state's, then the data's): while the focus
    // is on a heading of the page, or was lost with one removed, it follows to the heading shown.
    const onHeadingOrLost = () => {
      const active = document.activeElement;
      return !active || active === document.body || active === region || active.tagName === 'H1';
    };
    const watch = new MutationObserver(() => {
      if (!onHeadingOrLost()) watch.disconnect();
      else if (document.activeElement?.tagName !== 'H1' || !region.contains(document.activeElement))
        toHeading();
    });
    watch.observe(region, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [pathname]);
  return main;
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
