import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ClientAgreementResponse,
  SetClientAgreementRequest,
  SetClientAgreementResponse,
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

/**
 * Signs the agreement and pays its deposit; the key makes a double click or a retry one signing
 * (and one charge).
 */
export function useSignClientAgreement(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SetClientAgreementRequest; idempotencyKey: string }) =>
      apiRequest<SetClientAgreementResponse>('POST', 'pay/set_Client_Agreement_service', {
        body,
        headers: { 'idempotency-key': idempotencyKey },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key(id) }),
  });
}
