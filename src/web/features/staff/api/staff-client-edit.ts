import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  sendAgreementLinkRequestSchema,
  sendAgreementLinkResponseSchema,
  staffUpdateClientRequestSchema,
  staffUpdateClientResponseSchema,
} from '../../../../domain/staff-client';
import { apiRequest } from '../../../lib/api-client';

type UpdateBody = z.infer<ReturnType<typeof staffUpdateClientRequestSchema>>;
type UpdateAnswer = z.infer<typeof staffUpdateClientResponseSchema>;
type AgreementBody = z.infer<typeof sendAgreementLinkRequestSchema>;
type AgreementAnswer = z.infer<typeof sendAgreementLinkResponseSchema>;

/** Staff correct a client's profile; the record (with its history of changes) is read again. */
export function useStaffUpdateClient(recordId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBody) => apiRequest<UpdateAnswer>('POST', 'staff/update_client', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['client', recordId, 'staff-record'] }),
  });
}

/** Creates a newborn finance agreement and e-mails its link to the main contact. */
export function useSendAgreementLink() {
  return useMutation({
    mutationFn: (body: AgreementBody) =>
      apiRequest<AgreementAnswer>('POST', 'staff/send_agreement_link', { body }),
  });
}
