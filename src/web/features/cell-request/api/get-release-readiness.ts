import { useQuery } from '@tanstack/react-query';
import type { ReleaseReadiness } from '../../../../domain/release-readiness';
import { apiRequest } from '../../../lib/api-client';

/** The release checklist of the client's next request, or of one request (`requestId`), from the server. */
export function useReleaseReadiness(clientId: string | null, requestId?: string) {
  return useQuery({
    queryKey: ['client', clientId, 'release-readiness', requestId ?? 'next'] as const,
    queryFn: () =>
      apiRequest<ReleaseReadiness>('GET', 'pay/get_ReleaseReadiness', {
        query: requestId ? { id: requestId } : {},
      }),
    enabled: clientId !== null,
  });
}
