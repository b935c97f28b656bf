import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ClientAgreementResponse,
  SetClientAgreementRequest,
} from '../../../../domain/newborn-agreement';
import { apiRequest } from '../../../lib/api-client';

const key = (id: string) => ['newborn-agreement', id] as const;

/** The agreement a link opens (the route's id is the link's token). */
export function useClientAgreement(id: string) {
  return useQuery({
    queryKey: key(id),
    queryFn: () =>
      apiRequest<ClientAgreementResponse>('GET', 'pay/get_Client_Agreement_service', { query: { id } }),
    enabled: id !== '',
    retry: false,
  });
}

export function useSignClientAgreement(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetClientAgreementRequest) =>
      apiRequest<{ NB_Finance_Agreement_Completed__c: true; message: string }>(
        'POST',
        'pay/set_Client_Agreement_service',
        { body },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key(id) }),
  });
}
