import { describe, expect, it } from 'vitest';
import { defaultDeclaredContents, shippedBy } from './shipment';

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
