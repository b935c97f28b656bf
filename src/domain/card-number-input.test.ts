import { describe, expect, it } from 'vitest';
import { cardBrandWhileTyping, cardNumberMaxDigits, groupCardNumber } from './card-number-input';

describe('the brand of a card number being typed', () => {
  it.each([
    ['', null],
    ['4', 'Visa'],
    ['4242 4242 4242 4242', 'Visa'],
    ['3', null],
    ['34', 'American Express'],
    ['37', 'American Express'],
    ['36', null],
    ['5', null],
    ['50', null],
    ['51', 'Mastercard'],
    ['55', 'Mastercard'],
    ['56', null],
    ['2220', null],
    ['2221', 'Mastercard'],
    ['2720', 'Mastercard'],
    ['2721', null],
    ['601', null],
    ['6011', 'Discover'],
    ['6012', null],
    ['643', null],
    ['644', 'Discover'],
    ['649', 'Discover'],
    ['65', 'Discover'],
    ['622125', null],
    ['622126', 'Discover'],
    ['622925', 'Discover'],
    ['622926', null],
    ['1234', null],
  ])('%j is %s', (typed, brand) => {
    expect(cardBrandWhileTyping(typed)).toBe(brand);
  });
});

describe('a card number grouped as it is typed', () => {
  it.each([
    ['', ''],
    ['4', '4'],
    ['4242', '4242'],
    ['42424', '4242 4'],
    ['4242424242424242', '4242 4242 4242 4242'],
    ['4242 4242 4242 4242', '4242 4242 4242 4242'],
    ['4242-4242-4242-4242', '4242 4242 4242 4242'],
    ['42424242424242421', '4242 4242 4242 4242'],
    ['5555555555554444', '5555 5555 5555 4444'],
    ['6011111111111117', '6011 1111 1111 1117'],
    ['3782', '3782'],
    ['37828', '3782 8'],
    ['3782822463', '3782 822463'],
    ['37828224631', '3782 822463 1'],
    ['378282246310005', '3782 822463 10005'],
    ['3782822463100059', '3782 822463 10005'],
    ['4a2b4c2', '4242'],
  ])('%j reads %j', (typed, shown) => {
    expect(groupCardNumber(typed)).toBe(shown);
  });

  it('takes 15 digits for American Express and 16 for the other brands', () => {
    expect(cardNumberMaxDigits('American Express')).toBe(15);
    for (const brand of ['Visa', 'Mastercard', 'Discover', null] as const) {
      expect(cardNumberMaxDigits(brand)).toBe(16);
    }
  });
});
