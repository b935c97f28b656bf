import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ChangeBillingYearRequest,
  changeBillingYearResponseSchema,
} from '../../../../domain/storage-billing';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { billingOverviewQueryKey } from './billing';
import { clientBillingScheduleQueryKey } from './client-billing-schedule';

/**
 * "Waive or defer" (admins): waives an open storage year or defers its charge, with a reason. The
 * Billing page's lists and the client's schedule are read again afterwards, and so they are when
 * the year had already left the open ones (409).
 */
export function useChangeBillingYear() {
  const queryClient = useQueryClient();
  const readAgain = (clientActId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: billingOverviewQueryKey, exact: true }),
      queryClient.invalidateQueries({ queryKey: clientBillingScheduleQueryKey(clientActId) }),
    ]);
  return useMutation({
    mutationFn: async ({
      yearId,
      request,
    }: {
      yearId: string;
      clientActId: string;
      request: ChangeBillingYearRequest;
    }) =>
      changeBillingYearResponseSchema.parse(
        await apiRequest('POST', `staff/billing/years/${encodeURIComponent(yearId)}`, { body: request }),
      ),
    onSuccess: (_answer, { clientActId }) => readAgain(clientActId),
    onError: async (error, { clientActId }) => {
      if (error instanceof ApiError && error.status === 409) await readAgain(clientActId);
    },
  });
}
