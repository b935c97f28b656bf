import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type RefundRequest,
  refundAnswerSchema,
  refundDeclinedSchema,
  staffClientPaymentsSchema,
} from '../../../../domain/refunds';
import { apiRequest } from '../../../lib/api-client';

export const clientPaymentsQueryKey = (clientActId: string) =>
  ['client', clientActId, 'staff-payments'] as const;

/** A client's approved payments with their refunds, for the staff record. */
export function useClientPayments(clientActId: string) {
  return useQuery({
    queryKey: clientPaymentsQueryKey(clientActId),
    queryFn: async () =>
      staffClientPaymentsSchema.parse(
        await apiRequest('GET', `staff/clients/${encodeURIComponent(clientActId)}/payments`),
      ),
  });
}

export type RefundAction =
  | { action: 'refund'; body: RefundRequest }
  | { action: 'approve'; refundId: string }
  | { action: 'decline'; refundId: string };

/** What the answer says, and whether the refund was sent or waits for a second admin. */
async function send({ request, idempotencyKey }: { request: RefundAction; idempotencyKey: string }) {
  const headers = { 'idempotency-key': idempotencyKey };
  if (request.action === 'refund') {
    return refundAnswerSchema.parse(
      await apiRequest('POST', 'staff/refunds', { body: request.body, headers }),
    );
  }
  const path = `staff/refunds/${encodeURIComponent(request.refundId)}/${request.action}`;
  const answer = await apiRequest('POST', path, { body: {}, headers });
  return request.action === 'approve' ? refundAnswerSchema.parse(answer) : refundDeclinedSchema.parse(answer);
}

/**
 * A refund asked for, approved or declined (admins). The key is the submission's: the caller keeps
 * it across a double click or a retry and takes a new one after an answer. The client's record
 * (its payments, its activity) is read again after any answer, a refusal included: someone else
 * may have acted first.
 */
export function useRefundAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    // Not awaited: the caller's own callbacks run first, while its form is still on the page.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['client'] });
    },
  });
}
