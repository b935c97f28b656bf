import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PhysicianConsent } from '../../../../domain/consent-form';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryKey } from '../../../lib/client-record';

/** The key names the client it is about, so choosing another client never shows this one's answer. */
export function physicianConsentQueryKey(clientId: string | null) {
  return [...clientQueryKey(clientId), 'physician-consent'] as const;
}

export function getPhysicianConsent(): Promise<PhysicianConsent> {
  return apiRequest<PhysicianConsent>('GET', 'pay/get_PhysicianConsent');
}

export function physicianConsentQuery(clientId: string | null) {
  return queryOptions({ queryKey: physicianConsentQueryKey(clientId), queryFn: getPhysicianConsent });
}

/**
 * The consent of the client the physician acts for: whether it is signed or may be, the client's
 * details to prefill and the client's own payment methods.
 */
export function usePhysicianConsent(clientId: string | null) {
  return useQuery({ ...physicianConsentQuery(clientId), enabled: clientId !== null });
}
