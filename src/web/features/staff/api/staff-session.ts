import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaffSessionInfo } from '../../../../domain/staff';
import { ApiError, apiRequest } from '../../../lib/api-client';

export const staffSessionQueryKey = ['staff', 'session'] as const;

/** The staff session of this browser, or null when there is none (a 401 or 404 is an answer). */
export async function getStaffSession(): Promise<StaffSessionInfo | null> {
  try {
    return await apiRequest<StaffSessionInfo>('GET', 'staff/session', { expectUnauthenticated: true });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return null;
    throw error;
  }
}

export const staffSessionQuery = queryOptions({
  queryKey: staffSessionQueryKey,
  queryFn: getStaffSession,
  staleTime: Infinity,
});

export function useStaffSession() {
  return useQuery(staffSessionQuery);
}
