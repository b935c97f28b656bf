import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { type PriceBook, type PriceBookResponse, priceBookOf } from '../../domain/price-book';
import { apiRequest } from './api-client';
import { priceBookQueryKey } from './price-book-key';

export { priceBookQueryKey };

/**
 * The price book in force, as the server prices from it. Kept a minute: a version taking effect
 * meanwhile makes the server answer 409 with its own amount, and the page then reads the book again.
 */
export const priceBookQuery = queryOptions({
  queryKey: priceBookQueryKey,
  queryFn: () => apiRequest<PriceBookResponse>('GET', 'pay/price_book'),
  staleTime: 60_000,
  select: (answer): PriceBook => priceBookOf(answer.amounts),
});

/** The book every amount on a page comes from (the page waits for it, like for its code). */
export function usePriceBook(): PriceBook {
  return useSuspenseQuery(priceBookQuery).data;
}
