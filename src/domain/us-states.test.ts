import { describe, expect, it } from 'vitest';
import { isUsStateCode, US_STATES } from './us-states';

describe('US_STATES, the Preferred Shipping state list', () => {
  it('holds the 50 states and the District of Columbia: 51 entries', () => {
    expect(US_STATES).toHaveLength(51);
  });

  it('includes the District of Columbia', () => {
    expect(US_STATES).toContainEqual({ code: 'DC', name: 'District of Columbia' });
  });

  it('lists no code twice', () => {
    const codes = US_STATES.map((state) => state.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('lists no name twice', () => {
    const names = US_STATES.map((state) => state.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('uses two capital letters for every code', () => {
    for (const state of US_STATES) expect(state.code).toMatch(/^[A-Z]{2}$/);
  });

  it('is in alphabetical order of name', () => {
    const names = US_STATES.map((state) => state.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en-US')));
  });
});

describe('isUsStateCode', () => {
  it.each(['AL', 'DC', 'NY', 'WY', 'HI', 'AK'])('accepts %s', (code) => {
    expect(isUsStateCode(code)).toBe(true);
  });

  it.each([
    ['PR', 'Puerto Rico is a territory, not a state'],
    ['GU', 'Guam is a territory, not a state'],
    ['XX', 'not a code'],
    ['ny', 'a lower-case code'],
    [' NY', 'a code with a space'],
    ['New York', 'a state name instead of its code'],
    ['', 'an empty string'],
  ])('refuses %j (%s)', (value) => {
    expect(isUsStateCode(value)).toBe(false);
  });
});
