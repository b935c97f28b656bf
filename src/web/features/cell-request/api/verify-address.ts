import { useMutation } from '@tanstack/react-query';
import type { VerifyAddressRequest, VerifyAddressResponse } from '../../../../domain/shipping';
import { apiRequest } from '../../../lib/api-client';

/** Asks the carrier whether it knows the address, or what it suggests instead. */
export function useVerifyAddress() {
  return useMutation({
    mutationFn: (address: VerifyAddressRequest) =>
      apiRequest<VerifyAddressResponse>('POST', 'pay/get_verifyAddressWithFedex', { body: address }),
  });
}
