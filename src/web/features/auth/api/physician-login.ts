import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PhysicianLoginRequest } from '../../../../domain/auth';
import { apiRequest } from '../../../lib/api-client';
import { sessionQueryKey } from '../../../lib/session';

interface PhysicianLoginResponse {
  result: { login: true; message: string; id: string; physicianACTId: string; physicianLastName: string };
}

export function physicianLogin(request: PhysicianLoginRequest): Promise<PhysicianLoginResponse> {
  return apiRequest('POST', 'pay/physician_login', { body: request, expectUnauthenticated: true });
}

export function usePhysicianLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: physicianLogin,
    onSuccess: async () => {
      queryClient.clear();
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}
