import { Box, Button, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { SubmissionFailure } from '../lib/submission-failure';

/**
 * The server's or the gateway's refusal, in red at the top of the form, brought into view; when
 * the text signed changed meanwhile, a button loads it again.
 */
export function FormFailure({
  failure,
  reloadLabel,
}: {
  failure: SubmissionFailure | null;
  reloadLabel: string;
}) {
  const message = failure?.message ?? null;
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
      {failure?.textChanged && (
        <Button variant="light" size="xs" mt="xs" onClick={() => window.location.reload()}>
          {reloadLabel}
        </Button>
      )}
    </Box>
  );
}
