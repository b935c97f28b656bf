import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

/** A long text in a box that scrolls; focusable so it can be scrolled by keyboard too. */
export function ScrollableText({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      role="region"
      aria-label={label}
      // A scrolling region must be reachable by keyboard to be scrolled without a mouse.
      tabIndex={0}
      mah={360}
      p="md"
      bg="gray.0"
      style={{
        overflowY: 'auto',
        border: '1px solid var(--mantine-color-gray-4)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      {children}
    </Box>
  );
}
