import { describe, expect, it } from 'vitest';
import type { CarrierAddress } from './carrier-adapter';
import { createOfflineCarrier, standardStreetLine, stateOfZip } from './offline-carrier';

const carrier = createOfflineCarrier();

const clinic: CarrierAddress = {
  streetLines: ['200 Alhambra Circle', 'Suite 300'],
  city: 'Coral Gables',
  state: 'FL',
  zip: '33134',
  country: 'US',
};

describe('the offline carrier standardises addresses the way FedEx does', () => {
  it.each([
    ['1200 Brickell Avenue', '1200 BRICKELL AVE'],
    ['8950 S.W. 74th Court', '8950 SW 74TH CT'],
    ['455 Park Avenue South', '455 PARK AVE S'],
    ['101 East Las Olas Boulevard, Suite 12', '101 E LAS OLAS BLVD STE 12'],
    ['  2300   ponce de leon   blvd ', '2300 PONCE DE LEON BLVD'],
    ['Suite 300', 'STE 300'],
  ])('%s reads %s', (line, standard) => {
    expect(standardStreetLine(line)).toBe(standard);
  });

  it('suggests the standardised address with a ZIP+4, the same each time', async () => {
    const first = await carrier.validateAddress(clinic);
    expect(first).toEqual({
      outcome: 'suggested',
      suggestion: {
        streetLines: ['200 ALHAMBRA CIR', 'STE 300'],
        city: 'CORAL GABLES',
        state: 'FL',
        zip: expect.stringMatching(/^33134-\d{4}$/),
        country: 'US',
      },
    });
    expect(await carrier.validateAddress(clinic)).toEqual(first);
  });

  it('verifies the suggestion once accepted', async () => {
    const suggested = await carrier.validateAddress(clinic);
    if (suggested.outcome !== 'suggested') throw new Error('expected a suggestion');
    expect(await carrier.validateAddress(suggested.suggestion)).toEqual({
      outcome: 'verified',
      address: suggested.suggestion,
    });
  });

  it('verifies an address already standard but for the ZIP+4', async () => {
    const standard = { ...clinic, streetLines: ['200 ALHAMBRA CIR', 'STE 300'], city: 'Coral Gables' };
    expect((await carrier.validateAddress(standard)).outcome).toBe('verified');
  });

  it.each([
    ['a ZIP of another state (Florida ZIP, New York state)', { state: 'NY' }],
    ['a ZIP that is not 5 digits', { zip: '3313' }],
    ['ZIP 00000', { zip: '00000' }],
    ['a state that does not exist', { state: 'ZZ' }],
    ['a street on no map (NOWHERE)', { streetLines: ['1 Nowhere Lane'] }],
    ['a country other than the US', { country: 'CA' }],
  ])('refuses %s as invalid', async (_what, change) => {
    expect(await carrier.validateAddress({ ...clinic, ...change })).toEqual({ outcome: 'invalid' });
  });

  it.each([
    ['33134', 'FL'],
    ['10022', 'NY'],
    ['20500', 'DC'],
    ['20166', 'VA'],
    ['96813', 'HI'],
    ['99501', 'AK'],
    ['00601', null],
  ])('ZIP %s belongs to %s', (zip, state) => {
    expect(stateOfZip(zip)).toBe(state);
  });
});

describe('the offline carrier quotes from a zone and weight table', () => {
  it.each([
    ['FL', '33134', 6_443, 'zone 2, 2 lb: $54.60 + 18% fuel'],
    ['GA', '30303', 7_458, 'zone 3'],
    ['NC', '27601', 9_180, 'zone 5: $77.80 + $14.00'],
    ['NY', '10022', 9_865, 'zone 6'],
    ['CA', '94103', 10_821, 'zone 8'],
    ['HI', '96813', 14_608, 'Hawaii: zone 8 x 1.35'],
  ])('to %s %s: %i cents (%s)', async (state, zip, cents) => {
    expect(await carrier.quote({ recipient: { ...clinic, state, zip } })).toEqual({
      outcome: 'quoted',
      netChargeCents: cents,
    });
  });

  it('is unavailable for destination ZIP 99999, the QA trigger', async () => {
    expect(await carrier.quote({ recipient: { ...clinic, state: 'AK', zip: '99999' } })).toEqual({
      outcome: 'unavailable',
    });
  });
});
