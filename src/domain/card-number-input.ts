import type { CardBrand } from './payments';

/**
 * The brand a card number belongs to while it is still being typed: from its first digits only,
 * so the mark shows as soon as the number says which card it is. Null while the first digits could
 * still be more than one brand, or are of a brand the bank does not take.
 */
export function cardBrandWhileTyping(value: string): CardBrand | null {
  const d = value.replace(/\D/g, '');
  const first = (n: number) => (d.length >= n ? Number(d.slice(0, n)) : null);
  const two = first(2);
  const three = first(3);
  const four = first(4);
  const six = first(6);
  if (d.startsWith('4')) return 'Visa';
  if (two === 34 || two === 37) return 'American Express';
  if (two !== null && two >= 51 && two <= 55) return 'Mastercard';
  if (four !== null && four >= 2221 && four <= 2720) return 'Mastercard';
  if (four === 6011 || two === 65) return 'Discover';
  if (three !== null && three >= 644 && three <= 649) return 'Discover';
  if (six !== null && six >= 622126 && six <= 622925) return 'Discover';
  return null;
}

/** How the brand prints its number: American Express 4-6-5, the others 4-4-4-4. */
export function cardNumberGroups(brand: CardBrand | null): readonly number[] {
  return brand === 'American Express' ? [4, 6, 5] : [4, 4, 4, 4];
}

/** The most digits the form takes for the brand (spec 1: at most 16; American Express has 15). */
export function cardNumberMaxDigits(brand: CardBrand | null): number {
  return cardNumberGroups(brand).reduce((sum, size) => sum + size, 0);
}

/**
 * The card number as it is typed, grouped the way the brand prints it ("4242 4242 4242 4242",
 * "3782 822463 10005"): anything but digits is dropped, digits past the brand's length too.
 */
export function groupCardNumber(value: string): string {
  const brand = cardBrandWhileTyping(value);
  const digits = value.replace(/\D/g, '').slice(0, cardNumberMaxDigits(brand));
  const groups: string[] = [];
  let at = 0;
  for (const size of cardNumberGroups(brand)) {
    if (at >= digits.length) break;
    groups.push(digits.slice(at, at + size));
    at += size;
  }
  return groups.join(' ');
}
