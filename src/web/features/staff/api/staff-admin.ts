import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PriceVersion } from '../../../../domain/price-book';
import type { BlackoutDatesResponse } from '../../../../domain/shipping-calendar';
import type { AuditEvent, AuditSearchQuery, CreateStaffRequest, StaffMember } from '../../../../domain/staff';
import { apiRequest } from '../../../lib/api-client';
import { priceBookQueryKey } from '../../../lib/price-book';

export interface PriceVersionsResponse {
  today: string;
  versions: PriceVersion[];
}

export const staffAccountsQueryKey = ['staff', 'admin', 'accounts'] as const;

/** Admins: every staff account. */
export function useStaffAccounts() {
  return useQuery({
    queryKey: staffAccountsQueryKey,
    queryFn: async () => (await apiRequest<{ staff: StaffMember[] }>('GET', 'staff/staff')).staff,
  });
}

export function useCreateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateStaffRequest) =>
      apiRequest<{ staff: StaffMember; initialPassword: string }>('POST', 'staff/create_staff', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffAccountsQueryKey }),
  });
}

export function useDisableStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<StaffMember>('POST', 'staff/disable_staff', { body: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffAccountsQueryKey }),
  });
}

/** Admins: the whole audit trail, filtered (only the filters given are sent). */
export function useAuditSearch(search: AuditSearchQuery | null) {
  return useQuery({
    queryKey: ['staff', 'admin', 'audit', search] as const,
    enabled: search !== null,
    queryFn: async () => {
      const query = Object.fromEntries(Object.entries(search ?? {}).filter(([, v]) => v)) as Record<
        string,
        string
      >;
      return (await apiRequest<{ events: AuditEvent[] }>('GET', 'staff/audit_search', { query })).events;
    },
  });
}

export const blackoutDatesQueryKey = ['staff', 'admin', 'blackout-dates'] as const;

/** Admins: the carrier blackout dates and FedEx's computed holidays. */
export function useBlackoutDates() {
  return useQuery({
    queryKey: blackoutDatesQueryKey,
    queryFn: () => apiRequest<BlackoutDatesResponse>('GET', 'staff/blackout_dates'),
  });
}

/** Adds or removes one blackout date; the answer is the new calendar. */
export function useChangeBlackoutDate(change: 'add' | 'remove') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (date: string) =>
      apiRequest<BlackoutDatesResponse>('POST', `staff/${change}_blackout_date`, { body: { date } }),
    onSuccess: (calendar) => queryClient.setQueryData(blackoutDatesQueryKey, calendar),
  });
}

export const priceVersionsQueryKey = ['staff', 'admin', 'price-versions'] as const;

/** Admins: every price book version, newest first, and the bank's today. */
export function usePriceVersions() {
  return useQuery({
    queryKey: priceVersionsQueryKey,
    queryFn: () => apiRequest<PriceVersionsResponse>('GET', 'staff/price_versions'),
  });
}

/** Adds a version, approves one awaiting approval, or withdraws one not yet in force; the portal's pages read the book again. */
export function useChangePriceVersions<Body extends object>(
  call: 'create_price_version' | 'withdraw_price_version' | 'approve_price_version',
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) =>
      apiRequest<PriceVersionsResponse & { version?: number; awaitingApproval?: boolean }>(
        'POST',
        `staff/${call}`,
        { body },
      ),
    onSuccess: (answer) => {
      queryClient.setQueryData(priceVersionsQueryKey, { today: answer.today, versions: answer.versions });
      void queryClient.invalidateQueries({ queryKey: priceBookQueryKey });
    },
  });
}
