import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffLoginRequest, StaffNextStep } from '../../../../domain/staff';
import { apiRequest } from '../../../lib/api-client';
import { staffSessionQueryKey } from './staff-session';

/** Step 1: e-mail and password; answers what the second step is. */
export function useStaffLogin() {
  return useMutation({
    mutationFn: (body: StaffLoginRequest) =>
      apiRequest<{ next: StaffNextStep }>('POST', 'staff/login', { body, expectUnauthenticated: true }),
  });
}

/** First sign-in of a member an admin created: their own password (the half session stays). */
export function useChangeInitialPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      apiRequest<{ next: StaffNextStep }>('POST', 'staff/change_initial_password', {
        body: { password },
        expectUnauthenticated: true,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffSessionQueryKey }),
  });
}

/** Step 2: a TOTP code or a recovery code; the session becomes whole. */
export function useSecondFactor(kind: 'verify_totp' | 'verify_recovery_code') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest<{ signedIn: true }>('POST', `staff/${kind}`, {
        body: { code },
        expectUnauthenticated: true,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffSessionQueryKey }),
  });
}

export function useStaffLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', 'staff/logout', { expectUnauthenticated: true }).catch(() => null),
    onSettled: () => {
      queryClient.removeQueries({ queryKey: ['staff'] });
      queryClient.setQueryData(staffSessionQueryKey, null);
    },
  });
}
