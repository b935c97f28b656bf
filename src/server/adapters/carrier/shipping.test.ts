import { describe, expect, it } from 'vitest';
import { fedexStubCredentials, startFedExStub } from '../../testing/fedex-stub';
import { expectSeen, itLooks, readPdf } from '../../testing/pdf-ocr';
import type { ShipmentRequest } from './carrier-adapter';
import { createFedExCarrier } from './fedex-carrier';
import { spacedTrackingNumber } from './label-pdf';
import { createOfflineCarrier } from './offline-carrier';

/** Shipping labels and tracking (issue 22): the offline carrier and FedEx through the local stub. */

const request: ShipmentRequest = {
  reference: 'VR-6F1C2B9E',
  recipient: {
    contactName: 'Samuel Okafor',
    company: 'Hudson Orthopedic Associates',
    phone: '2125550188',
    streetLines: ['160 East 56th Street'],
    city: 'New York',
    state: 'NY',
    zip: '10022',
    country: 'US',
  },
  shipDate: '2026-12-08',
  contents: 'Cryopreserved human cells, 2 vials, in a liquid nitrogen dry shipper',
  dryShipperId: 'DS-0042',
};

describe('the offline carrier', () => {
  const carrier = createOfflineCarrier();

  it('makes the same tracking number for the same reference (a retry is the same shipment)', async () => {
    const first = await carrier.createShipment(request);
    const again = await carrier.createShipment(request);
    const other = await carrier.createShipment({ ...request, reference: 'VR-00000001' });
    if (first.outcome !== 'created' || again.outcome !== 'created' || other.outcome !== 'created') {
      throw new Error('not created');
    }
    expect(first.trackingNumber).toMatch(/^7\d{11}$/);
    expect(again.trackingNumber).toBe(first.trackingNumber);
    expect(other.trackingNumber).not.toBe(first.trackingNumber);
  });

  it('refuses an address FedEx cannot deliver to, and is unavailable for Alaska (ZIP 99999)', async () => {
    expect(
      await carrier.createShipment({ ...request, recipient: { ...request.recipient, zip: '00000' } }),
    ).toEqual({
      outcome: 'refused',
      message: 'FedEx cannot deliver to this address.',
    });
    expect(
      (
        await carrier.createShipment({
          ...request,
          recipient: { ...request.recipient, zip: '99999', state: 'AK' },
        })
      ).outcome,
    ).toBe('unavailable');
  });

  it('reports scans as time passes: picked up, in transit, out for delivery, delivered', async () => {
    const shippedAt = new Date('2026-12-08T15:00:00Z');
    const at = (hours: number) => new Date(shippedAt.getTime() + hours * 3_600_000);
    const statuses = async (hours: number) => {
      const result = await carrier.track({
        trackingNumber: '712345678901',
        shippedAt,
        now: at(hours),
        destination: { city: 'New York', state: 'NY' },
      });
      return result.outcome === 'tracked'
        ? result.events.map((e) => `${e.status} ${e.place}`)
        : result.outcome;
    };
    expect(await statuses(0.5)).toEqual([]);
    expect(await statuses(6)).toEqual(['picked_up SUNRISE, FL', 'in_transit MEMPHIS, TN']);
    expect(await statuses(23)).toEqual([
      'picked_up SUNRISE, FL',
      'in_transit MEMPHIS, TN',
      'out_for_delivery NEW YORK, NY',
      'delivered NEW YORK, NY',
    ]);
    expect((await carrier.track({ trackingNumber: '123', shippedAt, now: at(23) })).outcome).toBe('unknown');
  });

  it('runs faster when its hour is shortened (demos and browser tests)', async () => {
    const quick = createOfflineCarrier({ hourMs: 1_000 });
    const shippedAt = new Date('2026-12-08T15:00:00Z');
    const result = await quick.track({
      trackingNumber: '712345678901',
      shippedAt,
      now: new Date(shippedAt.getTime() + 22_000),
    });
    expect(result.outcome === 'tracked' && result.events.at(-1)?.status).toBe('delivered');
  });

  itLooks(
    'draws a label a person reads: the service, the recipient, the tracking number, the contents',
    async () => {
      const made = await carrier.createShipment(request);
      if (made.outcome !== 'created') throw new Error('not created');
      expect(made.labelPdf.subarray(0, 5).toString()).toBe('%PDF-');
      const seen = await readPdf(made.labelPdf, { pages: [1], languages: ['eng'], dpi: 300 });
      expectSeen(seen, [
        'FedEx PRIORITY OVERNIGHT',
        'Samuel Okafor',
        'Hudson Orthopedic Associates',
        'New York NY 10022',
        spacedTrackingNumber(made.trackingNumber),
        'Dry shipper: DS-0042',
        'Reference: VR-6F1C2B9E',
      ]);
    },
  );

  itLooks("draws a store order's label without a dry shipper, to the client's own address", async () => {
    const made = await carrier.createShipment({
      reference: 'SO-1A2B3C4D',
      recipient: { ...request.recipient, contactName: 'Rosa Quintero', company: '' },
      shipDate: '2026-12-01',
      contents: 'Stem Cell Face Serum, 2 bottles',
    });
    if (made.outcome !== 'created') throw new Error('not created');
    const seen = await readPdf(made.labelPdf, { pages: [1], languages: ['eng'], dpi: 300 });
    expectSeen(seen, [
      'Rosa Quintero',
      spacedTrackingNumber(made.trackingNumber),
      'Contents: Stem Cell Face Serum, 2 bottles',
      'Reference: SO-1A2B3C4D',
    ]);
    expect(seen.toLowerCase()).not.toContain('dry shipper');
  });
});

describe('FedEx Ship and Track APIs, against the local stub', () => {
  it('creates a shipment with its PDF label, then reads its scans (oldest first, OC left out)', async () => {
    const stub = await startFedExStub();
    try {
      const carrier = createFedExCarrier({
        baseUrl: stub.url,
        ...fedexStubCredentials,
        senderPhone: '9545550100',
      });
      const made = await carrier.createShipment(request);
      if (made.outcome !== 'created') throw new Error(`not created: ${JSON.stringify(made)}`);
      expect(made.trackingNumber).toMatch(/^7946\d{8}$/);
      expect(made.labelPdf.subarray(0, 5).toString()).toBe('%PDF-');
      const sent = stub.requests.find((r) => r.path === '/ship/v1/shipments')?.body as {
        requestedShipment: {
          serviceType: string;
          labelSpecification: { imageType: string };
          shipDatestamp: string;
        };
      };
      expect(sent.requestedShipment).toMatchObject({
        serviceType: 'PRIORITY_OVERNIGHT',
        labelSpecification: { imageType: 'PDF' },
        shipDatestamp: '2026-12-08',
      });
      const tracked = await carrier.track({
        trackingNumber: made.trackingNumber,
        shippedAt: new Date(),
        now: new Date(),
      });
      expect(tracked.outcome === 'tracked' && tracked.events.map((e) => e.status)).toEqual([
        'picked_up',
        'in_transit',
        'out_for_delivery',
        'delivered',
      ]);
      expect(
        (await carrier.track({ trackingNumber: '794600000999', shippedAt: new Date(), now: new Date() }))
          .outcome,
      ).toBe('unknown');
    } finally {
      await stub.close();
    }
  });

  it('reads a refusal and an outage as such', async () => {
    const stub = await startFedExStub();
    try {
      const carrier = createFedExCarrier({
        baseUrl: stub.url,
        ...fedexStubCredentials,
        senderPhone: '9545550100',
      });
      const refused = await carrier.createShipment({
        ...request,
        recipient: { ...request.recipient, phone: '' },
      });
      expect(refused).toEqual({ outcome: 'refused', message: 'Recipient contact is required.' });
      stub.failNext('server-error', 2);
      expect((await carrier.createShipment(request)).outcome).toBe('unavailable');
      expect(
        (await carrier.track({ trackingNumber: '794600000001', shippedAt: new Date(), now: new Date() }))
          .outcome,
      ).toBe('unavailable');
    } finally {
      await stub.close();
    }
  });
});
