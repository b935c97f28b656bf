import { describe, expect, it } from 'vitest';
import { carrierCountryCode, defaultDeclaredContents, defaultStoreContents, shippedBy } from './shipment';

describe('how a shipment reads', () => {
  it('names the courier and its reference for ACT VIP, the tracking number otherwise', () => {
    expect(shippedBy({ courier: 'MedCourier', trackingNumber: 'MC12345' })).toBe(
      ', MedCourier, reference MC12345',
    );
    expect(shippedBy({ courier: null, trackingNumber: '712345678901' })).toBe(
      ', tracking number 712345678901',
    );
    expect(shippedBy({ courier: undefined, trackingNumber: null })).toBe('');
  });

  it('declares the vials the package holds', () => {
    expect(defaultDeclaredContents(1)).toBe(
      'Cryopreserved human cells, 1 vial, in a liquid nitrogen dry shipper',
    );
    expect(defaultDeclaredContents(2)).toBe(
      'Cryopreserved human cells, 2 vials, in a liquid nitrogen dry shipper',
    );
  });
});

describe("a store order's country, as the carrier reads it", () => {
  it.each([
    ['United States', 'US'],
    ['united states of america', 'US'],
    ['U.S.A.', 'US'],
    [' us ', 'US'],
    ['ca', 'CA'],
    ['Canada', null],
    ['', null],
  ])('%j is %j', (typed, code) => {
    expect(carrierCountryCode(typed)).toBe(code);
  });

  it("declares a store package's bottles", () => {
    expect(defaultStoreContents(1, 'Stem Cell Face Serum')).toBe('Stem Cell Face Serum, 1 bottle');
    expect(defaultStoreContents(3, 'Stem Cell Face Serum')).toBe('Stem Cell Face Serum, 3 bottles');
  });
});
