import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthorizeNetStub,
  authorizeNetStubCredentials,
  startAuthorizeNetStub,
} from '../../testing/authorize-net-stub';
import { createAuthorizeNetGateway } from './authorize-net-gateway';
import type { PaymentGateway, SavedMethod, SaveMethodRequest } from './payment-gateway';

const acceptDescriptor = 'COMMON.ACCEPT.INAPP.PAYMENT';

let stub: AuthorizeNetStub;
let gateway: PaymentGateway;
let clientNumber = 0;

beforeAll(async () => {
  stub = await startAuthorizeNetStub();
  gateway = createAuthorizeNetGateway({ ...authorizeNetStubCredentials, endpoint: stub.url });
});

afterAll(async () => {
  await stub.close();
});

/** A card's full billing address, which a Visa needs for its liveMode validation. */
const billing = {
  firstName: 'Ada',
  lastName: 'Byron',
  address: '12 Main Street',
  city: 'Indianapolis',
  state: 'IN',
  zip: '46201',
  country: 'US',
};

/** A fresh one-time token for one of the stub's test nonces, as Accept.js would issue it. */
function token(testNonce: string, minutesAgo = 0) {
  return { descriptor: acceptDescriptor, value: stub.issueNonce(testNonce, { minutesAgo }) };
}

function newClient(overrides: Partial<SaveMethodRequest> = {}): SaveMethodRequest {
  clientNumber += 1;
  return {
    customerRef: null,
    merchantCustomerId: `client-${clientNumber}`,
    email: `client${clientNumber}@example.org`,
    kind: 'card',
    token: token('nonce-visa-1111'),
    billTo: billing,
    ...overrides,
  };
}

async function savedMethod(request: SaveMethodRequest, on: PaymentGateway = gateway): Promise<SavedMethod> {
  const result = await on.saveMethod(request);
  if (result.outcome !== 'saved')
    throw new Error(`expected the method to be saved, got ${JSON.stringify(result)}`);
  return result.method;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The bodies of one operation the stub received, newest last. */
function requestsFor(operation: string): Record<string, unknown>[] {
  return stub.requests.flatMap((body) =>
    isRecord(body) && isRecord(body[operation]) ? [body[operation]] : [],
  );
}

function lastAnswer(): Record<string, unknown> {
  const answer = stub.answers.at(-1);
  if (!isRecord(answer)) throw new Error('the stub sent no JSON answer');
  return answer;
}

/** A gateway whose every request gets this body, BOM first, for answers the stub has no rule for. */
function cannedGateway(body: string): PaymentGateway {
  const cannedFetch: typeof fetch = async () =>
    new Response(`\uFEFF${body}`, { status: 200, headers: { 'content-type': 'application/json' } });
  return createAuthorizeNetGateway({
    ...authorizeNetStubCredentials,
    endpoint: stub.url,
    fetch: cannedFetch,
  });
}

describe('Authorize.Net gateway: saving a method', () => {
  it('creates a customer profile for a new client and reports the card as brand and last 4 only', async () => {
    const method = await savedMethod(newClient());
    expect(method).toEqual({
      customerRef: expect.stringMatching(/^\d+$/),
      paymentRef: expect.stringMatching(/^\d+$/),
      kind: 'card',
      brand: 'Visa',
      last4: '1111',
      expiryMonth: null,
      expiryYear: null,
    });
    const [created] = requestsFor('createCustomerProfileRequest').slice(-1);
    expect(created?.profile).toEqual({
      merchantCustomerId: `client-${clientNumber}`,
      description: `client-${clientNumber}`,
    });
    expect(requestsFor('createCustomerPaymentProfileRequest').at(-1)).toEqual({
      merchantAuthentication: expect.any(Object),
      customerProfileId: method.customerRef,
      paymentProfile: {
        customerType: 'individual',
        billTo: { ...billing, email: `client${clientNumber}@example.org` },
        payment: { opaqueData: { dataDescriptor: acceptDescriptor, dataValue: expect.any(String) } },
      },
      validationMode: 'liveMode',
    });
  });

  it('adds a second method, a bank account, to a client who has a profile', async () => {
    const first = await savedMethod(newClient());
    const second = await savedMethod(
      newClient({
        customerRef: first.customerRef,
        kind: 'ach',
        token: token('nonce-bank-6789'),
      }),
    );
    expect(second).toMatchObject({ customerRef: first.customerRef, kind: 'ach', brand: null, last4: '6789' });
    expect(second.paymentRef).not.toBe(first.paymentRef);
    expect(requestsFor('createCustomerPaymentProfileRequest').at(-1)).toMatchObject({
      customerProfileId: first.customerRef,
    });
  });

  it('reuses the profile Authorize.Net reports as a duplicate (E00039) and adds the method to it', async () => {
    const first = await savedMethod(newClient());
    const again = newClient({
      merchantCustomerId: `client-${clientNumber}`,
      token: token('nonce-mastercard-4444'),
    });
    const method = await savedMethod(again);
    expect(method).toMatchObject({ customerRef: first.customerRef, brand: 'Mastercard', last4: '4444' });
    expect(method.paymentRef).not.toBe(first.paymentRef);
    expect(stub.answers.at(-3)).toMatchObject({ messages: { message: [{ code: 'E00039' }] } });
  });

  it('returns the stored method when the same card is saved twice for a client (a new token each time)', async () => {
    const first = await savedMethod(newClient());
    const again = await savedMethod(newClient({ customerRef: first.customerRef }));
    expect(again).toEqual(first);
  });

  it.each([
    ['nonce-amex-0002', 'American Express', '0002'],
    ['nonce-mastercard-4444', 'Mastercard', '4444'],
    ['nonce-discover-0012', 'Discover', '0012'],
    ['nonce-visa-1111', 'Visa', '1111'],
  ])('names the brand of %s the way clients know it', async (nonce, brand, last4) => {
    const method = await savedMethod(newClient({ token: token(nonce) }));
    expect(method).toMatchObject({ brand, last4 });
  });

  it('reports a card the $0 validation declines as declined, with the client-facing sentence', async () => {
    const result = await gateway.saveMethod(newClient({ token: token('nonce-decline') }));
    expect(result).toEqual({
      outcome: 'declined',
      reason: 'generic_decline',
      message: 'Your card was declined. Please use another card or contact your bank.',
    });
  });

  it('reports an expired card as an expired-card decline, also when adding to an existing profile', async () => {
    const first = await savedMethod(newClient());
    const asNewClient = await gateway.saveMethod(newClient({ token: token('nonce-expired') }));
    const asSecondMethod = await gateway.saveMethod(
      newClient({ customerRef: first.customerRef, token: token('nonce-expired') }),
    );
    for (const result of [asNewClient, asSecondMethod]) {
      expect(result).toEqual({
        outcome: 'declined',
        reason: 'expired_card',
        message: 'The card has expired. Please use another card.',
      });
    }
  });

  it('asks for the details again when Accept.js data is refused (E00114)', async () => {
    const result = await gateway.saveMethod(
      newClient({ token: { descriptor: acceptDescriptor, value: 'spent' } }),
    );
    expect(result).toMatchObject({ outcome: 'error', reason: 'invalid_token' });
  });
});

describe('Authorize.Net gateway: charging a saved method', () => {
  it('charges 33981 cents as "339.81" with the transaction keys in XSD order', async () => {
    const method = await savedMethod(newClient());
    const result = await gateway.charge({
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents: 33981,
      reference: 'INV1001',
      description: 'Annual storage fee',
    });
    expect(result).toEqual({
      outcome: 'approved',
      transactionId: expect.stringMatching(/^\d+$/),
      authCode: expect.stringMatching(/^[A-Z0-9]{6}$/),
    });
    const sent = requestsFor('createTransactionRequest').at(-1) ?? {};
    expect(Object.keys(sent)).toEqual(['merchantAuthentication', 'refId', 'transactionRequest']);
    const transaction = sent.transactionRequest as Record<string, unknown>;
    expect(Object.keys(transaction)).toEqual([
      'transactionType',
      'amount',
      'profile',
      'order',
      'transactionSettings',
    ]);
    expect(transaction).toEqual({
      transactionType: 'authCaptureTransaction',
      amount: '339.81',
      profile: {
        customerProfileId: method.customerRef,
        paymentProfile: { paymentProfileId: method.paymentRef },
      },
      order: { invoiceNumber: 'INV1001', description: 'Annual storage fee' },
      transactionSettings: { setting: [{ settingName: 'duplicateWindow', settingValue: '28800' }] },
    });
    expect(sent.refId).toBe((transaction.order as Record<string, unknown>).invoiceNumber);
  });

  it.each([
    [5, '0.05'],
    [100, '1.00'],
    [1999, '19.99'],
    [120000, '1200.00'],
  ])('sends %i cents as "%s"', async (amountCents, amount) => {
    const method = await savedMethod(newClient());
    const result = await gateway.charge({
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents,
      reference: `AMT${amountCents}`,
      description: 'Storage',
    });
    expect(result.outcome).toBe('approved');
    expect(requestsFor('createTransactionRequest').at(-1)).toMatchObject({ transactionRequest: { amount } });
  });

  it('reports a decline (response code 2) with the mapped reason and the transaction id', async () => {
    const method = await savedMethod(newClient({ billTo: { ...billing, zip: '46282' } }));
    const result = await gateway.charge({
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents: 33981,
      reference: 'INV1002',
      description: 'Annual storage fee',
    });
    expect(result).toEqual({
      outcome: 'declined',
      reason: 'generic_decline',
      message: 'Your card was declined. Please use another card or contact your bank.',
      transactionId: expect.stringMatching(/^\d+$/),
    });
  });

  it('charges once when the same idempotency key is sent twice: the retry gets the first transaction id', async () => {
    const method = await savedMethod(newClient());
    const charge = {
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents: 33981,
      reference: 'INV1003',
      description: 'Annual storage fee',
    };
    const first = await gateway.charge(charge);
    const answersBefore = stub.answers.length;
    const retry = await gateway.charge(charge);
    expect(first.outcome).toBe('approved');
    expect(retry).toEqual(first);
    expect(stub.answers[answersBefore]).toMatchObject({
      transactionResponse: { responseCode: '3', errors: [{ errorCode: '11' }] },
    });
  });

  it('does not call a duplicate paid when the first attempt was declined', async () => {
    const method = await savedMethod(newClient({ billTo: { ...billing, zip: '46282' } }));
    const charge = {
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents: 4500,
      reference: 'INV1004',
      description: 'Storage',
    };
    const first = await gateway.charge(charge);
    const retry = await gateway.charge(charge);
    expect(first.outcome).toBe('declined');
    expect(retry).toEqual(first);
    expect(requestsFor('getTransactionDetailsRequest').at(-1)).toEqual({
      merchantAuthentication: expect.any(Object),
      transId: first.transactionId,
    });
  });

  it('charges a bank account, and the sandbox rule declines eCheck amounts over $100', async () => {
    const method = await savedMethod(newClient({ kind: 'ach', token: token('nonce-bank-6789') }));
    const base = { customerRef: method.customerRef, paymentRef: method.paymentRef, description: 'Storage' };
    const small = await gateway.charge({ ...base, amountCents: 10000, reference: 'ACHSMALL' });
    const large = await gateway.charge({ ...base, amountCents: 10001, reference: 'ACHLARGE' });
    expect(small.outcome).toBe('approved');
    expect(large).toMatchObject({ outcome: 'declined', reason: 'generic_decline' });
  });

  it('treats a transaction held for review (response code 4) as an error that keeps the transaction id', async () => {
    const held = cannedGateway(
      JSON.stringify({
        transactionResponse: { responseCode: '4', authCode: 'A1B2C3', transId: '60000000999', errors: [] },
        messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
      }),
    );
    const result = await held.charge({
      customerRef: '1',
      paymentRef: '2',
      amountCents: 100,
      reference: 'held',
      description: 'Storage',
    });
    expect(result).toMatchObject({
      outcome: 'error',
      reason: 'processing_error',
      transactionId: '60000000999',
    });
  });

  it('does not record an approval from an account in test mode (transaction id 0)', async () => {
    const testMode = cannedGateway(
      JSON.stringify({
        transactionResponse: { responseCode: '1', authCode: '000000', transId: '0' },
        messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
      }),
    );
    const result = await testMode.charge({
      customerRef: '1',
      paymentRef: '2',
      amountCents: 100,
      reference: 'test-mode',
      description: 'Storage',
    });
    expect(result).toMatchObject({ outcome: 'error', reason: 'processing_error', transactionId: null });
  });
});

describe('Authorize.Net gateway: when the gateway fails', () => {
  it('reports wrong credentials (E00007) as an error, for saving and for charging', async () => {
    const method = await savedMethod(newClient());
    const misconfigured = createAuthorizeNetGateway({
      apiLoginId: 'wrong',
      transactionKey: 'wrong',
      endpoint: stub.url,
    });
    const saved = await misconfigured.saveMethod(newClient());
    expect(saved).toMatchObject({ outcome: 'error', reason: 'processing_error' });
    expect(lastAnswer()).toMatchObject({ messages: { message: [{ code: 'E00007' }] } });
    const charged = await misconfigured.charge({
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents: 100,
      reference: 'wrong-credentials',
      description: 'Storage',
    });
    expect(charged).toMatchObject({ outcome: 'error', reason: 'processing_error', transactionId: null });
  });

  it('gives up after timeoutMs when the gateway does not answer', async () => {
    const slow = createAuthorizeNetGateway({
      ...authorizeNetStubCredentials,
      endpoint: new URL('/hang', stub.url).toString(),
      timeoutMs: 200,
    });
    const started = Date.now();
    const result = await slow.charge({
      customerRef: '1',
      paymentRef: '2',
      amountCents: 100,
      reference: 'hang',
      description: 'Storage',
    });
    expect(result).toEqual({
      outcome: 'error',
      reason: 'gateway_unavailable',
      message: 'The payment service could not be reached. Please try again in a few minutes.',
      transactionId: null,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports an HTML 503 page and a refused connection as the gateway being unavailable', async () => {
    const outage = createAuthorizeNetGateway({
      ...authorizeNetStubCredentials,
      endpoint: new URL('/unavailable', stub.url).toString(),
    });
    const closedPort = createAuthorizeNetGateway({
      ...authorizeNetStubCredentials,
      endpoint: 'http://127.0.0.1:1/xml/v1/request.api',
    });
    for (const unreachable of [outage, closedPort]) {
      expect(await unreachable.saveMethod(newClient())).toMatchObject({
        outcome: 'error',
        reason: 'gateway_unavailable',
      });
    }
  });

  it('reports an answer that is not JSON as the gateway being unavailable', async () => {
    const garbled = cannedGateway('<html><body>Bad Gateway</body></html>');
    const result = await garbled.charge({
      customerRef: '1',
      paymentRef: '2',
      amountCents: 100,
      reference: 'garbled',
      description: 'Storage',
    });
    expect(result).toMatchObject({ outcome: 'error', reason: 'gateway_unavailable' });
  });

  it('reads answers that start with a UTF-8 byte order mark, as the real API sends them', async () => {
    const response = await fetch(stub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        getCustomerPaymentProfileRequest: {
          merchantAuthentication: {
            name: authorizeNetStubCredentials.apiLoginId,
            transactionKey: authorizeNetStubCredentials.transactionKey,
          },
          customerProfileId: '1',
          customerPaymentProfileId: '2',
        },
      }),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await savedMethod(newClient())).toMatchObject({ last4: '1111' });

    // undici's text() drops a leading BOM by itself; this fetch keeps it, as other implementations may.
    const keepsBom = async () =>
      ({
        status: 200,
        body: null,
        text: async () =>
          '\uFEFF{"transactionResponse":{"responseCode":"1","authCode":"ABC123","transId":"60000000777"},' +
          '"messages":{"resultCode":"Ok","message":[{"code":"I00001","text":"Successful."}]}}',
      }) as unknown as Response;
    const withBom = createAuthorizeNetGateway({
      ...authorizeNetStubCredentials,
      endpoint: stub.url,
      fetch: keepsBom,
    });
    const charged = await withBom.charge({
      customerRef: '1',
      paymentRef: '2',
      amountCents: 100,
      reference: 'bom',
      description: 'Storage',
    });
    expect(charged).toEqual({ outcome: 'approved', transactionId: '60000000777', authCode: 'ABC123' });
  });
});

describe('Authorize.Net stub', () => {
  it('refuses transactionRequest keys out of XSD order with E00003, as the real API does', async () => {
    const response = await fetch(stub.url, {
      method: 'POST',
      body: JSON.stringify({
        createTransactionRequest: {
          merchantAuthentication: {
            name: authorizeNetStubCredentials.apiLoginId,
            transactionKey: authorizeNetStubCredentials.transactionKey,
          },
          transactionRequest: {
            transactionType: 'authCaptureTransaction',
            order: { invoiceNumber: 'X' },
            amount: '1.00',
          },
        },
      }),
    });
    const answer = JSON.parse((await response.text()).replace(/^\uFEFF/, ''));
    expect(answer.messages.message[0].code).toBe('E00003');
    expect(answer.messages.message[0].text).toContain("invalid child element 'amount'");
  });
});

/** Sends one request to the stub as Authorize.Net's JSON API would receive it, and reads the answer. */
async function ask(operation: string, fields: Record<string, unknown>, url = stub.url) {
  const response = await fetch(url, {
    method: 'POST',
    body: JSON.stringify({
      [operation]: {
        merchantAuthentication: {
          name: authorizeNetStubCredentials.apiLoginId,
          transactionKey: authorizeNetStubCredentials.transactionKey,
        },
        ...fields,
      },
    }),
  });
  return JSON.parse((await response.text()).replace(/^\uFEFF/, ''));
}

/** How many requests the stub received that carry this token's value. */
function requestsCarrying(value: string): number {
  return stub.requests.filter((body) => JSON.stringify(body).includes(`"${value}"`)).length;
}

describe('Authorize.Net gateway: what the real service requires of a save', () => {
  it('declines a Visa saved without its billing street, city and state (reason 290) with a sentence the client can act on', async () => {
    const result = await gateway.saveMethod(
      newClient({ billTo: { firstName: 'Ada', lastName: 'Byron', zip: '46201', country: 'US' } }),
    );
    expect(result).toEqual({
      outcome: 'declined',
      reason: 'billing_address_required',
      message:
        "The card's billing address is incomplete. Please enter the street, city, state and zip code of the card's billing address.",
    });
    expect(lastAnswer()).toMatchObject({
      validationDirectResponse: expect.stringMatching(/^3,1,290,/),
      messages: { message: [{ code: 'E00027' }] },
    });
  });

  it('saves a Visa sent with its full billing address, in the XSD order of billTo', async () => {
    const method = await savedMethod(newClient());
    expect(method).toMatchObject({ brand: 'Visa', last4: '1111' });
    const billTo = (requestsFor('createCustomerPaymentProfileRequest').at(-1)?.paymentProfile ?? {}) as {
      billTo?: Record<string, unknown>;
    };
    expect(Object.keys(billTo.billTo ?? {})).toEqual([
      'firstName',
      'lastName',
      'address',
      'city',
      'state',
      'zip',
      'country',
      'email',
    ]);
  });

  it('cuts billing fields to the XSD maxLength (address 60, city 40), which the stub refuses beyond', async () => {
    const method = await savedMethod(
      newClient({ billTo: { ...billing, address: 'A'.repeat(80), city: 'C'.repeat(50) } }),
    );
    expect(method.last4).toBe('1111');
    const sent = requestsFor('createCustomerPaymentProfileRequest').at(-1)?.paymentProfile as {
      billTo: { address: string; city: string };
    };
    expect([sent.billTo.address.length, sent.billTo.city.length]).toEqual([60, 40]);
  });

  it('sends the one-time token in exactly one request when the client already has a customer profile', async () => {
    const first = await savedMethod(newClient());
    const second = newClient({
      merchantCustomerId: `client-${clientNumber}`,
      token: token('nonce-mastercard-4444'),
    });
    const method = await savedMethod(second);
    expect(method).toMatchObject({ customerRef: first.customerRef, last4: '4444' });
    expect(requestsCarrying(second.token.value)).toBe(1);
  });

  it('sends the token once also when the caller knows the customer profile', async () => {
    const first = await savedMethod(newClient());
    const again = newClient({ customerRef: first.customerRef, token: token('nonce-amex-0002') });
    const before = requestsFor('createCustomerProfileRequest').length;
    await savedMethod(again);
    expect(requestsFor('createCustomerProfileRequest')).toHaveLength(before);
    expect(requestsCarrying(again.token.value)).toBe(1);
  });

  it('refuses a token used a second time, or 15 minutes after it was issued, and asks for the details again', async () => {
    const first = newClient();
    await savedMethod(first);
    const reused = await gateway.saveMethod(newClient({ token: first.token }));
    const stale = await gateway.saveMethod(newClient({ token: token('nonce-visa-1111', 16) }));
    for (const result of [reused, stale]) {
      expect(result).toEqual({
        outcome: 'error',
        reason: 'invalid_token',
        message: 'The payment details expired before they were saved. Please enter them again.',
      });
    }
    expect(lastAnswer()).toMatchObject({ messages: { message: [{ code: 'E00114' }] } });
    expect(await gateway.saveMethod(newClient({ token: token('nonce-visa-1111', 14) }))).toMatchObject({
      outcome: 'saved',
    });
  });

  it('finds the profile of a save whose answer was lost: the same merchantCustomerId, description and e-mail give E00039', async () => {
    const request = newClient();
    const first = await savedMethod(request);
    const retry = await savedMethod({ ...request, token: token('nonce-discover-0012') });
    expect(retry.customerRef).toBe(first.customerRef);
    expect(requestsFor('createCustomerProfileRequest').slice(-2)).toEqual([
      expect.objectContaining({
        profile: { merchantCustomerId: request.merchantCustomerId, description: request.merchantCustomerId },
      }),
      expect.objectContaining({
        profile: { merchantCustomerId: request.merchantCustomerId, description: request.merchantCustomerId },
      }),
    ]);
  });
  it('finds the profile by merchantCustomerId when an E00039 answer carries no id', async () => {
    const request = newClient();
    const first = await savedMethod(request);
    // A proxy that words E00039 without the id, as some answers do.
    const withoutId: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = (await response.text()).replace(/ with ID \d+/, '');
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const proxied = createAuthorizeNetGateway({
      ...authorizeNetStubCredentials,
      endpoint: stub.url,
      fetch: withoutId,
    });
    const retry = await savedMethod({ ...request, token: token('nonce-mastercard-4444') }, proxied);
    expect(retry.customerRef).toBe(first.customerRef);
    expect(requestsFor('getCustomerProfileRequest').at(-1)).toEqual({
      merchantAuthentication: expect.any(Object),
      merchantCustomerId: request.merchantCustomerId,
    });
  });
});

describe('Authorize.Net stub: the rules of the real service', () => {
  it('answers E00039 only when merchantCustomerId, description and e-mail all match', async () => {
    const profile = { merchantCustomerId: 'rule-1', description: 'rule-1', email: 'a@example.org' };
    const created = await ask('createCustomerProfileRequest', { profile });
    const same = await ask('createCustomerProfileRequest', { profile });
    const otherEmail = await ask('createCustomerProfileRequest', {
      profile: { ...profile, email: 'b@example.org' },
    });
    const otherDescription = await ask('createCustomerProfileRequest', {
      profile: { ...profile, description: 'another' },
    });
    expect(created.messages.resultCode).toBe('Ok');
    expect(same.messages.message[0]).toEqual({
      code: 'E00039',
      text: `A duplicate record with ID ${created.customerProfileId} already exists.`,
    });
    for (const answer of [otherEmail, otherDescription]) {
      expect(answer.messages.resultCode).toBe('Ok');
      expect(answer.customerProfileId).not.toBe(created.customerProfileId);
    }
  });

  it('refuses an invoice number longer than 20 characters with E00003', async () => {
    const method = await savedMethod(newClient());
    const answer = await ask('createTransactionRequest', {
      transactionRequest: {
        transactionType: 'authCaptureTransaction',
        amount: '1.00',
        profile: {
          customerProfileId: method.customerRef,
          paymentProfile: { paymentProfileId: method.paymentRef },
        },
        order: { invoiceNumber: 'X'.repeat(21) },
      },
    });
    expect(answer.messages.message[0].code).toBe('E00003');
    expect(answer.messages.message[0].text).toContain('invoiceNumber');
  });

  it('checks the element order of getTransactionListForCustomerRequest and getCustomerProfileRequest', async () => {
    const list = await ask('getTransactionListForCustomerRequest', {
      paging: { limit: 10, offset: 1 },
      customerProfileId: '1',
    });
    const profile = await ask('getCustomerProfileRequest', {
      merchantCustomerId: 'x',
      customerProfileId: '1',
    });
    expect(list.messages.message[0].text).toContain("invalid child element 'customerProfileId'");
    expect(profile.messages.message[0].text).toContain("invalid child element 'customerProfileId'");
  });

  it('finds a customer profile by merchantCustomerId, E00040 when there is none', async () => {
    const method = await savedMethod(newClient());
    const found = await ask('getCustomerProfileRequest', { merchantCustomerId: `client-${clientNumber}` });
    const missing = await ask('getCustomerProfileRequest', { merchantCustomerId: 'nobody' });
    expect(found.profile).toMatchObject({
      customerProfileId: method.customerRef,
      paymentProfiles: [{ customerPaymentProfileId: method.paymentRef }],
    });
    expect(missing.messages.message[0].code).toBe('E00040');
  });

  it("lists a customer's transactions newest first, paged, E00040 for an unknown profile", async () => {
    const method = await savedMethod(newClient());
    const base = { customerRef: method.customerRef, paymentRef: method.paymentRef, description: 'Storage' };
    for (const reference of ['LIST1', 'LIST2', 'LIST3']) {
      await gateway.charge({ ...base, amountCents: 1000, reference });
    }
    const page = (offset: number) =>
      ask('getTransactionListForCustomerRequest', {
        customerProfileId: method.customerRef,
        sorting: { orderBy: 'submitTimeUTC', orderDescending: true },
        paging: { limit: 2, offset },
      });
    const [first, second] = [await page(1), await page(2)];
    expect(first.transactions.map((t: { invoiceNumber: string }) => t.invoiceNumber)).toEqual([
      'LIST3',
      'LIST2',
    ]);
    expect(second.transactions).toHaveLength(1);
    expect(second.transactions[0]).toMatchObject({
      invoiceNumber: 'LIST1',
      transactionStatus: 'capturedPendingSettlement',
      settleAmount: 10,
    });
    expect(first.totalNumInResultSet).toBe(3);
    const unknown = await ask('getTransactionListForCustomerRequest', { customerProfileId: '999' });
    expect(unknown.messages.message[0].code).toBe('E00040');
  });
});

describe('Authorize.Net gateway: finding a charge again by our reference (reconciliation)', () => {
  async function chargedClient(reference: string, billTo = billing) {
    const method = await savedMethod(newClient({ billTo }));
    const charge = {
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents: 33981,
      reference,
      description: 'Annual storage fee',
    };
    return { method, charge, result: await gateway.charge(charge) };
  }

  it('reports an approved charge with its transaction id and amount in cents', async () => {
    const { method, result } = await chargedClient('RECAPPROVED');
    const lookup = await gateway.lookupCharge({ customerRef: method.customerRef, reference: 'RECAPPROVED' });
    expect(result.outcome).toBe('approved');
    expect(lookup).toEqual({ status: 'approved', transactionId: result.transactionId, amountCents: 33981 });
    expect(requestsFor('getTransactionListForCustomerRequest').at(-1)).toEqual({
      merchantAuthentication: expect.any(Object),
      customerProfileId: method.customerRef,
      sorting: { orderBy: 'submitTimeUTC', orderDescending: true },
      paging: { limit: 100, offset: 1 },
    });
    expect(requestsFor('getTransactionDetailsRequest').at(-1)).toMatchObject({
      transId: result.transactionId,
    });
  });

  it('reports a settled charge as approved too', async () => {
    const { method, result } = await chargedClient('RECSETTLED');
    stub.setTransactionStatus(result.transactionId ?? '', 'settledSuccessfully');
    expect(
      await gateway.lookupCharge({ customerRef: method.customerRef, reference: 'RECSETTLED' }),
    ).toMatchObject({
      status: 'approved',
      amountCents: 33981,
    });
  });

  it('reports a declined charge as failed', async () => {
    const { method, result } = await chargedClient('RECDECLINED', { ...billing, zip: '46282' });
    expect(result.outcome).toBe('declined');
    expect(await gateway.lookupCharge({ customerRef: method.customerRef, reference: 'RECDECLINED' })).toEqual(
      {
        status: 'failed',
        transactionId: result.transactionId,
      },
    );
  });

  it('reports a voided charge as failed: nothing was taken', async () => {
    const { method, result } = await chargedClient('RECVOIDED');
    stub.setTransactionStatus(result.transactionId ?? '', 'voided');
    expect(await gateway.lookupCharge({ customerRef: method.customerRef, reference: 'RECVOIDED' })).toEqual({
      status: 'failed',
      transactionId: result.transactionId,
    });
  });

  it('keeps a charge held by the fraud filters pending, in doubt', async () => {
    const { method, result } = await chargedClient('RECREVIEW');
    stub.setTransactionStatus(result.transactionId ?? '', 'FDSPendingReview');
    expect(await gateway.lookupCharge({ customerRef: method.customerRef, reference: 'RECREVIEW' })).toEqual({
      status: 'pending',
      transactionId: result.transactionId,
    });
  });

  it('reports an eCheck that came back from the bank (returnedItem) as returned', async () => {
    const method = await savedMethod(newClient({ kind: 'ach', token: token('nonce-bank-6789') }));
    const result = await gateway.charge({
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents: 5000,
      reference: 'RECRETURNED',
      description: 'Storage',
    });
    stub.setTransactionStatus(result.transactionId ?? '', 'returnedItem');
    expect(await gateway.lookupCharge({ customerRef: method.customerRef, reference: 'RECRETURNED' })).toEqual(
      {
        status: 'returned',
        transactionId: result.transactionId,
      },
    );
  });

  it('answers not found when no transaction of the customer carries the reference', async () => {
    const { method } = await chargedClient('RECOTHER');
    const fresh = await savedMethod(newClient());
    expect(
      await gateway.lookupCharge({ customerRef: method.customerRef, reference: 'RECNEVERSENT' }),
    ).toEqual({
      status: 'not_found',
    });
    expect(await gateway.lookupCharge({ customerRef: fresh.customerRef, reference: 'RECOTHER' })).toEqual({
      status: 'not_found',
    });
  });

  it('finds the charge among more than one page of transactions', async () => {
    const { method, charge } = await chargedClient('RECOLDEST');
    for (let index = 0; index < 100; index += 1) {
      await gateway.charge({ ...charge, amountCents: 100 + index, reference: `RECPAGE${index}` });
    }
    expect(
      await gateway.lookupCharge({ customerRef: method.customerRef, reference: 'RECOLDEST' }),
    ).toMatchObject({
      status: 'approved',
      amountCents: 33981,
    });
    expect(requestsFor('getTransactionListForCustomerRequest').at(-1)).toMatchObject({
      paging: { limit: 100, offset: 2 },
    });
  });

  it('is unavailable, naming the setting to enable, when the Transaction Details API is off (E00011)', async () => {
    const restricted = await startAuthorizeNetStub({ transactionDetailsApi: false });
    try {
      const restrictedGateway = createAuthorizeNetGateway({
        ...authorizeNetStubCredentials,
        endpoint: restricted.url,
      });
      const method = await savedMethod(
        newClient({
          token: { descriptor: acceptDescriptor, value: restricted.issueNonce('nonce-visa-1111') },
        }),
        restrictedGateway,
      );
      await restrictedGateway.charge({
        customerRef: method.customerRef,
        paymentRef: method.paymentRef,
        amountCents: 100,
        reference: 'RECDENIED',
        description: 'Storage',
      });
      const lookup = await restrictedGateway.lookupCharge({
        customerRef: method.customerRef,
        reference: 'RECDENIED',
      });
      expect(lookup).toEqual({ status: 'unavailable', message: expect.stringContaining('E00011') });
      expect(lookup.status === 'unavailable' && lookup.message).toContain(
        'Account > Settings > Security Settings > General Security Settings > Transaction Details API',
      );
      expect(restricted.answers.at(-1)).toMatchObject({
        messages: {
          message: [
            {
              code: 'E00011',
              text: 'Access denied. You do not have permissions to call the Transaction Details API.',
            },
          ],
        },
      });
    } finally {
      await restricted.close();
    }
  });

  it('is unavailable when the gateway cannot be reached', async () => {
    const closedPort = createAuthorizeNetGateway({
      ...authorizeNetStubCredentials,
      endpoint: 'http://127.0.0.1:1/xml/v1/request.api',
    });
    expect(await closedPort.lookupCharge({ customerRef: '1', reference: 'RECNETWORK' })).toEqual({
      status: 'unavailable',
      message: 'The payment service could not be reached. Please try again in a few minutes.',
    });
  });

  it('refuses a reference longer than the 20 characters of an invoice number rather than cutting it', async () => {
    await expect(
      gateway.charge({
        customerRef: '1',
        paymentRef: '2',
        amountCents: 100,
        reference: 'R'.repeat(21),
        description: 'x',
      }),
    ).rejects.toThrow(RangeError);
    await expect(gateway.lookupCharge({ customerRef: '1', reference: 'R'.repeat(21) })).rejects.toThrow(
      RangeError,
    );
  });
});

/** A client charged $100.00 (the stub's eCheck limit) on a card or a bank account. */
async function chargedClient(kind: 'card' | 'ach') {
  const method = await savedMethod(
    newClient(kind === 'card' ? {} : { kind: 'ach', token: token('nonce-bank-6789') }),
  );
  const charge = await gateway.charge({
    customerRef: method.customerRef,
    paymentRef: method.paymentRef,
    amountCents: 10_000,
    reference: `CHG${clientNumber}`,
    description: 'Vial request',
  });
  if (charge.outcome !== 'approved') throw new Error(`not charged: ${JSON.stringify(charge)}`);
  return { method, chargeId: charge.transactionId };
}

let refundNumber = 0;
function refundReference(): string {
  refundNumber += 1;
  return `RFD${refundNumber}`;
}

type Step =
  | { refund: number; expect: 'refunded' | 'not_settled' | 'exceeds_charge' | 'not_refundable' }
  | { void: 'charge' | 'last refund'; expect: 'voided' | 'settled' | 'not_voidable' }
  | { batch: true };

const refundScenarios: Array<[string, Step[]]> = [
  [
    'refunds the whole charge once it has settled, and nothing more',
    [{ batch: true }, { refund: 10_000, expect: 'refunded' }, { refund: 1, expect: 'exceeds_charge' }],
  ],
  [
    'refunds in parts up to the charge',
    [
      { batch: true },
      { refund: 2_500, expect: 'refunded' },
      { refund: 7_500, expect: 'refunded' },
      { refund: 1, expect: 'exceeds_charge' },
    ],
  ],
  [
    'refuses a refund above what is left of the charge (reason 55)',
    [
      { batch: true },
      { refund: 6_000, expect: 'refunded' },
      { refund: 4_001, expect: 'exceeds_charge' },
      { refund: 4_000, expect: 'refunded' },
    ],
  ],
  [
    'refuses a refund above the charge itself',
    [{ batch: true }, { refund: 10_001, expect: 'exceeds_charge' }],
  ],
  [
    'refuses to refund a charge before its batch settles (reason 54): it is voided instead',
    [
      { refund: 10_000, expect: 'not_settled' },
      { refund: 100, expect: 'not_settled' },
      { void: 'charge', expect: 'voided' },
    ],
  ],
  [
    'refuses to void a charge once its batch has settled: it is refunded instead',
    [{ batch: true }, { void: 'charge', expect: 'settled' }, { refund: 10_000, expect: 'refunded' }],
  ],
  [
    'refuses to refund a voided charge, before and after the batch',
    [
      { void: 'charge', expect: 'voided' },
      { refund: 10_000, expect: 'not_refundable' },
      { batch: true },
      { refund: 10_000, expect: 'not_refundable' },
    ],
  ],
  [
    'answers a second void as approved again (reason 310), also after the batch',
    [
      { void: 'charge', expect: 'voided' },
      { void: 'charge', expect: 'voided' },
      { batch: true },
      { void: 'charge', expect: 'voided' },
    ],
  ],
  [
    'voids a refund before its own batch settles, which gives its amount back to refund',
    [
      { batch: true },
      { refund: 10_000, expect: 'refunded' },
      { void: 'last refund', expect: 'voided' },
      { refund: 10_000, expect: 'refunded' },
      { batch: true },
      { void: 'last refund', expect: 'settled' },
      { refund: 1, expect: 'exceeds_charge' },
    ],
  ],
];

describe.each(['card', 'ach'] as const)(
  'Authorize.Net gateway: refunds and voids of a %s charge of $100.00',
  (kind) => {
    it.each(refundScenarios)('%s', async (_rule, steps) => {
      const { method, chargeId } = await chargedClient(kind);
      let lastRefund = '';
      for (const step of steps) {
        if ('batch' in step) {
          stub.settleBatch();
        } else if ('refund' in step) {
          const result = await gateway.refund({
            chargeTransactionId: chargeId,
            customerRef: method.customerRef,
            amountCents: step.refund,
            reference: refundReference(),
            description: 'Cancelled request',
          });
          expect(result.outcome === 'declined' ? result.reason : result.outcome, JSON.stringify(step)).toBe(
            step.expect,
          );
          if (result.outcome === 'refunded') lastRefund = result.transactionId;
        } else {
          const result = await gateway.void({
            transactionId: step.void === 'charge' ? chargeId : lastRefund,
          });
          expect(result.outcome === 'declined' ? result.reason : result.outcome, JSON.stringify(step)).toBe(
            step.expect,
          );
        }
      }
    });
  },
);

describe('Authorize.Net gateway: what a refund and a void send', () => {
  it("refunds a card naming the charge and the card's last 4 with the expiry as XXXX, keys in XSD order", async () => {
    const { method, chargeId } = await chargedClient('card');
    stub.settleBatch();
    const reference = refundReference();
    const result = await gateway.refund({
      chargeTransactionId: chargeId,
      customerRef: method.customerRef,
      amountCents: 2_575,
      reference,
      description: 'Cancelled vial request',
    });
    expect(result).toEqual({ outcome: 'refunded', transactionId: expect.stringMatching(/^\d+$/) });
    const sent = requestsFor('createTransactionRequest').at(-1) ?? {};
    expect(Object.keys(sent)).toEqual(['merchantAuthentication', 'refId', 'transactionRequest']);
    const transaction = sent.transactionRequest as Record<string, unknown>;
    expect(Object.keys(transaction)).toEqual([
      'transactionType',
      'amount',
      'payment',
      'refTransId',
      'order',
      'transactionSettings',
    ]);
    expect(sent).toEqual({
      merchantAuthentication: expect.any(Object),
      refId: reference,
      transactionRequest: {
        transactionType: 'refundTransaction',
        amount: '25.75',
        payment: { creditCard: { cardNumber: '1111', expirationDate: 'XXXX' } },
        refTransId: chargeId,
        order: { invoiceNumber: reference, description: 'Cancelled vial request' },
        transactionSettings: { setting: [{ settingName: 'duplicateWindow', settingValue: '28800' }] },
      },
    });
  });

  it('refunds a bank account naming its routing and account numbers as XXXX and their last 4, and the name on it', async () => {
    const { method, chargeId } = await chargedClient('ach');
    stub.settleBatch();
    const result = await gateway.refund({
      chargeTransactionId: chargeId,
      customerRef: method.customerRef,
      amountCents: 10_000,
      reference: refundReference(),
      description: 'Cancelled store order',
    });
    expect(result.outcome).toBe('refunded');
    expect(requestsFor('createTransactionRequest').at(-1)?.transactionRequest).toMatchObject({
      amount: '100.00',
      payment: {
        bankAccount: {
          accountType: 'checking',
          routingNumber: 'XXXX0025',
          accountNumber: 'XXXX6789',
          nameOnAccount: 'Account Holder',
        },
      },
      refTransId: chargeId,
    });
  });

  it('voids with the transaction id alone', async () => {
    const { chargeId } = await chargedClient('card');
    expect(await gateway.void({ transactionId: chargeId })).toEqual({
      outcome: 'voided',
      transactionId: chargeId,
    });
    expect(requestsFor('createTransactionRequest').at(-1)).toEqual({
      merchantAuthentication: expect.any(Object),
      transactionRequest: { transactionType: 'voidTransaction', refTransId: chargeId },
    });
    expect(await gateway.void({ transactionId: chargeId })).toEqual({
      outcome: 'voided',
      transactionId: chargeId,
    });
    expect(lastAnswer()).toMatchObject({
      transactionResponse: {
        responseCode: '1',
        messages: [{ code: '310', description: 'This transaction has already been voided.' }],
      },
    });
  });

  it('answers a retried refund with the first one (reason 11): one refund, its transaction id', async () => {
    const { method, chargeId } = await chargedClient('card');
    stub.settleBatch();
    const request = {
      chargeTransactionId: chargeId,
      customerRef: method.customerRef,
      amountCents: 6_000,
      reference: refundReference(),
      description: 'Cancelled request',
    };
    const first = await gateway.refund(request);
    const retry = await gateway.refund(request);
    expect(first.outcome).toBe('refunded');
    expect(retry).toEqual(first);
    expect(requestsFor('getTransactionDetailsRequest').at(-1)).toMatchObject({
      transId: first.outcome === 'refunded' ? first.transactionId : '',
    });
    // The first 6000 cents went back once: 4000 are left.
    const rest = await gateway.refund({ ...request, amountCents: 4_001, reference: refundReference() });
    expect(rest).toMatchObject({ outcome: 'declined', reason: 'exceeds_charge' });
  });

  it('refuses a retried reference whose refund was voided as a duplicate', async () => {
    const { method, chargeId } = await chargedClient('card');
    stub.settleBatch();
    const request = {
      chargeTransactionId: chargeId,
      customerRef: method.customerRef,
      amountCents: 5_000,
      reference: refundReference(),
      description: 'Cancelled request',
    };
    const first = await gateway.refund(request);
    if (first.outcome !== 'refunded') throw new Error(JSON.stringify(first));
    await gateway.void({ transactionId: first.transactionId });
    expect(await gateway.refund(request)).toEqual({
      outcome: 'declined',
      reason: 'duplicate',
      message: 'This refund was already submitted and then voided. Use a new reference to refund again.',
    });
  });

  it("refuses another customer's charge without asking for a refund", async () => {
    const { chargeId } = await chargedClient('card');
    const stranger = await savedMethod(newClient());
    stub.settleBatch();
    const before = requestsFor('createTransactionRequest').length;
    const result = await gateway.refund({
      chargeTransactionId: chargeId,
      customerRef: stranger.customerRef,
      amountCents: 100,
      reference: refundReference(),
      description: 'Cancelled request',
    });
    expect(result).toEqual({
      outcome: 'declined',
      reason: 'not_refundable',
      message: 'The gateway cannot refund this charge: it was voided, declined or returned.',
    });
    expect(requestsFor('createTransactionRequest')).toHaveLength(before);
  });

  it('refuses to refund a declined charge or one it never made, and to void one it never made', async () => {
    const method = await savedMethod(newClient({ billTo: { ...billing, zip: '46282' } }));
    const declined = await gateway.charge({
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents: 10_000,
      reference: `CHG${clientNumber}`,
      description: 'Vial request',
    });
    stub.settleBatch();
    for (const chargeTransactionId of [declined.transactionId ?? '', '69999999999']) {
      const result = await gateway.refund({
        chargeTransactionId,
        customerRef: method.customerRef,
        amountCents: 100,
        reference: refundReference(),
        description: 'Cancelled request',
      });
      expect(result).toMatchObject({ outcome: 'declined', reason: 'not_refundable' });
    }
    expect(await gateway.void({ transactionId: '69999999999' })).toMatchObject({
      outcome: 'declined',
      reason: 'not_voidable',
    });
  });

  it('is unavailable when the gateway cannot be reached, for a refund and a void', async () => {
    const closedPort = createAuthorizeNetGateway({
      ...authorizeNetStubCredentials,
      endpoint: 'http://127.0.0.1:1/xml/v1/request.api',
    });
    expect(
      await closedPort.refund({
        chargeTransactionId: '1',
        customerRef: '2',
        amountCents: 100,
        reference: 'RFDNETWORK',
        description: 'x',
      }),
    ).toMatchObject({ outcome: 'error', reason: 'gateway_unavailable', transactionId: null });
    expect(await closedPort.void({ transactionId: '1' })).toEqual({
      outcome: 'error',
      reason: 'gateway_unavailable',
      message: 'The payment service could not be reached. Please try again in a few minutes.',
    });
  });
});

describe('Authorize.Net gateway: finding a refund again by our reference (reconciliation)', () => {
  async function refunded(cents = 3_000) {
    const { method, chargeId } = await chargedClient('card');
    stub.settleBatch();
    const reference = refundReference();
    const result = await gateway.refund({
      chargeTransactionId: chargeId,
      customerRef: method.customerRef,
      amountCents: cents,
      reference,
      description: 'Cancelled request',
    });
    if (result.outcome !== 'refunded') throw new Error(JSON.stringify(result));
    const lookup = (on: PaymentGateway = gateway) =>
      on.lookupRefund({ customerRef: method.customerRef, chargeTransactionId: chargeId, reference });
    return { method, chargeId, reference, refundId: result.transactionId, lookup };
  }

  it('finds a refund still in the open batch among the unsettled transactions', async () => {
    const { reference, refundId, lookup } = await refunded(3_050);
    expect(await lookup()).toEqual({ status: 'refunded', transactionId: refundId, amountCents: 3_050 });
    expect(requestsFor('getUnsettledTransactionListRequest').at(-1)).toEqual({
      merchantAuthentication: expect.any(Object),
      sorting: { orderBy: 'submitTimeUTC', orderDescending: true },
      paging: { limit: 1000, offset: 1 },
    });
    expect(requestsFor('getTransactionDetailsRequest').at(-1)).toMatchObject({ transId: refundId });
    expect(reference).toMatch(/^RFD\d+$/);
  });

  it('finds a settled refund in the batches settled in the last 30 days', async () => {
    const { refundId, lookup } = await refunded(1_999);
    const batchId = stub.settleBatch();
    expect(await lookup()).toEqual({ status: 'refunded', transactionId: refundId, amountCents: 1_999 });
    const batchList = requestsFor('getSettledBatchListRequest').at(-1) ?? {};
    const first = Date.parse(String(batchList.firstSettlementDate));
    const last = Date.parse(String(batchList.lastSettlementDate));
    expect(String(batchList.lastSettlementDate)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(last - first).toBe(30 * 86_400_000);
    expect(requestsFor('getTransactionListRequest').at(-1)).toEqual({
      merchantAuthentication: expect.any(Object),
      batchId,
      sorting: { orderBy: 'submitTimeUTC', orderDescending: true },
      paging: { limit: 1000, offset: 1 },
    });
  });

  it('reports a voided refund as failed: nothing went back', async () => {
    const { refundId, lookup } = await refunded();
    await gateway.void({ transactionId: refundId });
    expect(await lookup()).toEqual({ status: 'failed', transactionId: refundId });
    stub.settleBatch();
    expect(await lookup()).toEqual({ status: 'failed', transactionId: refundId });
  });

  it('answers not found for a reference no refund of this charge carries', async () => {
    const { method, chargeId, reference } = await refunded();
    const other = await chargedClient('card');
    expect(
      await gateway.lookupRefund({
        customerRef: method.customerRef,
        chargeTransactionId: chargeId,
        reference: 'RFDNEVERSENT',
      }),
    ).toEqual({ status: 'not_found' });
    // The same invoice number on a refund of another charge is not this refund.
    expect(
      await gateway.lookupRefund({
        customerRef: other.method.customerRef,
        chargeTransactionId: other.chargeId,
        reference,
      }),
    ).toEqual({ status: 'not_found' });
  });

  it('is unavailable, naming the setting to enable, when the Transaction Details API is off (E00011)', async () => {
    const restricted = await startAuthorizeNetStub({ transactionDetailsApi: false });
    try {
      const restrictedGateway = createAuthorizeNetGateway({
        ...authorizeNetStubCredentials,
        endpoint: restricted.url,
      });
      const lookup = await restrictedGateway.lookupRefund({
        customerRef: '1',
        chargeTransactionId: '2',
        reference: 'RFDDENIED',
      });
      expect(lookup).toEqual({ status: 'unavailable', message: expect.stringContaining('E00011') });
      const refund = await restrictedGateway.refund({
        chargeTransactionId: '2',
        customerRef: '1',
        amountCents: 100,
        reference: 'RFDDENIED',
        description: 'x',
      });
      expect(refund).toMatchObject({
        outcome: 'error',
        reason: 'processing_error',
        message: expect.stringContaining('Transaction Details API'),
      });
    } finally {
      await restricted.close();
    }
  });

  it('refuses a reference longer than the 20 characters of an invoice number, and a refund of no cents', async () => {
    const request = { chargeTransactionId: '1', customerRef: '2', amountCents: 100, description: 'x' };
    await expect(gateway.refund({ ...request, reference: 'R'.repeat(21) })).rejects.toThrow(RangeError);
    await expect(gateway.refund({ ...request, amountCents: 0, reference: 'RFDZERO' })).rejects.toThrow(
      RangeError,
    );
    await expect(
      gateway.lookupRefund({ customerRef: '2', chargeTransactionId: '1', reference: 'R'.repeat(21) }),
    ).rejects.toThrow(RangeError);
  });
});

describe('Authorize.Net stub: the rules of refunds and voids', () => {
  function refundRequest(chargeId: string, amount: string, payment: Record<string, unknown>) {
    return {
      transactionRequest: {
        transactionType: 'refundTransaction',
        amount,
        payment,
        refTransId: chargeId,
        order: { invoiceNumber: refundReference() },
      },
    };
  }
  const card1111 = { creditCard: { cardNumber: '1111', expirationDate: 'XXXX' } };

  it('refuses to refund an unsettled charge with reason 54, and a settled one above its amount with 55', async () => {
    const { chargeId } = await chargedClient('card');
    const early = await ask('createTransactionRequest', refundRequest(chargeId, '100.00', card1111));
    stub.settleBatch();
    const tooMuch = await ask('createTransactionRequest', refundRequest(chargeId, '100.01', card1111));
    const whole = await ask('createTransactionRequest', refundRequest(chargeId, '100.00', card1111));
    expect(early.transactionResponse).toMatchObject({
      responseCode: '3',
      transId: '0',
      errors: [
        {
          errorCode: '54',
          errorText: 'The referenced transaction does not meet the criteria for issuing a credit.',
        },
      ],
    });
    expect(tooMuch.transactionResponse.errors).toEqual([
      {
        errorCode: '55',
        errorText:
          'The sum of credits against the referenced transaction would exceed original debit amount.',
      },
    ]);
    expect(whole.transactionResponse).toMatchObject({
      responseCode: '1',
      refTransID: chargeId,
      accountNumber: 'XXXX1111',
    });
    expect(whole.messages.resultCode).toBe('Ok');
  });

  it('refuses a refund to another card or account than the one charged, with reason 54', async () => {
    const card = await chargedClient('card');
    const bank = await chargedClient('ach');
    stub.settleBatch();
    const otherCard = await ask(
      'createTransactionRequest',
      refundRequest(card.chargeId, '1.00', { creditCard: { cardNumber: '4444', expirationDate: 'XXXX' } }),
    );
    const cardForBank = await ask('createTransactionRequest', refundRequest(bank.chargeId, '1.00', card1111));
    const otherRouting = await ask(
      'createTransactionRequest',
      refundRequest(bank.chargeId, '1.00', {
        bankAccount: {
          routingNumber: 'XXXX9999',
          accountNumber: 'XXXX6789',
          nameOnAccount: 'Account Holder',
        },
      }),
    );
    for (const answer of [otherCard, cardForBank, otherRouting]) {
      expect(answer.transactionResponse.errors[0].errorCode).toBe('54');
    }
  });

  it('checks the masked numbers against the XSD lengths (E00003)', async () => {
    const { chargeId } = await chargedClient('ach');
    stub.settleBatch();
    const shortAccount = await ask(
      'createTransactionRequest',
      refundRequest(chargeId, '1.00', {
        bankAccount: { routingNumber: 'XXXX0025', accountNumber: '6789', nameOnAccount: 'Account Holder' },
      }),
    );
    const noName = await ask(
      'createTransactionRequest',
      refundRequest(chargeId, '1.00', {
        bankAccount: { routingNumber: 'XXXX0025', accountNumber: 'XXXX6789' },
      }),
    );
    expect(shortAccount.messages.message[0]).toMatchObject({ code: 'E00003' });
    expect(shortAccount.messages.message[0].text).toContain('accountNumber');
    expect(noName.messages.message[0].text).toContain('nameOnAccount');
  });

  it('voids only what is still in the open batch: reason 16 for a settled charge, 310 for a voided one', async () => {
    const settled = await chargedClient('card');
    stub.settleBatch();
    const open = await chargedClient('card');
    const voidOf = (transId: string) =>
      ask('createTransactionRequest', {
        transactionRequest: { transactionType: 'voidTransaction', refTransId: transId },
      });
    const onSettled = await voidOf(settled.chargeId);
    const first = await voidOf(open.chargeId);
    const second = await voidOf(open.chargeId);
    expect(onSettled.transactionResponse).toMatchObject({
      responseCode: '3',
      errors: [{ errorCode: '16', errorText: 'The transaction cannot be found.' }],
    });
    expect(first.transactionResponse).toMatchObject({
      responseCode: '1',
      transId: open.chargeId,
      refTransID: open.chargeId,
    });
    expect(second.transactionResponse).toMatchObject({
      responseCode: '1',
      messages: [{ code: '310', description: 'This transaction has already been voided.' }],
    });
  });

  it("leaves refunds out of the customer's transaction list: they are not tied to the profile", async () => {
    const { method, chargeId } = await chargedClient('card');
    stub.settleBatch();
    await ask('createTransactionRequest', refundRequest(chargeId, '5.00', card1111));
    const list = await ask('getTransactionListForCustomerRequest', { customerProfileId: method.customerRef });
    expect(list.transactions.map((t: { transId: string }) => t.transId)).toEqual([chargeId]);
  });
});

describe('Authorize.Net gateway: card data', () => {
  it('never sent anything that looks like a card or account number (13 to 19 digits)', () => {
    expect(stub.requests.length).toBeGreaterThan(20);
    for (const body of stub.requests) {
      expect(JSON.stringify(body)).not.toMatch(/\d{13,19}/);
    }
  });

  it('sent no more than the last 4 digits of a card, an account or a routing number in any refund', () => {
    const refunds = requestsFor('createTransactionRequest').flatMap((body) => {
      const transaction = body.transactionRequest;
      return isRecord(transaction) && transaction.transactionType === 'refundTransaction'
        ? [transaction]
        : [];
    });
    expect(refunds.length).toBeGreaterThan(10);
    for (const refund of refunds) {
      const payment = JSON.stringify(refund.payment);
      for (const digits of payment.match(/\d+/g) ?? []) expect(digits.length).toBeLessThanOrEqual(4);
    }
  });
});
