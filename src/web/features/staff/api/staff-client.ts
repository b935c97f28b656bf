import { useQuery } from '@tanstack/react-query';
import type { StaffClientRecord } from '../../../../domain/staff-client';
import { apiRequest } from '../../../lib/api-client';

/** One client's record for the back office. */
export function useStaffClient(id: string) {
  return useQuery({
    queryKey: ['client', id, 'staff-record'] as const,
    queryFn: () => apiRequest<StaffClientRecord>('GET', 'staff/client', { query: { id } }),
  });
}

/** Where a client's document downloads for staff (the download is audited). */
export function staffDocumentUrl(documentId: string): string {
  return `/api/staff/documents/${encodeURIComponent(documentId)}`;
}
