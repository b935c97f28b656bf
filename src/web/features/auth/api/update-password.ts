import { useMutation } from '@tanstack/react-query';
import type { UpdatePasswordRequest } from '../../../../domain/auth';
import { apiRequest } from '../../../lib/api-client';

export function updatePassword(request: UpdatePasswordRequest): Promise<{ message: string }> {
  return apiRequest('POST', 'pay/update_Password', { body: request });
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword });
}
