import { describe, expect, it } from 'vitest';
import { errorBodySchema, errorCodes, errorStatus, isErrorCode } from './errors';

describe('error codes', () => {
  it('gives every code exactly one status, a 4xx or 5xx', () => {
    expect(new Set(errorCodes).size).toBe(errorCodes.length);
    expect(errorCodes).toEqual(Object.keys(errorStatus));
    for (const code of errorCodes) {
      const status = errorStatus[code];
      expect(Number.isInteger(status), code).toBe(true);
      expect(status >= 400 && status < 600, `${code} ${status}`).toBe(true);
    }
  });

  it('takes every code in an error body, and no other', () => {
    for (const code of errorCodes) {
      expect(errorBodySchema.safeParse({ error: 'x', code }).success, code).toBe(true);
      expect(isErrorCode(code)).toBe(true);
    }
    expect(errorBodySchema.safeParse({ error: 'x', code: 'TEAPOT' }).success).toBe(false);
    expect(isErrorCode('TEAPOT')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });
});
