import { useQuery } from '@tanstack/react-query';
import type { ShipmentDatesResponse } from '../../../../domain/shipping';
import { apiRequest } from '../../../lib/api-client';

/**
 * The store's arrival dates for a year from today: its earliest date and the staff blackout dates,
 * which the page checks with the server's own rule (`storeShipmentDateProblem`).
 */
export function useStoreShipmentDates(range: { from: string; to: string }) {
  return useQuery({
    queryKey: ['store', 'shipment-dates', range.from, range.to] as const,
    queryFn: () =>
      apiRequest<ShipmentDatesResponse>('GET', 'pay/get_ShipmentDates', {
        query: { ...range, method: 'FedEx', purpose: 'store' },
      }),
  });
}
