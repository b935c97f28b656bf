import { useEffect, useRef } from 'react';
import { authPolicy } from '../../domain/auth-policy';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * Calls `onIdle` after 5 minutes (or `idleMs`: the back office's 15) without keyboard, pointer or
 * scroll activity. Activity is noticed at most every 250 ms (the spec's debounce) to keep mouse
 * moves cheap.
 */
export function useIdleSignOut(
  onIdle: () => void,
  enabled = true,
  onActive?: () => void,
  idleMs: number = authPolicy.idleTimeoutMs,
) {
  const onIdleRef = useRef(onIdle);
  onIdleRef.current = onIdle;
  const onActiveRef = useRef(onActive);
  onActiveRef.current = onActive;

  useEffect(() => {
    if (!enabled) return;
    let idleTimer = setTimeout(() => onIdleRef.current(), idleMs);
    let debounceTimer: ReturnType<typeof setTimeout> | null = null;

    const restart = () => {
      debounceTimer = null;
      onActiveRef.current?.();
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => onIdleRef.current(), idleMs);
    };
    const onActivity = () => {
      if (debounceTimer === null) debounceTimer = setTimeout(restart, authPolicy.idleDebounceMs);
    };
    for (const name of ACTIVITY_EVENTS)
      window.addEventListener(name, onActivity, { passive: true, capture: true });
    return () => {
      clearTimeout(idleTimer);
      if (debounceTimer !== null) clearTimeout(debounceTimer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
    };
  }, [enabled, idleMs]);
}
