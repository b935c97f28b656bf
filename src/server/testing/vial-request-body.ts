/**
 * A Stem Cell Request Form body: one vial by FedEx, no CPP, to a new clinic address in New York,
 * paid by the card on file; `overrides` gives the date and anything else a test changes.
 */
export function vialRequestBody(overrides: Record<string, unknown> & { ShipmentDate: string }) {
  return {
    NumberOfVials: 1,
    CPP: 'No',
    shipping_method: 'FedEx',
    ShippingInfo: 'New',
    clinicName: 'Hudson Orthopedic Associates',
    firstName: 'Samuel',
    lastName: 'Okafor',
    ShippingEmail: 'receiving@hudson-ortho.example.com',
    phone: '2125550188',
    street: '160 East 56th Street',
    city: 'New York',
    state: 'NY',
    country: 'United States',
    ZipCode: '10022',
    Tissue_Info: 'Adipose',
    Infectious_Disease: 'not treated',
    authorize: true,
    PaymentMethod: 'Credit Card',
    ...overrides,
  };
}
