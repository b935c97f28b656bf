import { useMutation, useQuery } from '@tanstack/react-query';
import type {
  ClientVerificationRequest,
  ClientVerificationResponse,
} from '../../../../domain/client-verification';
import type {
  PublicPaymentResult,
  SetPublicPaymentInfoRequest,
  SetPublicPaymentInfoResponse,
} from '../../../../domain/payment-info';
import { apiRequest } from '../../../lib/api-client';

export function verifyClient(request: ClientVerificationRequest) {
  return apiRequest<ClientVerificationResponse>('POST', 'pay/set_verifyClientData', { body: request });
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
      apiRequest<SetPublicPaymentInfoResponse>('POST', 'pay/set_PublicPaymentInfo', {
        body: request,
        headers: { 'idempotency-key': idempotencyKey },
      }),
  });
}

/** What a save did, read from the server by its result token (the page's `?result=`). */
export function usePublicPaymentResult(result: string | null) {
  return useQuery({
    queryKey: ['public-payment-result', result] as const,
    queryFn: () =>
      apiRequest<PublicPaymentResult>('GET', 'pay/get_PublicPaymentResult', {
        query: { result: result ?? '' },
      }),
    enabled: result !== null,
    retry: false,
    staleTime: Infinity,
  });
}

/** The receipt of what a save charged, for whoever holds the page's result token. */
export const publicPaymentReceiptUrl = (result: string) =>
  `/api/pay/get_PublicPaymentReceipt?result=${encodeURIComponent(result)}`;
