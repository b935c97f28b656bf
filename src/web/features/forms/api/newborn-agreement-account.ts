import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AgreementAccount,
  type AgreementPaymentRequest,
  type AgreementPaymentResponse,
  agreementAccountSchema,
  type SetAgreementMethodRequest,
} from '../../../../domain/newborn-installments';
import { apiRequest } from '../../../lib/api-client';

const key = (id: string) => ['newborn-agreement', id, 'account'] as const;

/** The signed agreement's schedule, method and what can be paid now (the route's id is the link's token). */
export function useAgreementAccount(id: string, enabled: boolean) {
  return useQuery({
    queryKey: key(id),
    queryFn: async (): Promise<AgreementAccount> =>
      agreementAccountSchema.parse(
        await apiRequest('GET', 'pay/get_Client_Agreement_account', { query: { id } }),
      ),
    enabled: enabled && id !== '',
    retry: false,
  });
}

/** A new card or account for the installments (tokenized in the browser); nothing is charged. */
export function useChangeAgreementMethod(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SetAgreementMethodRequest; idempotencyKey: string }) =>
      apiRequest<{ message: string; method: string }>('POST', 'pay/set_Client_Agreement_payment_method', {
        body,
        headers: { 'idempotency-key': idempotencyKey },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key(id) }),
  });
}

/** Pays the overdue installments or the balance early; the key makes a double click one charge. */
export function usePayAgreement(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: AgreementPaymentRequest; idempotencyKey: string }) =>
      apiRequest<AgreementPaymentResponse>('POST', 'pay/set_Client_Agreement_payment', {
        body,
        headers: { 'idempotency-key': idempotencyKey },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key(id) }),
  });
}
