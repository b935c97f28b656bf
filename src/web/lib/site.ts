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

/** An ID "Remember me" keeps on this device under `key`, never the password. */
function rememberedId(key: string) {
  return {
    get(): string {
      try {
        return localStorage.getItem(key) ?? '';
      } catch {
        return '';
      }
    },
    set(id: string | null): void {
      try {
        if (id) localStorage.setItem(key, id);
        else localStorage.removeItem(key);
      } catch {
        // Private browsing without storage: nothing to remember.
      }
    },
  };
}

/** The client sign-in's "Remember me": the Client ID. */
export const rememberedClientId = rememberedId('portal.rememberedClientId');

/** The physician sign-in's "Remember me": the Physician ID. */
export const rememberedPhysicianId = rememberedId('portal.rememberedPhysicianId');
