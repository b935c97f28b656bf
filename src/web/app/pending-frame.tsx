import { matchPath, useLocation } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay';
import { framePlaceholderHtml } from './frame-placeholder';
import { PAGE_FRAMES, PRELOADED_PAGES } from './preloaded-pages';

/** The portal a signed-in address opens in, or null (a page of both the client and the physician portal, or not signed-in). */
export function portalTitleOf(pathname: string): string | null {
  const entry = PRELOADED_PAGES.find(([pattern]) =>
    matchPath({ path: pattern, caseSensitive: false }, pathname),
  );
  return entry ? PAGE_FRAMES[entry[2]].title : null;
}

/**
 * What shows while the app's frame is still loading: on a signed-in page, the header the server
 * already painted (frame-placeholder.ts), so it stays put until the real frame replaces it; and
 * the loading overlay.
 */
export function PendingFrame() {
  const title = portalTitleOf(useLocation().pathname);
  return (
    <>
      {title && (
        <div
          style={{ display: 'contents' }}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the markup is our own (frame-placeholder.ts) and its one text, the portal's name, a constant of PAGE_FRAMES, escaped
          dangerouslySetInnerHTML={{ __html: framePlaceholderHtml(title) }}
        />
      )}
      <LoadingOverlay force />
    </>
  );
}
