import { describe, expect, it } from 'vitest';
import { addressProblems, emptyAddress } from './cell-request-values';

const address = {
  ...emptyAddress,
  firstName: 'Maria',
  lastName: 'Alvarez',
  street: '200 Clinic Way',
  city: 'Miami',
  state: 'FL',
  ZipCode: '33131',
};

describe('Verify address on the request form', () => {
  it('takes a phone as people type it, as the server does (DESIGN 8.26)', () => {
    for (const phone of ['(305) 555-0142', '305.555.0142', '+1 305 555 0142', '3055550142']) {
      expect(addressProblems({ ...address, phone })).toEqual({});
    }
  });

  it('refuses letters with the spec message, and a number of the wrong length', () => {
    expect(addressProblems({ ...address, phone: '305-555-CALL' })).toEqual({
      phone: 'Please insert only number',
    });
    expect(addressProblems({ ...address, phone: '555-0142' })).toEqual({
      phone: 'Please enter a 10-digit phone number',
    });
    expect(addressProblems({ ...address, phone: '' })).toEqual({ phone: 'Please enter Phone' });
  });
});
