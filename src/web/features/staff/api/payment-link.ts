import { useMutation } from '@tanstack/react-query';
import type { SendPaymentLinkRequest, SendPaymentLinkResponse } from '../../../../domain/staff';
import { apiRequest } from '../../../lib/api-client';

/** Sends the client a signed link to the public payment page (e-mail or text message). */
export function useSendPaymentLink() {
  return useMutation({
    mutationFn: (body: SendPaymentLinkRequest) =>
      apiRequest<SendPaymentLinkResponse>('POST', 'staff/send_payment_link', { body }),
  });
}
