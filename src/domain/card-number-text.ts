import { luhnValid } from './payments';

/** What a client is told when a card number is typed where it does not belong. */
export const CARD_NUMBER_IN_TEXT =
  'Card numbers are never entered in this field. Please enter card details only in the card fields of the payment form.';

// Digits in groups joined by one space or dash; a letter or digit on either side means it is part
// of something else (a hex id, a reference), not a number a person typed.
const DIGIT_RUN = /(?<![A-Za-z0-9])\d+(?:[ -]\d+)*(?![A-Za-z0-9])/g;

// A card number's first digit names its industry (ISO/IEC 7812): 2 to 6 are the card networks
// (Mastercard's 2-series, Amex/JCB/Diners, Visa, Mastercard, Discover/UnionPay). A run starting
// with 0, 1, 7, 8 or 9 (a clock reading, a carrier's tracking number) is no card.
const cardLike = (digits: string) =>
  digits.length >= 13 && digits.length <= 19 && /^[2-6]/.test(digits) && luhnValid(digits);

/**
 * Whether the text holds something shaped like a card number: 13 to 19 digits of a card network
 * (first digit 2 to 6) passing the Luhn
 * check, written in one piece or in the groups cards are printed in (a first group of 4, then
 * groups of 4 to 6, the last one possibly shorter: 4-4-4-4, 4-6-5, 4-4-4-4-3), with spaces or
 * dashes. Phone numbers (10 digits), routing numbers (9), zip codes and dates are too short or not
 * grouped like a card, so a phone number next to a zip code is not mistaken for one.
 */
export function containsCardNumber(text: string): boolean {
  for (const match of text.matchAll(DIGIT_RUN)) {
    const groups = match[0].split(/[ -]/);
    for (let start = 0; start < groups.length; start++) {
      const first = groups[start] as string;
      if (cardLike(first)) return true;
      if (first.length !== 4) continue;
      let digits = first;
      for (let next = start + 1; next < groups.length; next++) {
        const group = groups[next] as string;
        if (group.length > 6) break;
        digits += group;
        if (digits.length > 19) break;
        if (cardLike(digits)) return true;
        if (group.length < 4) break;
      }
    }
  }
  return false;
}
