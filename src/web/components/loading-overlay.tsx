import { Box, Loader, VisuallyHidden } from '@mantine/core';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

// Calls that answer quickly should not flash the overlay.
const SHOW_AFTER_MS = 150;

/** The spinner overlay shown while calls are in progress. */
export function LoadingOverlay({ force = false }: { force?: boolean }) {
  const busy = useIsFetching() + useIsMutating() > 0 || force;
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  if (!visible) return null;
  return (
    <Box
      role="status"
      aria-live="polite"
      data-testid="loading-overlay"
      pos="fixed"
      inset={0}
      style={{ zIndex: 400, display: 'grid', placeItems: 'center', background: 'rgba(255,255,255,0.55)' }}
    >
      <Loader />
      <VisuallyHidden>Loading</VisuallyHidden>
    </Box>
  );
}
