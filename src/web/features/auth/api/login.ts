import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest } from '../../../../domain/auth';
import { apiRequest } from '../../../lib/api-client';
import { sessionQueryKey } from '../../../lib/session';

interface LoginResponse {
  result: { login: true; message: string; id: string; clientACTId: string; clientLastName: string };
}

export function login(request: LoginRequest): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('POST', 'pay/login', { body: request, expectUnauthenticated: true });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async () => {
      queryClient.clear();
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}
