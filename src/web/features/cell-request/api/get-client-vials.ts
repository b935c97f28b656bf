import { useQuery } from '@tanstack/react-query';
import type { ClientVialsResponse } from '../../../../domain/shipping';
import { apiRequest } from '../../../lib/api-client';

/** Which pre-paid vials a release uses, what the rest cost and its earliest date, from the server. */
export function useClientVials(clientId: string | null, vials: number) {
  return useQuery({
    queryKey: ['client', clientId, 'vials', vials] as const,
    queryFn: () =>
      apiRequest<ClientVialsResponse>('POST', 'pay/get_ClientVialsService', {
        body: { NumberOfVials: vials },
      }),
    enabled: clientId !== null && vials > 0,
  });
}
