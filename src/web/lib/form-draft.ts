import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { DraftFormName, FormDraft, FormDraftResponse } from '../../domain/form-drafts';
import { apiRequest } from './api-client';
import { draftSaves } from './draft-saves';
import { sessionQueryKey } from './session';

/**
 * A form's unsent answers, kept on the server for whoever is signed in (issue 24): saved a moment
 * after each change, and as the tab closes or reloads; read when the form opens. Never in the
 * browser's storage. The caller chooses what goes in: never card or bank numbers nor a signature
 * (the server refuses them too).
 */
const SAVE_AFTER_MS = 600;

/** `subject`: the client the form is about (the signed-in client, or the one a physician acts for). */
export function formDraftQuery(form: DraftFormName, subject: string | null) {
  return queryOptions({
    queryKey: ['form-draft', form, subject] as const,
    queryFn: () => apiRequest<FormDraftResponse>('GET', `pay/drafts/${form}`),
    // Read afresh each time the form opens: another tab or computer may have saved since.
    staleTime: 0,
    gcTime: 0,
  });
}

export function useFormDraftQuery(form: DraftFormName, subject: string | null) {
  return useQuery({ ...formDraftQuery(form, subject), enabled: subject !== null });
}

/**
 * Keeps `value` as the form's draft while it changes (null: nothing to keep yet; null again after
 * a value, as when an edit is cancelled or saved: the kept draft is discarded). `forget` stops
 * saving once the form is submitted: the server has deleted its drafts by then.
 */
export function useSaveFormDraft(form: DraftFormName, subject: string | null, value: FormDraft | null) {
  const queryClient = useQueryClient();
  const serialized = value === null ? null : JSON.stringify(value);
  const waiting = useRef<string | null>(null);
  const stopped = useRef(false);
  // This page's saves and deletes reach the server in the order they were made: a delete (Cancel,
  // Save, Leave) never lands before a save still on its way, which would keep the draft.
  const calls = useRef<Promise<unknown>>(Promise.resolve());
  const inOrder = useCallback((call: () => Promise<unknown>) => {
    const next = calls.current.then(call).catch(() => {});
    calls.current = next;
    return next;
  }, []);

  const send = useCallback(
    async ({ closing = false } = {}) => {
      const body = waiting.current;
      if (body === null || stopped.current) return;
      waiting.current = null;
      // Signed out meanwhile: nothing may be saved, and nothing needs to be.
      if (queryClient.getQueryData(sessionQueryKey) === null) return;
      const put = () =>
        apiRequest('PUT', `pay/drafts/${form}`, {
          body: JSON.parse(body),
          keepalive: closing,
          // A page closing does not hear the answer; a 401 then is not the page's session ending.
          expectUnauthenticated: closing,
        });
      // A page closing cannot wait for the calls before it: its save goes at once.
      await (closing ? put().catch(() => {}) : inOrder(put));
    },
    [form, queryClient, inOrder],
  );

  const hadValue = useRef(false);
  useEffect(() => {
    if (subject === null || stopped.current) return;
    if (serialized === null) {
      if (!hadValue.current) return;
      hadValue.current = false;
      waiting.current = null;
      void inOrder(() => apiRequest('DELETE', `pay/drafts/${form}`));
      return;
    }
    hadValue.current = true;
    waiting.current = serialized;
    const timer = setTimeout(() => void send(), SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [serialized, subject, send, form, inOrder]);

  useEffect(() => {
    if (subject === null) return;
    const key = `${form}:${subject}`;
    const closing = () => void send({ closing: true });
    draftSaves.add(key, () => send());
    window.addEventListener('pagehide', closing);
    return () => {
      window.removeEventListener('pagehide', closing);
      draftSaves.remove(key);
      // Leaving the form within the portal: what was typed last still goes.
      void send({ closing: true });
    };
  }, [form, subject, send]);

  const forget = useCallback(() => {
    stopped.current = true;
    waiting.current = null;
    queryClient.removeQueries({ queryKey: ['form-draft', form] });
  }, [form, queryClient]);

  /** The person drops their changes (they leave the page saying so): the kept draft goes too. */
  const discard = useCallback(() => {
    forget();
    void inOrder(() => apiRequest('DELETE', `pay/drafts/${form}`));
  }, [form, forget, inOrder]);

  return { forget, discard };
}
