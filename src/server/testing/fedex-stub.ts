import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for FedEx's REST API (OAuth, address resolve, rate quotes), so the adapter is
 * tested without the internet. It keeps the habits the adapter must cope with: a form-encoded token
 * request, bearer tokens that expire or are revoked (401 NOT.AUTHORIZED.ERROR), attribute values as
 * strings ("true"), the LIST rate before the ACCOUNT one, and the error body
 * `{ transactionId, errors: [{ code, message }] }`.
 *
 * Addresses by their first street line:
 *   containing NOWHERE        400 STANDARDIZED.ADDRESS.NOTFOUND
 *   containing UNRESOLVED     200, Resolved "false", AddressType RAW
 *   anything else             standardized: upper case, STREET/AVENUE/BOULEVARD/SUITE abbreviated,
 *                             ZIP+4 `-1234` added; DPV "true"
 * Rates: ACCOUNT $91.80 and LIST $105.40, except $64.10 / $70.00 to Florida.
 * Shipments: a 12-digit tracking number (7946…) and a base64 PDF label, for the stub's account, a
 * recipient with an address, contact name and phone, and a PDF label asked for (else 400 with
 * FedEx's codes). Tracking: a shipment made here has its scans newest first (OC, PU, AR, OD, DL, an
 * hour apart from when it was made); any other number answers 200 with TRACKING.TRACKINGNUMBER.NOTFOUND
 * in its result, as FedEx does.
 */
export const fedexStubCredentials = {
  clientId: 'stub-client-id',
  clientSecret: 'stub-client-secret',
  accountNumber: '740561073',
};

export type FedExStubFault = 'server-error' | 'rate-limited' | 'hang' | 'html';

export interface FedExStub {
  /** The base URL, like https://apis-sandbox.fedex.com. */
  url: string;
  /** Every request received: path, headers and parsed body, in arrival order. */
  requests: Array<{ path: string; authorization: string | undefined; body: unknown }>;
  /** How many tokens the stub has issued. */
  tokensIssued(): number;
  /** Seconds the next tokens live (expires_in); default 3599. */
  setTokenLifetime(seconds: number): void;
  /** Makes every token issued so far answer 401, as an expired or revoked token does. */
  revokeTokens(): void;
  /** The next `count` requests (any path) fail this way. */
  failNext(fault: FedExStubFault, count?: number): void;
  close(): Promise<void>;
}

const SUFFIXES: Record<string, string> = {
  STREET: 'ST',
  AVENUE: 'AVE',
  BOULEVARD: 'BLVD',
  SUITE: 'STE',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function errorBody(code: string, message: string) {
  return { transactionId: 'stub-transaction', errors: [{ code, message }] };
}

export async function startFedExStub(): Promise<FedExStub> {
  const requests: FedExStub['requests'] = [];
  const validTokens = new Set<string>();
  /** Shipments made here: tracking number, when made (ms). */
  const shipments = new Map<string, number>();
  let shipmentsMade = 0;
  let issued = 0;
  let tokenLifetime = 3599;
  const faults: FedExStubFault[] = [];

  function resolve(body: unknown): { status: number; answer: unknown } {
    const first =
      isRecord(body) && Array.isArray(body.addressesToValidate) ? body.addressesToValidate[0] : null;
    const address = isRecord(first) && isRecord(first.address) ? first.address : null;
    if (!address || !Array.isArray(address.streetLines)) {
      return {
        status: 400,
        answer: errorBody('INVALID.INPUT.EXCEPTION', 'Invalid field value in the input'),
      };
    }
    const lines = address.streetLines.map((line) =>
      text(line)
        .toUpperCase()
        .replace(/[.,]/g, '')
        .split(/\s+/)
        .map((word) => SUFFIXES[word] ?? word)
        .join(' '),
    );
    if (lines[0]?.includes('NOWHERE')) {
      return {
        status: 400,
        answer: errorBody('STANDARDIZED.ADDRESS.NOTFOUND', 'Standardized address is not found.'),
      };
    }
    const unresolved = lines[0]?.includes('UNRESOLVED') ?? false;
    const base = text(address.postalCode).slice(0, 5);
    return {
      status: 200,
      answer: {
        transactionId: 'stub-transaction',
        output: {
          resolvedAddresses: [
            {
              streetLinesToken: lines,
              city: text(address.city).toUpperCase(),
              stateOrProvinceCode: text(address.stateOrProvinceCode).toUpperCase(),
              postalCode: unresolved ? base : `${base}-1234`,
              parsedPostalCode: { base, addOn: unresolved ? '' : '1234', deliveryPoint: '' },
              countryCode: text(address.countryCode),
              classification: 'BUSINESS',
              attributes: {
                Resolved: unresolved ? 'false' : 'true',
                DPV: unresolved ? 'false' : 'true',
                AddressType: unresolved ? 'RAW' : 'STANDARDIZED',
                Matched: 'true',
              },
            },
          ],
        },
      },
    };
  }

  function ship(body: unknown): { status: number; answer: unknown } {
    const shipment = isRecord(body) && isRecord(body.requestedShipment) ? body.requestedShipment : null;
    const account = isRecord(body) && isRecord(body.accountNumber) ? text(body.accountNumber.value) : '';
    if (!shipment || account !== fedexStubCredentials.accountNumber) {
      return { status: 400, answer: errorBody('ACCOUNT.NUMBER.MISMATCH', 'The account number is invalid.') };
    }
    const recipients = Array.isArray(shipment.recipients) ? shipment.recipients : [];
    const recipient = isRecord(recipients[0]) ? recipients[0] : null;
    const contact = recipient && isRecord(recipient.contact) ? recipient.contact : null;
    if (
      !recipient ||
      !isRecord(recipient.address) ||
      !contact ||
      !text(contact.phoneNumber) ||
      !text(contact.personName)
    ) {
      return {
        status: 400,
        answer: errorBody('RECIPIENT.CONTACT.INVALID', 'Recipient contact is required.'),
      };
    }
    const label = isRecord(shipment.labelSpecification) ? shipment.labelSpecification : {};
    if (label.imageType !== 'PDF') {
      return { status: 400, answer: errorBody('LABEL.IMAGETYPE.INVALID', 'Label image type is invalid.') };
    }
    shipmentsMade += 1;
    const trackingNumber = `7946${String(shipmentsMade).padStart(8, '0')}`;
    shipments.set(trackingNumber, Date.now());
    const labelPdf = Buffer.from(`%PDF-1.4\n% stub label ${trackingNumber}\n%%EOF\n`).toString('base64');
    return {
      status: 200,
      answer: {
        transactionId: 'stub-transaction',
        output: {
          transactionShipments: [
            {
              serviceType: 'PRIORITY_OVERNIGHT',
              masterTrackingNumber: trackingNumber,
              pieceResponses: [
                {
                  trackingNumber,
                  packageDocuments: [{ contentType: 'LABEL', docType: 'PDF', encodedLabel: labelPdf }],
                },
              ],
            },
          ],
        },
      },
    };
  }

  function track(body: unknown): { status: number; answer: unknown } {
    const info = isRecord(body) && Array.isArray(body.trackingInfo) ? body.trackingInfo[0] : null;
    const number =
      isRecord(info) && isRecord(info.trackingNumberInfo) ? text(info.trackingNumberInfo.trackingNumber) : '';
    const madeAt = shipments.get(number);
    const hour = 60 * 60_000;
    const scan = (
      offset: number,
      eventType: string,
      eventDescription: string,
      city: string,
      state: string,
    ) => ({
      date: new Date((madeAt ?? 0) + offset * hour).toISOString().replace('Z', '+00:00'),
      eventType,
      eventDescription,
      scanLocation: { city, stateOrProvinceCode: state, countryCode: 'US' },
    });
    const result =
      madeAt === undefined
        ? {
            trackingNumberInfo: { trackingNumber: number },
            error: { code: 'TRACKING.TRACKINGNUMBER.NOTFOUND', message: 'Tracking number cannot be found.' },
          }
        : {
            trackingNumberInfo: { trackingNumber: number },
            scanEvents: [
              scan(5, 'DL', 'Delivered', 'NEW YORK', 'NY'),
              scan(4, 'OD', 'On FedEx vehicle for delivery', 'NEW YORK', 'NY'),
              scan(3, 'AR', 'Arrived at FedEx location', 'MEMPHIS', 'TN'),
              scan(2, 'PU', 'Picked up', 'SUNRISE', 'FL'),
              scan(1, 'OC', 'Shipment information sent to FedEx', '', ''),
            ],
          };
    return {
      status: 200,
      answer: {
        transactionId: 'stub-transaction',
        output: { completeTrackResults: [{ trackingNumber: number, trackResults: [result] }] },
      },
    };
  }

  function rate(body: unknown): { status: number; answer: unknown } {
    const shipment = isRecord(body) && isRecord(body.requestedShipment) ? body.requestedShipment : null;
    const recipient = shipment && isRecord(shipment.recipient) ? shipment.recipient : null;
    const address = recipient && isRecord(recipient.address) ? recipient.address : null;
    const account = isRecord(body) && isRecord(body.accountNumber) ? text(body.accountNumber.value) : '';
    if (!shipment || !address || account !== fedexStubCredentials.accountNumber) {
      return { status: 400, answer: errorBody('ACCOUNT.NUMBER.MISMATCH', 'The account number is invalid.') };
    }
    const florida = text(address.stateOrProvinceCode) === 'FL';
    const detail = (rateType: string, totalNetCharge: number) => ({
      rateType,
      ratedWeightMethod: 'ACTUAL',
      totalBaseCharge: totalNetCharge,
      totalNetCharge,
      totalNetFedExCharge: totalNetCharge,
      currency: 'USD',
      shipmentRateDetail: { rateZone: florida ? '02' : '05', totalBillingWeight: { units: 'LB', value: 2 } },
    });
    return {
      status: 200,
      answer: {
        transactionId: 'stub-transaction',
        output: {
          alerts: [{ code: 'VIRTUAL.RESPONSE', message: 'This is a Virtual Response.', alertType: 'NOTE' }],
          rateReplyDetails: [
            {
              serviceType: 'PRIORITY_OVERNIGHT',
              serviceName: 'FedEx Priority Overnight®',
              packagingType: 'YOUR_PACKAGING',
              ratedShipmentDetails: florida
                ? [detail('LIST', 70), detail('ACCOUNT', 64.1)]
                : [detail('LIST', 105.4), detail('ACCOUNT', 91.8)],
            },
          ],
        },
      },
    };
  }

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(response: ServerResponse, status: number, answer: unknown) {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://stub').pathname;
    const formEncoded = (request.headers['content-type'] ?? '').startsWith(
      'application/x-www-form-urlencoded',
    );
    let body: unknown = raw;
    try {
      body = formEncoded ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw);
    } catch {
      body = raw;
    }
    requests.push({ path, authorization: request.headers.authorization, body });

    const fault = faults.shift();
    if (fault === 'hang') return;
    if (fault === 'server-error') return send(response, 500, errorBody('INTERNAL.SERVER.ERROR', 'Failed'));
    if (fault === 'rate-limited') return send(response, 429, errorBody('TOO.MANY.REQUESTS', 'Too many'));
    if (fault === 'html') {
      response.writeHead(503, { 'content-type': 'text/html' }).end('<html>Service Unavailable</html>');
      return;
    }
    if (request.method !== 'POST') return send(response, 404, errorBody('NOT.FOUND.ERROR', 'Not found'));

    if (path === '/oauth/token') {
      const form = isRecord(body) ? body : {};
      if (
        form.grant_type !== 'client_credentials' ||
        form.client_id !== fedexStubCredentials.clientId ||
        form.client_secret !== fedexStubCredentials.clientSecret
      ) {
        return send(
          response,
          401,
          errorBody('NOT.AUTHORIZED.ERROR', 'The given client credentials were not valid.'),
        );
      }
      issued += 1;
      const token = `stub-token-${issued}`;
      validTokens.add(token);
      return send(response, 200, {
        access_token: token,
        token_type: 'bearer',
        expires_in: tokenLifetime,
        scope: 'CXS-TP',
      });
    }

    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer || !validTokens.has(bearer)) {
      return send(
        response,
        401,
        errorBody('NOT.AUTHORIZED.ERROR', 'Access token expired. Please modify your request and try again.'),
      );
    }
    const routes: Record<string, (body: unknown) => { status: number; answer: unknown }> = {
      '/address/v1/addresses/resolve': resolve,
      '/rate/v1/rates/quotes': rate,
      '/ship/v1/shipments': ship,
      '/track/v1/trackingnumbers': track,
    };
    const route = routes[path];
    if (!route)
      return send(
        response,
        404,
        errorBody('NOT.FOUND.ERROR', 'The resource you requested is no longer available.'),
      );
    const { status, answer } = route(body);
    send(response, status, answer);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    tokensIssued: () => issued,
    setTokenLifetime(seconds) {
      tokenLifetime = seconds;
    },
    revokeTokens() {
      validTokens.clear();
    },
    failNext(fault, count = 1) {
      for (let i = 0; i < count; i++) faults.push(fault);
    },
    close() {
      return new Promise((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeAllConnections();
      });
    },
  };
}
