import { describe, expect, it } from 'vitest';
import { recheckAfterMs } from './paid-order';

describe('a paid order whose charge is still held is looked at again', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const leaseEndingIn = (ms: number) => ({ leaseUntil: new Date(now.getTime() + ms) });

  it('one second after the charge lease ends, not a minute later', () => {
    expect(recheckAfterMs(leaseEndingIn(20_000), now)).toBe(21_000);
  });

  it('within a second when the lease has just lapsed', () => {
    expect(recheckAfterMs(leaseEndingIn(-5_000), now)).toBe(1_000);
  });

  it('at most a minute later, however long the lease', () => {
    expect(recheckAfterMs(leaseEndingIn(10 * 60_000), now)).toBe(60_000);
  });
});
