import { useCallback, useEffect, useRef, useState } from 'react';
import { authPolicy, idleSchedule } from '../../domain/auth-policy';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

interface IdleSignOut {
  /** After `idleMs` without activity: sign out. */
  onIdle(): void;
  /** Activity, or "Stay signed in": tell the server the person is still here. */
  keepAlive(): void;
  enabled?: boolean;
  /** 5 minutes (the back office's 15), or as the server is configured (site_config). */
  idleMs?: number;
}

/**
 * Signs out after `idleMs` without keyboard, pointer or scroll activity, and a minute before says
 * so (`warning`): from then only "Stay signed in" (`staySignedIn`) keeps the session, so that a
 * pointer passing over the page does not dismiss a warning nobody read. Activity is noticed at
 * most every 250 ms (the spec's debounce) to keep mouse moves cheap, and tells the server through
 * `keepAlive` at most every `keepAliveEveryMs`, with a last call after the activity stops: the
 * server's idle clock then never ends the session before the page does.
 */
export function useIdleSignOut({
  onIdle,
  keepAlive,
  enabled = true,
  idleMs = authPolicy.idleTimeoutMs,
}: IdleSignOut) {
  const onIdleRef = useRef(onIdle);
  onIdleRef.current = onIdle;
  const keepAliveRef = useRef(keepAlive);
  keepAliveRef.current = keepAlive;
  const [warning, setWarning] = useState(false);
  const warningRef = useRef(false);
  const restartRef = useRef<() => void>(() => {});
  const schedule = idleSchedule(idleMs);

  useEffect(() => {
    if (!enabled) return;
    const { warnAfterMs, keepAliveEveryMs } = idleSchedule(idleMs);
    let warnTimer: ReturnType<typeof setTimeout> | undefined;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    let debounceTimer: ReturnType<typeof setTimeout> | null = null;
    let trailingTimer: ReturnType<typeof setTimeout> | null = null;
    let lastKeepAlive = Date.now();

    const showWarning = (open: boolean) => {
      warningRef.current = open;
      setWarning(open);
    };
    const sendKeepAlive = () => {
      trailingTimer = null;
      lastKeepAlive = Date.now();
      keepAliveRef.current();
    };
    const noteActivity = () => {
      const since = Date.now() - lastKeepAlive;
      if (since >= keepAliveEveryMs) sendKeepAlive();
      else trailingTimer ??= setTimeout(sendKeepAlive, keepAliveEveryMs - since);
    };
    const startTimers = () => {
      clearTimeout(warnTimer);
      clearTimeout(idleTimer);
      warnTimer = setTimeout(() => showWarning(true), warnAfterMs);
      idleTimer = setTimeout(() => {
        showWarning(false);
        onIdleRef.current();
      }, idleMs);
    };
    const restart = () => {
      debounceTimer = null;
      if (warningRef.current) return;
      noteActivity();
      startTimers();
    };
    const onActivity = () => {
      if (debounceTimer === null) debounceTimer = setTimeout(restart, authPolicy.idleDebounceMs);
    };
    restartRef.current = () => {
      showWarning(false);
      sendKeepAlive();
      startTimers();
    };

    startTimers();
    for (const name of ACTIVITY_EVENTS)
      window.addEventListener(name, onActivity, { passive: true, capture: true });
    return () => {
      clearTimeout(warnTimer);
      clearTimeout(idleTimer);
      if (debounceTimer !== null) clearTimeout(debounceTimer);
      if (trailingTimer !== null) clearTimeout(trailingTimer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
      restartRef.current = () => {};
      warningRef.current = false;
      setWarning(false);
    };
  }, [enabled, idleMs]);

  const staySignedIn = useCallback(() => restartRef.current(), []);
  return { warning, staySignedIn, warnBeforeMs: schedule.warnBeforeMs };
}
