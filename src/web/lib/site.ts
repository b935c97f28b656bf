/** Where "contact us" leads: the bank's own website. */
export const CONTACT_URL = 'https://www.stemcellbank.example.com/contact-us';

const REMEMBERED_CLIENT_ID = 'portal.rememberedClientId';

/** "Remember me" keeps the Client ID on this device, never the password. */
export const rememberedClientId = {
  get(): string {
    try {
      return localStorage.getItem(REMEMBERED_CLIENT_ID) ?? '';
    } catch {
      return '';
    }
  },
  set(clientId: string | null): void {
    try {
      if (clientId) localStorage.setItem(REMEMBERED_CLIENT_ID, clientId);
      else localStorage.removeItem(REMEMBERED_CLIENT_ID);
    } catch {
      // Private browsing without storage: nothing to remember.
    }
  },
};
