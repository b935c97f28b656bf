import { useQuery } from '@tanstack/react-query';
import type { AuditEvent } from '../../../../domain/staff';
import { apiRequest } from '../../../lib/api-client';

/** Who read or changed this client's data: the client's audit trail, newest first. */
export function useClientAudit(clientId: string) {
  return useQuery({
    queryKey: ['client', clientId, 'audit'] as const,
    queryFn: async () =>
      (await apiRequest<{ events: AuditEvent[] }>('GET', 'staff/audit', { query: { clientId } })).events,
  });
}
