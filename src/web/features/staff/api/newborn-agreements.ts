import { useQuery } from '@tanstack/react-query';
import { clientNewbornAgreementsSchema } from '../../../../domain/newborn-agreement';
import { apiRequest } from '../../../lib/api-client';

/** A client's newborn finance agreements with their schedules, for their record. */
export function useClientNewbornAgreements(clientId: string) {
  return useQuery({
    queryKey: ['client', clientId, 'newborn-agreements'] as const,
    queryFn: async () =>
      clientNewbornAgreementsSchema.parse(
        await apiRequest('GET', `staff/newborn-agreements/clients/${encodeURIComponent(clientId)}`),
      ),
    enabled: clientId !== '',
  });
}
