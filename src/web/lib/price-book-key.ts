/**
 * Every query about the price book starts with this; a new version invalidates it. On its own so
 * that the query client (on every page, sign-in too) can name it without loading the price book's
 * schemas and zod with them (DESIGN.md section 10).
 */
export const priceBookQueryKey = ['price-book'] as const;
