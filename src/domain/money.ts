/** Money is integer cents everywhere; only the edges format it. */
export type Cents = number;

export function formatUsd(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents to the decimal number the legacy contract carries (339.81). */
export function centsToAmount(cents: Cents): number {
  return Math.round(cents) / 100;
}
