import { useMutation } from '@tanstack/react-query';
import type { OtpRequest } from '../../../../domain/auth';
import { apiRequest } from '../../../lib/api-client';

export function requestOneTimePassword(request: OtpRequest): Promise<{ otpSent: true; message: string }> {
  return apiRequest('GET', 'pay/get_otp', { query: request });
}

export function useRequestOneTimePassword() {
  return useMutation({ mutationFn: requestOneTimePassword });
}
