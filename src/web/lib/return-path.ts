/**
 * Where a person was when their session ended (idle, or ended on the server), to take them back
 * there once they sign in again (issue 24). Kept in memory only, with whose page it was: someone
 * else signing in on this computer starts at their own home page. Only a path of the portal
 * itself is ever followed: relative, same origin, not a sign-in page.
 */
let pending: { path: string; who: string } | null = null;

const SIGN_IN_PAGES = new Set(['/', '/physician', '/staff']);

/** A path of this portal: `/…` (not `//…` nor `/\…`), same origin, no sign-in page, no control characters. */
export function isPortalPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(path)) return false;
  try {
    const base = 'https://portal.invalid';
    const url = new URL(path, base);
    if (url.origin !== base) return false;
    return !SIGN_IN_PAGES.has(url.pathname.toLowerCase().replace(/\/+$/, '') || '/');
  } catch {
    return false;
  }
}

export const returnPath = {
  /** The page `who` (`client:<id>`, `physician:<id>`, `staff:<id>`) was on. */
  remember(path: string, who: string) {
    pending = isPortalPath(path) ? { path, who } : null;
  },
  /** Where `who` goes after signing in: their page if they were on one, else `fallback`. */
  for(who: string, fallback: string): string {
    return pending && pending.who === who && isPortalPath(pending.path) ? pending.path : fallback;
  },
  clear() {
    pending = null;
  },
};

/** Who a return path belongs to: this person, in this role (`client:<id>`, `staff:<id>`). */
export const returnPathOwner = (role: string, id: string) => `${role}:${id}`;
