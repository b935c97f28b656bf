/** The key of the page's history entry that holds the signed link it was opened with. */
const SIGNED_LINK_KEY = 'signedLink';

function keptInEntry(): string | null {
  const state: unknown = window.history.state;
  if (state === null || typeof state !== 'object') return null;
  const kept = (state as Record<string, unknown>)[SIGNED_LINK_KEY];
  return typeof kept === 'string' && kept !== '' ? kept : null;
}

/**
 * The signed link (`?t=`) a public page was opened with. It leaves the address bar, so it is not
 * copied, shared or shown with the page, and moves into the page's history entry, beside the
 * router's own state: a reload, Back and Forward to the page, or a duplicated tab find it again
 * and the page opens as it was, while nothing is written to the browser's storage. Null when the
 * page was opened without one.
 */
export function takeSignedLink(): string | null {
  const url = new URL(window.location.href);
  const fromAddress = url.searchParams.get('t');
  if (!fromAddress) return keptInEntry();
  url.searchParams.delete('t');
  window.history.replaceState(
    { ...(window.history.state ?? {}), [SIGNED_LINK_KEY]: fromAddress },
    '',
    `${url.pathname}${url.search}${url.hash}`,
  );
  return fromAddress;
}

/**
 * Puts `search` in the address (a page's own result, `?result=…`) and drops the signed link from
 * the history entry: from then on the entry opens what the search names.
 */
export function replaceSignedLinkWith(search: string): void {
  const { [SIGNED_LINK_KEY]: _dropped, ...rest } = (window.history.state ?? {}) as Record<string, unknown>;
  window.history.replaceState(rest, '', `${window.location.pathname}${search}`);
}
