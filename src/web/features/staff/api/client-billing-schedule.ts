import { useQuery } from '@tanstack/react-query';
import { clientBillingYearsSchema } from '../../../../domain/storage-billing';
import { apiRequest } from '../../../lib/api-client';
import { billingOverviewQueryKey } from './billing';

/**
 * Under the overview's key, so a billing run (which reads the overview again, and all under it)
 * refreshes the schedules too.
 */
export const clientBillingScheduleQueryKey = (clientActId: string) =>
  [...billingOverviewQueryKey, 'clients', clientActId] as const;

/** A client's billing schedule on their record: every storage year billed, newest first. */
export function useClientBillingSchedule(clientActId: string) {
  return useQuery({
    queryKey: clientBillingScheduleQueryKey(clientActId),
    queryFn: async () =>
      clientBillingYearsSchema.parse(
        await apiRequest('GET', `staff/billing/clients/${encodeURIComponent(clientActId)}`),
      ).years,
  });
}
