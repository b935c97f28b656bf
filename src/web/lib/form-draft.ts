import { useCallback, useEffect, useState } from 'react';

/**
 * Unsaved answers of a form, kept in this tab's sessionStorage so that a reload, or Back and
 * Forward, lose nothing. Never card or bank numbers, CVVs or drawn signatures: the caller chooses
 * what goes in. Sign-out forgets every draft (`forgetAllDrafts`), so the next person at the
 * computer never sees them.
 */
const PREFIX = 'portal-draft:';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage refused (a privacy setting): the form works, without surviving a reload.
    return null;
  }
}

export function readDraft<T>(key: string): T | null {
  const raw = storage()?.getItem(PREFIX + key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, value: unknown) {
  try {
    storage()?.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Full or refused: the draft only lives in memory.
  }
}

export function forgetDraft(key: string) {
  storage()?.removeItem(PREFIX + key);
}

/** Every draft of this tab: at sign-out, whatever its reason. */
export function forgetAllDrafts() {
  const store = storage();
  if (!store) return;
  for (const key of Object.keys(store)) if (key.startsWith(PREFIX)) store.removeItem(key);
}

/**
 * A draft for a form: what was saved before (read once, on the first render) and a function that
 * keeps the current answers. `key` null (no client known yet) keeps nothing.
 */
export function useFormDraft<T>(key: string | null, current: T | null) {
  const [restored] = useState(() => (key ? readDraft<T>(key) : null));
  const serialized = current === null ? null : JSON.stringify(current);
  useEffect(() => {
    if (!key) return;
    if (serialized === null) forgetDraft(key);
    else writeDraft(key, JSON.parse(serialized));
  }, [key, serialized]);
  const forget = useCallback(() => {
    if (key) forgetDraft(key);
  }, [key]);
  return { restored, forget };
}
