import { useMutation } from '@tanstack/react-query';
import type { PhysicianOtpRequest, UpdatePhysicianPasswordRequest } from '../../../../domain/auth';
import { apiRequest } from '../../../lib/api-client';

export function requestPhysicianCode(
  request: PhysicianOtpRequest,
): Promise<{ otpSent: true; message: string }> {
  return apiRequest('GET', 'pay/get_physician_otp', { query: request });
}

export function updatePhysicianPassword(
  request: UpdatePhysicianPasswordRequest,
): Promise<{ message: string }> {
  return apiRequest('POST', 'pay/update_physician_password', { body: request });
}

/** Physician password recovery, step 1: the code by e-mail. */
export function useRequestPhysicianCode() {
  return useMutation({ mutationFn: requestPhysicianCode });
}

/** Physician password recovery, step 2: the code and the new password. */
export function useUpdatePhysicianPassword() {
  return useMutation({ mutationFn: updatePhysicianPassword });
}
