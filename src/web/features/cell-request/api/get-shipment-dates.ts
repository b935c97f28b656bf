import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ShippingMethod } from '../../../../domain/carrier-calendar';
import type { ShipmentDatesResponse } from '../../../../domain/shipping';
import { apiRequest } from '../../../lib/api-client';

/** The arrival dates the server accepts for this release, a year from today. */
export function useShipmentDates(
  clientId: string | null,
  range: { from: string; to: string },
  method: ShippingMethod,
  vials: number,
) {
  return useQuery({
    queryKey: ['client', clientId, 'shipment-dates', method, vials, range.from] as const,
    queryFn: () =>
      apiRequest<ShipmentDatesResponse>('GET', 'pay/get_ShipmentDates', {
        query: { ...range, method, purpose: 'vialRequest', NumberOfVials: String(vials) },
      }),
    enabled: clientId !== null,
    placeholderData: keepPreviousData,
  });
}
