/**
 * Why the visitor was signed out (idle, ended elsewhere), shown once on the sign-in page.
 * Kept in memory only: it carries no personal data and does not survive a reload.
 */
let pending: string | null = null;

export const signOutNotice = {
  set(notice: string | null) {
    pending = notice;
  },
  peek(): string | null {
    return pending;
  },
  clear() {
    pending = null;
  },
};
