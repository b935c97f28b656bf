import { Box, Text } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';

/** The server's or the gateway's refusal, in red at the top of the form, brought into view. */
export function FormFailure({ message, children }: { message: string | null; children?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [message]);
  if (!message) return null;
  return (
    <Box ref={ref}>
      <Text c="red.9" fw={600} role="alert">
        {message}
      </Text>
      {children}
    </Box>
  );
}
