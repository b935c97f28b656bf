import { z } from 'zod';
import { vialShipment } from '../../../domain/price-book';
import {
  type AddressCheck,
  type CarrierAdapter,
  type CarrierAddress,
  matchesInput,
  type QuoteRequest,
  type RateQuote,
} from './carrier-adapter';
import { readShipAnswer, readTrackAnswer, shipmentBody, trackBody } from './fedex-shipping';

/**
 * FedEx REST adapter: an OAuth client-credentials token, cached until shortly before it expires
 * and shared by concurrent calls; address resolve (`/address/v1/addresses/resolve`), rate quotes
 * (`/rate/v1/rates/quotes`), shipments with their label (`/ship/v1/shipments`) and tracking
 * (`/track/v1/trackingnumbers`, in fedex-shipping.ts). FedEx answers with CORS refused, so this runs on the server only. A
 * 401 on a call refreshes the token once and retries once; anything else that is not an answer
 * (5xx, 429, a timeout, a body that does not parse) is `unavailable`.
 */
export interface FedExCarrierOptions {
  /** https://apis.fedex.com, https://apis-sandbox.fedex.com, or a local stub. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  accountNumber: string;
  /** The laboratory's phone, the sender's on the label. */
  senderPhone: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Milliseconds since the epoch; tests move it to expire the token. */
  now?: () => number;
}

const defaultTimeoutMs = 10_000;
/** A token is renewed this long before FedEx says it expires (they last an hour). */
const tokenRenewalMarginMs = 5 * 60_000;

const tokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive(),
});

/** FedEx sends attribute values as strings ("true") in practice, booleans in its schema. */
const flag = z.union([z.boolean(), z.string()]).transform((v) => v === true || v === 'true');

const resolvedAddressSchema = z.object({
  streetLinesToken: z.array(z.string()).default([]),
  city: z.string().default(''),
  stateOrProvinceCode: z.string().default(''),
  postalCode: z.string().optional(),
  parsedPostalCode: z.object({ base: z.string(), addOn: z.string().optional() }).optional(),
  countryCode: z.string().default(''),
  attributes: z
    .object({ Resolved: flag.optional(), DPV: flag.optional(), AddressType: z.string().optional() })
    .loose()
    .default({}),
});

const resolveAnswerSchema = z.object({
  output: z.object({ resolvedAddresses: z.array(resolvedAddressSchema) }),
});

const errorAnswerSchema = z.object({
  errors: z.array(z.object({ code: z.string() })).min(1),
});

/** Codes of a 4xx that mean FedEx found no such address (not that it failed). */
const addressNotFoundCodes = new Set([
  'STANDARDIZED.ADDRESS.NOTFOUND',
  'ADDRESS.NOTFOUND',
  'INVALID.INPUT.EXCEPTION',
]);

const rateAnswerSchema = z.object({
  output: z.object({
    rateReplyDetails: z.array(
      z.object({
        serviceType: z.string(),
        ratedShipmentDetails: z.array(
          z.object({ rateType: z.string().optional(), totalNetCharge: z.coerce.number().nonnegative() }),
        ),
      }),
    ),
  }),
});

type Exchange = { status: number; body: unknown } | { status: 'failed' };

interface CachedToken {
  value: string;
  renewAt: number;
}

export function createFedExCarrier(options: FedExCarrierOptions): CarrierAdapter {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const now = options.now ?? Date.now;
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  let token: CachedToken | null = null;
  let pendingToken: Promise<CachedToken | null> | null = null;

  async function send(path: string, init: RequestInit): Promise<Exchange> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetchImpl(`${baseUrl}${path}`, { ...init, signal: controller.signal });
      const text = await response.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      return { status: response.status, body };
    } catch {
      return { status: 'failed' };
    } finally {
      clearTimeout(timer);
    }
  }

  async function requestToken(): Promise<CachedToken | null> {
    const issuedAt = now();
    const answer = await send('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_secret: options.clientSecret,
      }).toString(),
    });
    if (answer.status !== 200) return null;
    const parsed = tokenAnswerSchema.safeParse(answer.body);
    if (!parsed.success) return null;
    const lifetimeMs = parsed.data.expires_in * 1000;
    // A short-lived token is renewed at half its life rather than never used.
    const margin = Math.min(tokenRenewalMarginMs, lifetimeMs / 2);
    return { value: parsed.data.access_token, renewAt: issuedAt + lifetimeMs - margin };
  }

  /** The cached token, or a new one; concurrent callers share one token request. */
  async function currentToken(): Promise<string | null> {
    if (token && now() < token.renewAt) return token.value;
    if (!pendingToken) {
      pendingToken = requestToken().finally(() => {
        pendingToken = null;
      });
    }
    token = await pendingToken;
    return token?.value ?? null;
  }

  async function call(path: string, payload: unknown): Promise<Exchange> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const bearer = await currentToken();
      if (bearer === null) return { status: 'failed' };
      const answer = await send(path, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          accept: 'application/json',
          'x-locale': 'en_US',
        },
        body: JSON.stringify(payload),
      });
      // An expired or revoked token: forget it and try once more with a fresh one.
      if (answer.status === 401 && attempt === 0) {
        if (token?.value === bearer) token = null;
        continue;
      }
      return answer;
    }
    return { status: 'failed' };
  }

  function fedexAddress(address: CarrierAddress) {
    return {
      streetLines: address.streetLines,
      city: address.city,
      stateOrProvinceCode: address.state,
      postalCode: address.zip,
      countryCode: address.country,
    };
  }

  return {
    name: 'fedex',

    async validateAddress(address): Promise<AddressCheck> {
      const answer = await call('/address/v1/addresses/resolve', {
        addressesToValidate: [{ address: fedexAddress(address) }],
      });
      if (answer.status === 'failed') return { outcome: 'unavailable' };
      if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
        const error = errorAnswerSchema.safeParse(answer.body);
        const notFound = error.success && error.data.errors.some((e) => addressNotFoundCodes.has(e.code));
        return notFound ? { outcome: 'invalid' } : { outcome: 'unavailable' };
      }
      if (answer.status !== 200) return { outcome: 'unavailable' };
      const parsed = resolveAnswerSchema.safeParse(answer.body);
      const resolved = parsed.success ? parsed.data.output.resolvedAddresses[0] : undefined;
      if (!resolved) return { outcome: 'unavailable' };
      const { Resolved, DPV, AddressType } = resolved.attributes;
      // Only a standardized, delivery-point validated address is one FedEx knows.
      if (!Resolved || !DPV || AddressType !== 'STANDARDIZED') return { outcome: 'invalid' };
      const postal = resolved.parsedPostalCode;
      const zip =
        postal?.addOn !== undefined && postal.addOn !== ''
          ? `${postal.base}-${postal.addOn}`
          : (resolved.postalCode ?? postal?.base ?? '');
      const standardized: CarrierAddress = {
        streetLines: resolved.streetLinesToken,
        city: resolved.city,
        state: resolved.stateOrProvinceCode,
        zip,
        country: resolved.countryCode,
      };
      return matchesInput(address, standardized)
        ? { outcome: 'verified', address: standardized }
        : { outcome: 'suggested', suggestion: standardized };
    },

    async quote(request: QuoteRequest): Promise<RateQuote> {
      const { shipper } = vialShipment;
      const answer = await call('/rate/v1/rates/quotes', {
        accountNumber: { value: options.accountNumber },
        rateRequestControlParameters: { returnTransitTimes: false },
        requestedShipment: {
          shipper: {
            address: {
              streetLines: shipper.streetLines,
              city: shipper.city,
              stateOrProvinceCode: shipper.state,
              postalCode: shipper.zip,
              countryCode: shipper.country,
              residential: false,
            },
          },
          recipient: { address: fedexAddress(request.recipient) },
          pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
          serviceType: vialShipment.service,
          packagingType: 'YOUR_PACKAGING',
          rateRequestType: ['ACCOUNT', 'LIST'],
          preferredCurrency: 'USD',
          ...(request.shipDate ? { shipDateStamp: request.shipDate } : {}),
          totalPackageCount: 1,
          requestedPackageLineItems: [{ weight: { units: 'LB', value: vialShipment.weightLb } }],
        },
        carrierCodes: ['FDXE'],
      });
      if (answer.status === 'failed' || answer.status !== 200) return { outcome: 'unavailable' };
      const parsed = rateAnswerSchema.safeParse(answer.body);
      if (!parsed.success) return { outcome: 'unavailable' };
      const service = parsed.data.output.rateReplyDetails.find(
        (detail) => detail.serviceType === vialShipment.service,
      );
      const rates = service?.ratedShipmentDetails ?? [];
      // The account rate first (what the bank pays), the list rate otherwise; the order varies.
      const rate =
        rates.find((r) => r.rateType === 'ACCOUNT') ?? rates.find((r) => r.rateType === 'LIST') ?? rates[0];
      if (!rate) return { outcome: 'unavailable' };
      return { outcome: 'quoted', netChargeCents: Math.round(rate.totalNetCharge * 100) };
    },

    async createShipment(request) {
      return readShipAnswer(
        await call('/ship/v1/shipments', shipmentBody(options.accountNumber, request, options.senderPhone)),
      );
    },

    async track({ trackingNumber }) {
      return readTrackAnswer(await call('/track/v1/trackingnumbers', trackBody(trackingNumber)));
    },
  };
}
