import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteConfig } from '../../domain/site';
import { apiRequest } from './api-client';

/** The portal's public settings, among them where "contact us" leads (CONTACT_URL on the server). */
export const siteConfigQuery = queryOptions({
  queryKey: ['site-config'] as const,
  queryFn: () => apiRequest<SiteConfig>('GET', 'pay/site_config'),
  staleTime: Infinity,
});

export function useSiteConfig() {
  return useQuery(siteConfigQuery);
}

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
