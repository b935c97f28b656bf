import { Box, Text } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A refusal of the server or the gateway (a decline, a changed amount), shown where the eye is:
 * under the button that caused it, brought into view and focused when it appears (on a phone
 * the top of a long form is off-screen), and announced. Red, because it is a problem.
 */
export function SubmitFailure({ message, children }: { message: string | null; children?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!message) return;
    ref.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    ref.current?.focus({ preventScroll: true });
  }, [message]);
  if (!message) return null;
  return (
    <Box ref={ref} tabIndex={-1} style={{ outline: 'none' }}>
      <Text c="red.9" fw={600} role="alert">
        {message}
      </Text>
      {children}
    </Box>
  );
}
