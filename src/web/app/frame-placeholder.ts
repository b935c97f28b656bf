import { logoMarkSvg } from '../components/logo-mark-shapes.ts';

/** The mark's size in the header and its gap to the portal's name, in px: the same in both headers. */
export const LOGO_SIZE = 28;
export const LOGO_GAP = 8;

/** The portal's typeface: the theme's (providers.tsx), and the frame placeholder's before it. */
export const PORTAL_FONT_FAMILY =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * The signed-in frame's header (PortalShell) as plain HTML: the bank's mark and the portal's name
 * on its bar, with room for the phone menu's button. The server puts it in the page it sends for a signed-in
 * address, so the header shows as soon as the page arrives instead of when the app has loaded and
 * run, and the app shows the same markup while its frame is still loading (PendingFrame), so it
 * does not blink between the two. It paints before the app's stylesheet has come (the server
 * defers it on these pages), so each of Mantine's values it takes has its own value beside it.
 */
export function framePlaceholderHtml(title: string): string {
  const text = title.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c);
  return (
    '<div class="frame-placeholder" aria-hidden="true"><style>' +
    '.frame-placeholder header{position:fixed;top:0;left:0;right:0;z-index:100;height:60px;' +
    'box-sizing:border-box;display:flex;align-items:center;gap:12px;padding:0 16px;' +
    'border-bottom:1px solid var(--mantine-color-gray-3,#dee2e6);background:var(--mantine-color-white,#fff);' +
    `font-family:${PORTAL_FONT_FAMILY}}` +
    '.frame-placeholder .frame-burger{width:28px;height:28px;flex:none}' +
    '@media (min-width:62em){.frame-placeholder .frame-burger{display:none}}' +
    `.frame-placeholder .frame-title{display:flex;align-items:center;gap:${LOGO_GAP}px;font-weight:700;` +
    'font-size:var(--mantine-font-size-lg,1.125rem);color:var(--mantine-color-blue-9,#1864ab);white-space:nowrap}' +
    '.frame-placeholder svg{flex:none;display:block}' +
    '</style><header><span class="frame-burger"></span><span class="frame-title">' +
    `${logoMarkSvg(`width="${LOGO_SIZE}" height="${LOGO_SIZE}" aria-hidden="true"`)}${text}</span></header></div>`
  );
}
