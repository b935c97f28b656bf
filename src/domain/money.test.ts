import { describe, expect, it } from 'vitest';
import { centsToAmount, formatRate, formatUsd } from './money';

describe('formatUsd shows integer cents as US dollars', () => {
  it.each([
    [0, '$0.00', 'zero'],
    [1, '$0.01', 'one cent'],
    [99, '$0.99', 'the last amount under a dollar'],
    [100, '$1.00', 'one dollar'],
    [33_981, '$339.81', 'the annual maintenance fee'],
    [50_000, '$500.00', 'the retrieval fee for one vial'],
    [99_999, '$999.99', 'the last amount without a thousands separator'],
    [100_000, '$1,000.00', 'the first amount with a thousands separator'],
    [101_943, '$1,019.43', 'three overdue annual fees'],
    [123_456_789, '$1,234,567.89', 'millions'],
    [-1, '-$0.01', 'a negative cent, sign before the dollar mark'],
    [-33_981, '-$339.81', 'a refund of the annual maintenance fee'],
    [-100_000, '-$1,000.00', 'a negative amount with a thousands separator'],
  ])('%i cents is %s (%s)', (cents, shown) => {
    expect(formatUsd(cents)).toBe(shown);
  });
});

describe('centsToAmount gives the decimal dollars the legacy contract carries', () => {
  it.each([
    [0, 0],
    [1, 0.01],
    [99, 0.99],
    [33_981, 339.81],
    [35_000, 350],
    [50_000, 500],
    [101_943, 1019.43],
    [-33_981, -339.81],
  ])('%i cents is %d dollars', (cents, amount) => {
    expect(centsToAmount(cents)).toBe(amount);
  });

  it('rounds a fractional cent to the nearest whole cent first', () => {
    expect(centsToAmount(33_980.5)).toBe(339.81);
    expect(centsToAmount(33_981.4)).toBe(339.81);
  });
});

describe('formatRate shows a rate in basis points one way, on every page, e-mail and PDF', () => {
  it.each([
    [0, '0%', 'no fee'],
    [1, '0.01%', 'the smallest rate'],
    [250, '2.5%', 'a trailing zero dropped'],
    [275, '2.75%', 'hundredths kept'],
    [300, '3%', 'the card processing fee as shipped'],
    [350, '3.5%', 'a card fee a staff version sets'],
    [600, '6%', "a newborn plan's interest rate"],
    [2_000, '20%', "FedEx's mark-up as shipped"],
    [10_000, '100%', 'the most a rate may be'],
  ])('%i basis points is %s (%s)', (basisPoints, shown) => {
    expect(formatRate(basisPoints)).toBe(shown);
  });
});
