import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../lib/query-client';
import { PORTAL_FONT_FAMILY } from './frame-placeholder';

const theme = createTheme({
  // Red is kept for problems (errors, overdue amounts, forms still to do); actions are blue.
  primaryColor: 'blue',
  primaryShade: 8,
  components: {
    // The open page's link: dark blue on the palest blue, so its label stays readable (WCAG AA).
    // A plain object, not NavLink.extend: naming NavLink here would load it with the sign-in page.
    NavLink: {
      vars: () => ({
        root: {
          '--nl-bg': 'var(--mantine-color-blue-0)',
          '--nl-hover': 'var(--mantine-color-blue-0)',
          '--nl-color': 'var(--mantine-color-blue-9)',
        },
        children: {},
      }),
    },
    // A badge is a few words that must be read whole ("1 waiting"): beside a title in a narrow
    // card it keeps its width and the title wraps, instead of the badge ending in "1 WAI…".
    Badge: { styles: { root: { flexShrink: 0 } } },
  },
  fontFamily: PORTAL_FONT_FAMILY,
});

// Mantine's default error red is too light for small text on white (WCAG AA); use the darkest red.
// A "light" blue button's dark blue label on its hover background (blue-2) was 4.0:1, under AA's
// 4.5:1 while the pointer is on it: the backgrounds move one shade paler (label on blue-1: 4.9:1).
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-blue-light': 'var(--mantine-color-blue-0)',
    '--mantine-color-blue-light-hover': 'var(--mantine-color-blue-1)',
  },
  dark: {},
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
