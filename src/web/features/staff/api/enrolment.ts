import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface EnrolmentOffer {
  secret: string;
  otpauthUri: string;
  qrSvg: string;
}

/** The secret offered at first sign-in (the same one until a code confirms it). */
export function useEnrolmentOffer(enabled: boolean) {
  return useQuery({
    queryKey: ['staff', 'enrolment'] as const,
    queryFn: () => apiRequest<EnrolmentOffer>('GET', 'staff/enrolment', { expectUnauthenticated: true }),
    enabled,
    staleTime: Infinity,
  });
}

/** Confirms the enrolment with a code; answers the recovery codes, shown once. */
export function useEnrolTotp() {
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest<{ recoveryCodes: string[] }>('POST', 'staff/enrol_totp', {
        body: { code },
        expectUnauthenticated: true,
      }),
  });
}
