import { describe, expect, it } from 'vitest';
import { containsCardNumber } from './card-number-text';

describe('card-number-shaped text', () => {
  it.each([
    ['a Visa in one piece', '4111111111111111'],
    ['a Visa in groups of 4 with spaces', '4111 1111 1111 1111'],
    ['a Visa in groups of 4 with dashes', '4242-4242-4242-4242'],
    ['an American Express card 4-6-5', '3782 822463 10005'],
    ['an American Express card in one piece', '378282246310005'],
    ['a 13-digit Visa', '4222222222222'],
    ['a 19-digit card in 4-4-4-4-3', '4000 1234 5678 9012 343'],
    ['inside a name', 'John 4111 1111 1111 1111 Roe'],
    ['inside free text with punctuation', 'Taking aspirin (card:5555555555554444).'],
    ['after a phone number on the same line', 'call 305-555-1234 4111-1111-1111-1111'],
    ['on its own line of free text', 'Aspirin\n4111111111111111\nIbuprofen'],
    ['a Mastercard of the 2-series', '2223003122003222'],
    ['a Discover card', '6011111111111117'],
  ])('finds %s', (_, text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    ['a 10-digit phone number', '3055551234'],
    ['a phone number with dashes', '305-555-1234'],
    ['an ABA routing number', '110000000'],
    ['a zip code followed by a phone number', 'Miami FL 33101 305-555-1234'],
    ['a ZIP+4', '33101-1234'],
    ['a date', '2026-11-22'],
    ['a US date', '03/14/1975'],
    ['a 16-digit number failing the Luhn check', '4111111111111112'],
    ['12 digits', '411111111116'],
    ['a 20-digit number (an id, not a card)', '41111111111111111110'],
    ['a Client ID', 'ACT10002'],
    ['a uuid', '123e4567-e89b-12d3-a456-426614174000'],
    ['digits inside a hex digest', 'ab4111111111111111cd'],
    ['a street address', '1200 Brickell Ave Suite 1800'],
    ['empty text', ''],
    ['a millisecond clock reading that passes the Luhn check', 'new.member.1795397649496@example.com'],
    ['a 22-digit carrier tracking number', '9612019059803563051884'],
  ])('leaves %s alone', (_, text) => {
    expect(containsCardNumber(text)).toBe(false);
  });
});
