import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FedExStub, fedexStubCredentials, startFedExStub } from '../../testing/fedex-stub';
import type { CarrierAdapter, CarrierAddress } from './carrier-adapter';
import { createFedExCarrier } from './fedex-carrier';

let stub: FedExStub;
let clock: number;
let carrier: CarrierAdapter;

beforeAll(async () => {
  stub = await startFedExStub();
});
afterAll(() => stub.close());

function newCarrier(overrides: Partial<Parameters<typeof createFedExCarrier>[0]> = {}) {
  return createFedExCarrier({
    baseUrl: stub.url,
    ...fedexStubCredentials,
    senderPhone: '9545550100',
    now: () => clock,
    // Long enough that a loaded machine never times out an answered call; the hang faults wait it out.
    timeoutMs: 3_000,
    ...overrides,
  });
}

beforeEach(() => {
  clock = Date.UTC(2026, 2, 10, 14, 0);
  stub.requests.length = 0;
  stub.setTokenLifetime(3599);
  carrier = newCarrier();
});

const clinic: CarrierAddress = {
  streetLines: ['200 Alhambra Circle', 'Suite 300'],
  city: 'Coral Gables',
  state: 'FL',
  zip: '33134',
  country: 'US',
};
const newYork: CarrierAddress = {
  streetLines: ['160 East 56th Street'],
  city: 'New York',
  state: 'NY',
  zip: '10022',
  country: 'US',
};

const calls = (path: string) => stub.requests.filter((r) => r.path === path);

describe('the OAuth token', () => {
  it('is asked once with client credentials, form-encoded, and reused by later calls', async () => {
    const before = stub.tokensIssued();
    await carrier.validateAddress(clinic);
    await carrier.quote({ recipient: newYork });
    await carrier.quote({ recipient: clinic });
    expect(stub.tokensIssued() - before).toBe(1);
    expect(calls('/oauth/token')[0]?.body).toEqual({
      grant_type: 'client_credentials',
      client_id: fedexStubCredentials.clientId,
      client_secret: fedexStubCredentials.clientSecret,
    });
    const bearers = new Set(
      stub.requests.filter((r) => r.path !== '/oauth/token').map((r) => r.authorization),
    );
    expect(bearers.size).toBe(1);
  });

  it('is shared by concurrent calls: one token request for five quotes', async () => {
    const before = stub.tokensIssued();
    const quotes = await Promise.all(Array.from({ length: 5 }, () => carrier.quote({ recipient: newYork })));
    expect(quotes.every((q) => q.outcome === 'quoted')).toBe(true);
    expect(stub.tokensIssued() - before).toBe(1);
  });

  it('is renewed five minutes before it expires, not after', async () => {
    await carrier.quote({ recipient: newYork });
    const before = stub.tokensIssued();
    clock += (3599 - 301) * 1000;
    await carrier.quote({ recipient: newYork });
    expect(stub.tokensIssued()).toBe(before);
    clock += 2_000;
    await carrier.quote({ recipient: newYork });
    expect(stub.tokensIssued()).toBe(before + 1);
  });

  it('is refreshed once when FedEx answers 401 (revoked or expired early), and the call retried', async () => {
    await carrier.quote({ recipient: newYork });
    const before = stub.tokensIssued();
    stub.revokeTokens();
    expect(await carrier.quote({ recipient: newYork })).toEqual({ outcome: 'quoted', netChargeCents: 9_180 });
    expect(stub.tokensIssued()).toBe(before + 1);
  });

  it('makes the carrier unavailable when the credentials are refused', async () => {
    const refused = newCarrier({ clientSecret: 'wrong' });
    expect(await refused.validateAddress(clinic)).toEqual({ outcome: 'unavailable' });
    expect(await refused.quote({ recipient: clinic })).toEqual({ outcome: 'unavailable' });
  });
});

describe('address validation', () => {
  it("suggests FedEx's standardized address when it differs from the input", async () => {
    expect(await carrier.validateAddress(clinic)).toEqual({
      outcome: 'suggested',
      suggestion: {
        streetLines: ['200 ALHAMBRA CIRCLE', 'STE 300'],
        city: 'CORAL GABLES',
        state: 'FL',
        zip: '33134-1234',
        country: 'US',
      },
    });
    expect(calls('/address/v1/addresses/resolve').at(-1)?.body).toEqual({
      addressesToValidate: [
        {
          address: {
            streetLines: ['200 Alhambra Circle', 'Suite 300'],
            city: 'Coral Gables',
            stateOrProvinceCode: 'FL',
            postalCode: '33134',
            countryCode: 'US',
          },
        },
      ],
    });
  });

  it('verifies an address that is already FedEx’s own (an accepted suggestion asked again)', async () => {
    const accepted: CarrierAddress = {
      streetLines: ['200 ALHAMBRA CIRCLE', 'STE 300'],
      city: 'CORAL GABLES',
      state: 'FL',
      zip: '33134-1234',
      country: 'US',
    };
    expect(await carrier.validateAddress(accepted)).toEqual({ outcome: 'verified', address: accepted });
  });

  it('answers invalid when FedEx finds no such address (400 STANDARDIZED.ADDRESS.NOTFOUND)', async () => {
    expect(await carrier.validateAddress({ ...clinic, streetLines: ['1 Nowhere Lane'] })).toEqual({
      outcome: 'invalid',
    });
  });

  it('answers invalid when FedEx could not resolve it (Resolved "false", AddressType RAW)', async () => {
    expect(await carrier.validateAddress({ ...clinic, streetLines: ['9 Unresolved Road'] })).toEqual({
      outcome: 'invalid',
    });
  });

  it.each([
    ['a 500', 'server-error'],
    ['a 429', 'rate-limited'],
    ['an HTML 503', 'html'],
    ['no answer within the timeout', 'hang'],
  ] as const)('answers unavailable on %s', async (_what, fault) => {
    await carrier.quote({ recipient: newYork });
    stub.failNext(fault);
    expect(await carrier.validateAddress(clinic)).toEqual({ outcome: 'unavailable' });
  });
});

describe('rate quotes', () => {
  it('asks PRIORITY_OVERNIGHT for 1.06 lb from the laboratory in Florida, with the account number', async () => {
    await carrier.quote({ recipient: newYork, shipDate: '2026-03-11' });
    const body = calls('/rate/v1/rates/quotes').at(-1)?.body as Record<string, unknown>;
    expect(body.accountNumber).toEqual({ value: fedexStubCredentials.accountNumber });
    expect(body.requestedShipment).toMatchObject({
      serviceType: 'PRIORITY_OVERNIGHT',
      shipDateStamp: '2026-03-11',
      shipper: { address: { stateOrProvinceCode: 'FL', countryCode: 'US', residential: false } },
      recipient: { address: { streetLines: ['160 East 56th Street'], postalCode: '10022' } },
      requestedPackageLineItems: [{ weight: { units: 'LB', value: 1.06 } }],
    });
  });

  it('reads the ACCOUNT net charge, though FedEx lists the LIST rate first, in cents', async () => {
    expect(await carrier.quote({ recipient: newYork })).toEqual({ outcome: 'quoted', netChargeCents: 9_180 });
    expect(await carrier.quote({ recipient: clinic })).toEqual({ outcome: 'quoted', netChargeCents: 6_410 });
  });

  it.each([
    ['a 500', 'server-error'],
    ['no answer within the timeout', 'hang'],
  ] as const)('answers unavailable on %s', async (_what, fault) => {
    await carrier.quote({ recipient: newYork });
    stub.failNext(fault);
    expect(await carrier.quote({ recipient: newYork })).toEqual({ outcome: 'unavailable' });
  });

  it('answers unavailable when FedEx refuses the request (400)', async () => {
    const wrongAccount = newCarrier({ accountNumber: '000000000' });
    expect(await wrongAccount.quote({ recipient: newYork })).toEqual({ outcome: 'unavailable' });
  });
});
