import { useMutation } from '@tanstack/react-query';
import type { AmountDue, ClientVerificationRequest } from '../../../../domain/client-verification';
import type { SetPaymentInfoResponse, SetPublicPaymentInfoRequest } from '../../../../domain/payment-info';
import { apiRequest } from '../../../lib/api-client';

export function verifyClient(request: ClientVerificationRequest) {
  return apiRequest<{ verified: true; message: string; verification: string; amountDue: AmountDue }>(
    'POST',
    'pay/set_verifyClientData',
    {
      body: request,
    },
  );
}

export function useVerifyClient() {
  return useMutation({ mutationFn: verifyClient });
}

export function usePublicPaymentSave() {
  return useMutation({
    mutationFn: ({
      request,
      idempotencyKey,
    }: {
      request: SetPublicPaymentInfoRequest;
      idempotencyKey: string;
    }) =>
      apiRequest<SetPaymentInfoResponse>('POST', 'pay/set_PublicPaymentInfo', {
        body: request,
        headers: { 'idempotency-key': idempotencyKey },
      }),
  });
}
