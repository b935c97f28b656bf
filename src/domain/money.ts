/** Money is integer cents everywhere; only the edges format it. */
export type Cents = number;

export function formatUsd(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents to the decimal number the legacy contract carries (339.81). */
/**
 * A rate kept in basis points as people read it, the one way every page, e-mail and PDF shows one:
 * 300 is "3%", 350 "3.5%", 275 "2.75%", 600 "6%".
 */
export function formatRate(basisPoints: number): string {
  return `${Number((basisPoints / 100).toFixed(2))}%`;
}

export function centsToAmount(cents: Cents): number {
  return Math.round(cents) / 100;
}
