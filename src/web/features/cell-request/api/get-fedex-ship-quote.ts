import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ShippingAmountResponse, shippingQuoteRequestSchema } from '../../../../domain/shipping';
import { apiRequest } from '../../../lib/api-client';

/** The server's shipping charge for the address: FedEx with the bank's markup, ACT VIP nothing now. */
export function useFedexShipQuote() {
  return useMutation({
    mutationFn: (request: z.input<typeof shippingQuoteRequestSchema>) =>
      apiRequest<ShippingAmountResponse>('POST', 'pay/get_FedexShipQuote', { body: request }),
  });
}
