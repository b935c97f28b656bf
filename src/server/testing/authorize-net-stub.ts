import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Authorize.Net's JSON API, so the adapter is tested without the internet. It keeps
 * the habits the adapter must cope with: one endpoint, a root key naming the operation, element order
 * checked as the XSD does, BOM-prefixed JSON and HTTP 200 for every outcome.
 *
 * Test nonces stand for what Accept.js would have tokenised (a suffix such as `-7` makes each one unique):
 *   nonce-visa-1111, nonce-mastercard-4444, nonce-amex-0002, nonce-discover-0012  a card that validates
 *   nonce-bank-6789                                                               a checking account
 *   nonce-decline                                                                 declined by the $0 check
 *   nonce-expired                                                                 an expired card
 *   anything else                                                                 E00114, invalid token
 * Like the real one-time tokens, a nonce is spent by the first request that carries it and expires 15
 * minutes after it was issued (issueNonce; one the stub did not issue counts as issued at first use):
 * either way the next use answers E00114. As in the sandbox, billing zip 46282 declines a charge and eCheck
 * amounts over $100 decline. Unlike the sandbox, the zip does not decline the $0 validation, so a saved card
 * that later declines can be tested. A Visa validated in liveMode without street, city, state and zip gets
 * response code 3, reason 290, as the card networks' address verification makes Authorize.Net answer.
 *
 * Refunds and voids keep the service's rules. A charge settles with the next batch (settleBatch, as the
 * daily cut-off would); until then it can be voided and not refunded (reason 54), after it the other way
 * round (a void answers reason 16). A refund names the charge (refTransId) and its card's last 4 with the
 * expiry as XXXX, or its bank account's routing and account numbers as XXXX and their last 4 with the name
 * on it; another card or account is refused with reason 54, as is a charge voided, declined or returned.
 * The refunds of a charge never add up to more than it (reason 55). A second void of a transaction answers
 * approved with reason 310, already voided. A refund, like a charge, is a duplicate (reason 11) when its
 * invoice number and amount come again within the duplicate window. A refund is not tied to the customer
 * profile, so the customer's transaction list leaves it out; the merchant's unsettled list and the lists of
 * the settled batches show it.
 *
 * Paths other than the API's: /hang never answers, /unavailable answers 503 with an HTML page.
 */
export const authorizeNetStubCredentials = {
  apiLoginId: 'stub-login-id',
  transactionKey: 'stub-transaction-key',
};

export interface AuthorizeNetStubOptions {
  /**
   * Whether the merchant enabled the Transaction Details API (Account > Settings > Security Settings >
   * General Security Settings > Transaction Details API). Off, the reporting calls answer E00011.
   */
  transactionDetailsApi?: boolean;
}

/** Statuses a test may put a transaction in, as settlement, the fraud filters or an ACH return would. */
export type StubTransactionStatus =
  | 'capturedPendingSettlement'
  | 'settledSuccessfully'
  | 'FDSPendingReview'
  | 'voided'
  | 'returnedItem'
  | 'declined'
  | 'refundPendingSettlement'
  | 'refundSettledSuccessfully';

export interface AuthorizeNetStub {
  /** The API endpoint, like https://apitest.authorize.net/xml/v1/request.api. */
  url: string;
  /** Every request body received, parsed, in arrival order. */
  requests: unknown[];
  /** The JSON answered to each request (same index), or null when none was sent. */
  answers: unknown[];
  /** A fresh one-time nonce for one of the test nonces above, issued now (or `minutesAgo` before now). */
  issueNonce(testNonce: string, options?: { minutesAgo?: number }): string;
  /**
   * Moves a transaction to another status, as the processor would later; a settled status puts it in a
   * settled batch of its own.
   */
  setTransactionStatus(transId: string, status: StubTransactionStatus): void;
  /**
   * Runs the daily batch: every transaction not yet batched (except one held for review or authorised
   * only) joins a batch settled now; charges become settledSuccessfully, refunds refundSettledSuccessfully.
   * Returns the batch id.
   */
  settleBatch(): string;
  close(): Promise<void>;
}

interface StoredPaymentProfile {
  id: string;
  kind: 'card' | 'ach';
  last4: string;
  cardType: string | null;
  billTo: Record<string, unknown> | null;
}

interface StoredCustomer {
  id: string;
  merchantCustomerId: string;
  description: string;
  email: string;
  paymentProfiles: Map<string, StoredPaymentProfile>;
}

interface StoredTransaction {
  transId: string;
  transactionType: 'authCaptureTransaction' | 'refundTransaction';
  /** A refund's charge. */
  refTransId: string;
  /** The card or account it moved money on (a refund's is its charge's). */
  method: StoredPaymentProfile;
  /** The settled batch it belongs to, once the batch has run. */
  batchId: string | null;
  responseCode: '1' | '2';
  reasonCode: string;
  reasonText: string;
  authCode: string;
  amount: string;
  invoiceNumber: string;
  customerProfileId: string;
  paymentProfileId: string;
  status: string;
  submittedAt: number;
}

/** The XSD's element order, for the parts of each request the stub reads. */
interface ElementShape {
  order: readonly string[];
  children?: Record<string, ElementShape>;
}

const namespace = 'AnetApi/xml/v1/schema/AnetApiSchema.xsd';
const bom = '\uFEFF';
const apiPath = '/xml/v1/request.api';

const merchantAuthentication: ElementShape = {
  order: ['name', 'transactionKey', 'sessionToken', 'password', 'impersonationAuthentication', 'fingerPrint'],
};
const billTo: ElementShape = {
  order: [
    'firstName',
    'lastName',
    'company',
    'address',
    'city',
    'state',
    'zip',
    'country',
    'phoneNumber',
    'faxNumber',
    'email',
  ],
};
/** XSD maxLength of the customerAddressType elements the stub enforces. */
const billToLimits: Record<string, number> = {
  firstName: 50,
  lastName: 50,
  company: 50,
  address: 60,
  city: 40,
  state: 40,
  zip: 20,
  country: 60,
  email: 255,
};
const payment: ElementShape = {
  order: ['creditCard', 'bankAccount', 'trackData', 'encryptedTrackData', 'payPal', 'opaqueData'],
  children: {
    creditCard: { order: ['cardNumber', 'expirationDate', 'cardCode'] },
    bankAccount: {
      order: [
        'accountType',
        'routingNumber',
        'accountNumber',
        'nameOnAccount',
        'echeckType',
        'bankName',
        'checkNumber',
      ],
    },
    opaqueData: { order: ['dataDescriptor', 'dataValue', 'dataKey', 'expirationTimeStamp'] },
  },
};
/** The reporting lists' sorting and paging. */
const listing: Record<string, ElementShape> = {
  sorting: { order: ['orderBy', 'orderDescending'] },
  paging: { order: ['limit', 'offset'] },
};
const customerPaymentProfile: ElementShape = {
  order: ['customerType', 'billTo', 'payment', 'driversLicense', 'taxId', 'defaultPaymentProfile'],
  children: { billTo, payment },
};

const requestShapes: Record<string, ElementShape> = {
  createCustomerProfileRequest: {
    order: ['merchantAuthentication', 'clientId', 'refId', 'profile', 'validationMode'],
    children: {
      merchantAuthentication,
      profile: {
        order: ['merchantCustomerId', 'description', 'email', 'paymentProfiles', 'shipToList', 'profileType'],
        children: { paymentProfiles: customerPaymentProfile },
      },
    },
  },
  createCustomerPaymentProfileRequest: {
    order: [
      'merchantAuthentication',
      'clientId',
      'refId',
      'customerProfileId',
      'paymentProfile',
      'validationMode',
    ],
    children: { merchantAuthentication, paymentProfile: customerPaymentProfile },
  },
  getCustomerPaymentProfileRequest: {
    order: [
      'merchantAuthentication',
      'clientId',
      'refId',
      'customerProfileId',
      'customerPaymentProfileId',
      'unmaskExpirationDate',
      'includeIssuerInfo',
    ],
    children: { merchantAuthentication },
  },
  getCustomerProfileRequest: {
    order: [
      'merchantAuthentication',
      'clientId',
      'refId',
      'customerProfileId',
      'merchantCustomerId',
      'email',
      'unmaskExpirationDate',
      'includeIssuerInfo',
    ],
    children: { merchantAuthentication },
  },
  getTransactionDetailsRequest: {
    order: ['merchantAuthentication', 'clientId', 'refId', 'transId'],
    children: { merchantAuthentication },
  },
  getTransactionListForCustomerRequest: {
    order: [
      'merchantAuthentication',
      'clientId',
      'refId',
      'customerProfileId',
      'customerPaymentProfileId',
      'sorting',
      'paging',
    ],
    children: { merchantAuthentication, ...listing },
  },
  getUnsettledTransactionListRequest: {
    order: ['merchantAuthentication', 'clientId', 'refId', 'status', 'sorting', 'paging'],
    children: { merchantAuthentication, ...listing },
  },
  getSettledBatchListRequest: {
    order: [
      'merchantAuthentication',
      'clientId',
      'refId',
      'includeStatistics',
      'firstSettlementDate',
      'lastSettlementDate',
    ],
    children: { merchantAuthentication },
  },
  getTransactionListRequest: {
    order: ['merchantAuthentication', 'clientId', 'refId', 'batchId', 'sorting', 'paging'],
    children: { merchantAuthentication, ...listing },
  },
  createTransactionRequest: {
    order: ['merchantAuthentication', 'clientId', 'refId', 'transactionRequest'],
    children: {
      merchantAuthentication,
      transactionRequest: {
        order: [
          'transactionType',
          'amount',
          'currencyCode',
          'payment',
          'profile',
          'solution',
          'callId',
          'terminalNumber',
          'authCode',
          'refTransId',
          'splitTenderId',
          'order',
          'lineItems',
          'tax',
          'duty',
          'shipping',
          'taxExempt',
          'poNumber',
          'customer',
          'billTo',
          'shipTo',
          'customerIP',
          'cardholderAuthentication',
          'retail',
          'employeeId',
          'transactionSettings',
          'userFields',
        ],
        children: {
          payment,
          billTo,
          profile: {
            order: ['createProfile', 'customerProfileId', 'paymentProfile', 'shippingProfileId'],
            children: { paymentProfile: { order: ['paymentProfileId', 'cardCode'] } },
          },
          order: {
            order: ['invoiceNumber', 'description', 'discountAmount', 'taxIsAfterDiscount'],
          },
          transactionSettings: { order: ['setting'] },
        },
      },
    },
  },
};

const cardTypeByNonce: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  amex: 'AmericanExpress',
  discover: 'Discover',
};

type Answer = Record<string, unknown>;

const successful = { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] };

function failed(code: string, text: string): { messages: unknown } {
  return { messages: { resultCode: 'Error', message: [{ code, text }] } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The first element out of place, worded like the schema validator's E00003 message. */
function orderViolation(element: string, value: unknown, shape: ElementShape): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const violation = orderViolation(element, item, shape);
      if (violation) return violation;
    }
    return null;
  }
  if (!isRecord(value)) return null;
  let position = 0;
  for (const key of Object.keys(value)) {
    const found = shape.order.indexOf(key, position);
    if (found === -1) {
      const expected = shape.order.slice(position).join(', ');
      return (
        `The element '${element}' in namespace '${namespace}' has invalid child element '${key}' in namespace ` +
        `'${namespace}'. List of possible elements expected: '${expected}' in namespace '${namespace}'.`
      );
    }
    position = found + 1;
    const child = shape.children?.[key];
    if (child) {
      const violation = orderViolation(key, value[key], child);
      if (violation) return violation;
    }
  }
  return null;
}

/** The legacy comma-separated AIM response that profile validation still returns. */
function directResponse(fields: {
  responseCode: string;
  reasonCode: string;
  reasonText: string;
  transId: string;
  method: StoredPaymentProfile | null;
}): string {
  const values = new Array<string>(69).fill('');
  values[0] = fields.responseCode;
  values[1] = '1';
  values[2] = fields.reasonCode;
  values[3] = fields.reasonText;
  values[6] = fields.transId;
  values[9] = '0.00';
  values[10] = fields.method?.kind === 'ach' ? 'ECHECK' : 'CC';
  values[11] = 'auth_only';
  values[50] = fields.method ? `XXXX${fields.method.last4}` : '';
  values[51] = fields.method?.cardType ?? '';
  return values.join(',');
}

/** What the stub's bank account (nonce-bank-NNNN) has besides its number: the routing number's last 4, the name. */
const bankRoutingLast4 = '0025';
const bankNameOnAccount = 'Account Holder';

/** How long an Accept.js nonce can be used after it was issued. */
const nonceLifetimeMs = 15 * 60_000;
const invalidToken = () => failed('E00114', 'Invalid OTS Token.');
const missingAddress = {
  responseCode: '3',
  reasonCode: '290',
  reasonText: 'There is one or more missing or invalid required fields.',
};

/** Statuses in which the money was taken (or is being settled), for settleAmount and the duplicate answer. */
const chargedStatuses = new Set(['capturedPendingSettlement', 'settledSuccessfully', 'returnedItem']);
/** Statuses in which a refund gives the money back. */
const refundedStatuses = new Set(['refundPendingSettlement', 'refundSettledSuccessfully']);
/** Still in the open batch, so a void cancels it. */
const voidableStatuses = new Set([
  'capturedPendingSettlement',
  'refundPendingSettlement',
  'FDSPendingReview',
  'FDSAuthorizedPendingReview',
  'authorizedPendingCapture',
]);
/** Left out of the daily batch until someone decides about them. */
const heldStatuses = new Set(['FDSPendingReview', 'FDSAuthorizedPendingReview', 'authorizedPendingCapture']);

/** An amount of dollars as whole cents, to compare sums without floating point. */
function cents(amount: string): number {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** The E00003 text of an element shorter than the XSD's minLength. */
function tooShort(element: string, value: string): Answer {
  return failed(
    'E00003',
    `The '${namespace}:${element}' element is invalid - The value '${value}' is invalid according to its ` +
      "datatype 'String' - The actual length is less than the MinLength value.",
  );
}

/** The E00003 text of an element longer than the XSD's maxLength. */
function tooLong(element: string, value: string): Answer {
  return failed(
    'E00003',
    `The '${namespace}:${element}' element is invalid - The value '${value}' is invalid according to its ` +
      "datatype 'String' - The actual length is greater than the MaxLength value.",
  );
}

export async function startAuthorizeNetStub(
  options: AuthorizeNetStubOptions = {},
): Promise<AuthorizeNetStub> {
  const transactionDetailsApi = options.transactionDetailsApi ?? true;
  const requests: unknown[] = [];
  const answers: unknown[] = [];
  const customers = new Map<string, StoredCustomer>();
  const transactions = new Map<string, StoredTransaction>();
  /** When each nonce was issued; a nonce is spent (deleted from here and added to `spent`) by its first use. */
  const issuedNonces = new Map<string, number>();
  const spentNonces = new Set<string>();
  let nextNonce = 1;
  /** Last transaction per duplicate-check identity, for the duplicate window. */
  const recentCharges = new Map<string, StoredTransaction>();
  let nextCustomerId = 500_000_001;
  let nextPaymentProfileId = 700_000_001;
  let nextTransId = 60_000_000_001;
  /** Settled batches, oldest first. */
  const batches: Array<{ batchId: string; settledAt: number }> = [];
  let nextBatchId = 9_000_001;

  function authCode(): string {
    return Math.random().toString(36).slice(2, 8).toUpperCase().padEnd(6, '0');
  }

  /**
   * Spends the nonce a request carries, as the OTS service does whatever the request's outcome: a second
   * use, or a use after 15 minutes, is refused with E00114.
   */
  function spendNonce(paymentProfile: unknown): Answer | null {
    const profile = isRecord(paymentProfile) ? paymentProfile : {};
    const opaqueData = isRecord(profile.payment) ? profile.payment.opaqueData : undefined;
    if (!isRecord(opaqueData)) return null;
    const nonce = text(opaqueData.dataValue);
    if (spentNonces.has(nonce)) return invalidToken();
    spentNonces.add(nonce);
    const issuedAt = issuedNonces.get(nonce);
    issuedNonces.delete(nonce);
    if (issuedAt !== undefined && Date.now() - issuedAt > nonceLifetimeMs) return invalidToken();
    return null;
  }

  /** The first billTo element longer than the XSD allows, as E00003. */
  function billToTooLong(paymentProfile: unknown): Answer | null {
    const billing = isRecord(paymentProfile) && isRecord(paymentProfile.billTo) ? paymentProfile.billTo : {};
    for (const [element, limit] of Object.entries(billToLimits)) {
      const value = text(billing[element]);
      if (value.length > limit) return tooLong(element, value);
    }
    return null;
  }

  /** What the Accept.js nonce stood for, or the error the real service would give for it. */
  function readPayment(
    paymentProfile: unknown,
    validationMode: string,
  ):
    | { method: Omit<StoredPaymentProfile, 'id'> }
    | { error: Answer }
    | { validationFailure: { responseCode: string; reasonCode: string; reasonText: string } } {
    const profile = isRecord(paymentProfile) ? paymentProfile : {};
    const opaqueData = isRecord(profile.payment) ? profile.payment.opaqueData : undefined;
    const descriptor = isRecord(opaqueData) ? text(opaqueData.dataDescriptor) : '';
    const nonce = isRecord(opaqueData) ? text(opaqueData.dataValue) : '';
    const billing = isRecord(profile.billTo) ? profile.billTo : null;
    if (descriptor !== 'COMMON.ACCEPT.INAPP.PAYMENT') return { error: invalidToken() };
    const tooLongAnswer = billToTooLong(profile);
    if (tooLongAnswer) return { error: tooLongAnswer };
    const testNonce = nonce.replace(/^(nonce-(?:decline|expired))-\d+$/, '$1');
    const card = /^nonce-(visa|mastercard|amex|discover)-(\d{4})(?:-\d+)?$/.exec(nonce);
    if (card?.[1] && card[2]) {
      const cardType = cardTypeByNonce[card[1]] ?? null;
      // Address verification: a Visa validated with a real authorisation needs the whole billing address.
      const addressComplete = ['address', 'city', 'state', 'zip'].every(
        (field) => text(billing?.[field]) !== '',
      );
      if (cardType === 'Visa' && validationMode === 'liveMode' && !addressComplete) {
        return { validationFailure: missingAddress };
      }
      return { method: { kind: 'card', last4: card[2], cardType, billTo: billing } };
    }
    const bank = /^nonce-bank-(\d{4})(?:-\d+)?$/.exec(nonce);
    if (bank?.[1]) return { method: { kind: 'ach', last4: bank[1], cardType: null, billTo: billing } };
    if (testNonce === 'nonce-decline' && validationMode === 'liveMode') {
      return {
        validationFailure: {
          responseCode: '2',
          reasonCode: '2',
          reasonText: 'This transaction has been declined.',
        },
      };
    }
    if (testNonce === 'nonce-expired' && validationMode !== 'none') {
      return {
        validationFailure: { responseCode: '3', reasonCode: '8', reasonText: 'The credit card has expired.' },
      };
    }
    if (testNonce === 'nonce-decline' || testNonce === 'nonce-expired') {
      return { method: { kind: 'card', last4: '0002', cardType: 'Visa', billTo: billing } };
    }
    return { error: invalidToken() };
  }

  function validationDeclined(
    failure: { responseCode: string; reasonCode: string; reasonText: string },
    listKey: 'validationDirectResponseList' | 'validationDirectResponse',
  ): Answer {
    const response = directResponse({ ...failure, transId: String(nextTransId++), method: null });
    return {
      [listKey]: listKey === 'validationDirectResponseList' ? [response] : response,
      ...failed('E00027', failure.reasonText),
    };
  }

  function approvedValidation(method: StoredPaymentProfile): string {
    return directResponse({
      responseCode: '1',
      reasonCode: '1',
      reasonText: 'This transaction has been approved.',
      transId: String(nextTransId++),
      method,
    });
  }

  function storeMethod(
    customer: StoredCustomer,
    method: Omit<StoredPaymentProfile, 'id'>,
  ): StoredPaymentProfile {
    const stored = { ...method, id: String(nextPaymentProfileId++) };
    customer.paymentProfiles.set(stored.id, stored);
    return stored;
  }

  function createCustomerProfile(request: Record<string, unknown>): Answer {
    const profile = isRecord(request.profile) ? request.profile : {};
    const merchantCustomerId = text(profile.merchantCustomerId);
    const description = text(profile.description);
    const email = text(profile.email);
    if (merchantCustomerId.length > 20) return tooLong('merchantCustomerId', merchantCustomerId);
    if (!merchantCustomerId && !description && !email) {
      return failed('E00041', 'One or more fields in the profile must contain a value.');
    }
    const spent = profile.paymentProfiles === undefined ? null : spendNonce(profile.paymentProfiles);
    if (spent) return spent;
    // The duplicate rule of the real service: all three of merchantCustomerId, description and email equal.
    const existing = [...customers.values()].find(
      (customer) =>
        customer.merchantCustomerId === merchantCustomerId &&
        customer.description === description &&
        customer.email === email,
    );
    if (existing) {
      return {
        customerPaymentProfileIdList: [],
        customerShippingAddressIdList: [],
        validationDirectResponseList: [],
        ...failed('E00039', `A duplicate record with ID ${existing.id} already exists.`),
      };
    }
    const validationMode = text(request.validationMode) || 'none';
    let method: Omit<StoredPaymentProfile, 'id'> | null = null;
    if (profile.paymentProfiles !== undefined) {
      const read = readPayment(profile.paymentProfiles, validationMode);
      if ('error' in read) return read.error;
      if ('validationFailure' in read)
        return validationDeclined(read.validationFailure, 'validationDirectResponseList');
      method = read.method;
    }
    const customer: StoredCustomer = {
      id: String(nextCustomerId++),
      merchantCustomerId,
      description,
      email,
      paymentProfiles: new Map(),
    };
    customers.set(customer.id, customer);
    const stored = method ? storeMethod(customer, method) : null;
    return {
      customerProfileId: customer.id,
      customerPaymentProfileIdList: stored ? [stored.id] : [],
      customerShippingAddressIdList: [],
      validationDirectResponseList: stored && validationMode !== 'none' ? [approvedValidation(stored)] : [],
      messages: successful,
    };
  }

  function createCustomerPaymentProfile(request: Record<string, unknown>): Answer {
    const customer = customers.get(text(request.customerProfileId));
    if (!customer) return failed('E00040', 'The record cannot be found.');
    const spent = spendNonce(request.paymentProfile);
    if (spent) return spent;
    const validationMode = text(request.validationMode) || 'none';
    const read = readPayment(request.paymentProfile, validationMode);
    if ('error' in read) return read.error;
    if ('validationFailure' in read)
      return validationDeclined(read.validationFailure, 'validationDirectResponse');
    const method = read.method;
    const duplicate = [...customer.paymentProfiles.values()].find(
      (stored) =>
        stored.kind === method.kind &&
        stored.last4 === method.last4 &&
        stored.cardType === method.cardType &&
        text(stored.billTo?.zip) === text(method.billTo?.zip),
    );
    if (duplicate) {
      return {
        customerProfileId: customer.id,
        customerPaymentProfileId: duplicate.id,
        ...failed('E00039', 'A duplicate customer payment profile already exists.'),
      };
    }
    const stored = storeMethod(customer, method);
    return {
      customerProfileId: customer.id,
      customerPaymentProfileId: stored.id,
      ...(validationMode === 'none' ? {} : { validationDirectResponse: approvedValidation(stored) }),
      messages: successful,
    };
  }

  function maskedPaymentProfile(customer: StoredCustomer, stored: StoredPaymentProfile): Answer {
    const paymentAnswer =
      stored.kind === 'card'
        ? {
            creditCard: {
              cardNumber: `XXXX${stored.last4}`,
              expirationDate: 'XXXX',
              cardType: stored.cardType,
            },
          }
        : {
            bankAccount: {
              accountType: 'checking',
              routingNumber: `XXXX${bankRoutingLast4}`,
              accountNumber: `XXXX${stored.last4}`,
              nameOnAccount: bankNameOnAccount,
              echeckType: 'WEB',
            },
          };
    return {
      ...(stored.billTo ? { billTo: stored.billTo } : {}),
      customerProfileId: customer.id,
      customerPaymentProfileId: stored.id,
      payment: paymentAnswer,
    };
  }

  function getCustomerPaymentProfile(request: Record<string, unknown>): Answer {
    const customer = customers.get(text(request.customerProfileId));
    const stored = customer?.paymentProfiles.get(text(request.customerPaymentProfileId));
    if (!customer || !stored) return failed('E00040', 'The record cannot be found.');
    return { paymentProfile: maskedPaymentProfile(customer, stored), messages: successful };
  }

  /** By customerProfileId, or by merchantCustomerId (and email, when given): the oldest such profile. */
  function getCustomerProfile(request: Record<string, unknown>): Answer {
    const byId = text(request.customerProfileId);
    const merchantCustomerId = text(request.merchantCustomerId);
    const email = text(request.email);
    const customer = byId
      ? customers.get(byId)
      : [...customers.values()].find(
          (candidate) =>
            merchantCustomerId !== '' &&
            candidate.merchantCustomerId === merchantCustomerId &&
            (email === '' || candidate.email === email),
        );
    if (!customer) return failed('E00040', 'The record cannot be found.');
    return {
      profile: {
        paymentProfiles: [...customer.paymentProfiles.values()].map((stored) =>
          maskedPaymentProfile(customer, stored),
        ),
        merchantCustomerId: customer.merchantCustomerId,
        description: customer.description,
        email: customer.email,
        customerProfileId: customer.id,
      },
      messages: successful,
    };
  }

  function duplicateWindowMs(settings: unknown): number {
    const list = isRecord(settings) ? settings.setting : undefined;
    const entries = Array.isArray(list) ? list : [list];
    for (const entry of entries) {
      if (isRecord(entry) && entry.settingName === 'duplicateWindow')
        return Number(text(entry.settingValue)) * 1000;
    }
    return 120_000;
  }

  function createTransaction(request: Record<string, unknown>): Answer {
    const transaction = isRecord(request.transactionRequest) ? request.transactionRequest : {};
    const refId = text(request.refId);
    const echo = refId ? { refId } : {};
    if (transaction.transactionType === 'voidTransaction') return voidTransaction(transaction, echo);
    if (
      transaction.transactionType !== 'authCaptureTransaction' &&
      transaction.transactionType !== 'refundTransaction'
    ) {
      return {
        ...echo,
        ...failed(
          'E00003',
          'The stub only knows authCaptureTransaction, refundTransaction and voidTransaction.',
        ),
      };
    }
    const amount = text(transaction.amount);
    if (!/^\d+(\.\d{1,2})?$/.test(amount)) {
      return {
        ...echo,
        ...failed(
          'E00003',
          `The '${namespace}:amount' element is invalid - The value '${amount}' is invalid.`,
        ),
      };
    }
    if (transaction.transactionType === 'refundTransaction')
      return refundTransaction(transaction, amount, echo);
    const profile = isRecord(transaction.profile) ? transaction.profile : {};
    const customerProfileId = text(profile.customerProfileId);
    const paymentProfileId = isRecord(profile.paymentProfile)
      ? text(profile.paymentProfile.paymentProfileId)
      : '';
    const method = customers.get(customerProfileId)?.paymentProfiles.get(paymentProfileId);
    if (!method) return { ...echo, ...failed('E00040', 'The record cannot be found.') };
    const invoiceNumber = isRecord(transaction.order) ? text(transaction.order.invoiceNumber) : '';
    if (invoiceNumber.length > 20) return { ...echo, ...tooLong('invoiceNumber', invoiceNumber) };
    const accountFields = {
      accountNumber: `XXXX${method.last4}`,
      accountType: method.kind === 'ach' ? 'eCheck' : (method.cardType ?? ''),
    };

    const identity = [invoiceNumber, amount, customerProfileId, paymentProfileId].join('|');
    const previous = recentCharges.get(identity);
    if (previous && Date.now() - previous.submittedAt < duplicateWindowMs(transaction.transactionSettings)) {
      return {
        transactionResponse: {
          responseCode: '3',
          authCode: previous.authCode,
          avsResultCode: 'P',
          cvvResultCode: '',
          cavvResultCode: '',
          transId: previous.transId,
          refTransID: '',
          transHash: '',
          testRequest: '0',
          ...accountFields,
          errors: [{ errorCode: '11', errorText: 'A duplicate transaction has been submitted.' }],
        },
        ...echo,
        ...failed('E00027', 'The transaction was unsuccessful.'),
      };
    }

    const declined = method.billTo?.zip === '46282' || (method.kind === 'ach' && Number(amount) > 100);
    const stored: StoredTransaction = {
      transId: String(nextTransId++),
      transactionType: 'authCaptureTransaction',
      refTransId: '',
      method,
      batchId: null,
      responseCode: declined ? '2' : '1',
      reasonCode: declined ? '2' : '1',
      reasonText: declined ? 'This transaction has been declined.' : 'This transaction has been approved.',
      authCode: declined ? '000000' : authCode(),
      amount,
      invoiceNumber,
      customerProfileId,
      paymentProfileId,
      status: declined ? 'declined' : 'capturedPendingSettlement',
      submittedAt: Date.now(),
    };
    transactions.set(stored.transId, stored);
    recentCharges.set(identity, stored);
    const outcome = declined
      ? { errors: [{ errorCode: stored.reasonCode, errorText: stored.reasonText }] }
      : { messages: [{ code: stored.reasonCode, description: stored.reasonText }] };
    return {
      transactionResponse: {
        responseCode: stored.responseCode,
        authCode: stored.authCode,
        avsResultCode: 'Y',
        cvvResultCode: 'P',
        cavvResultCode: '2',
        transId: stored.transId,
        refTransID: '',
        transHash: '',
        testRequest: '0',
        ...accountFields,
        ...outcome,
      },
      ...echo,
      messages: declined
        ? { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] }
        : successful,
    };
  }

  /** A transaction answered with response code 3: nothing recorded, transId 0. */
  function transactionError(
    echo: Answer,
    reason: { code: string; text: string },
    fields: { transId?: string; refTransId?: string; method?: StoredPaymentProfile } = {},
  ): Answer {
    return {
      transactionResponse: {
        responseCode: '3',
        authCode: '',
        avsResultCode: 'P',
        cvvResultCode: '',
        cavvResultCode: '',
        transId: fields.transId ?? '0',
        refTransID: fields.refTransId ?? '',
        transHash: '',
        testRequest: '0',
        ...(fields.method ? accountFieldsOf(fields.method) : { accountNumber: '', accountType: '' }),
        errors: [{ errorCode: reason.code, errorText: reason.text }],
      },
      ...echo,
      ...failed('E00027', 'The transaction was unsuccessful.'),
    };
  }

  function accountFieldsOf(method: StoredPaymentProfile): Answer {
    return {
      accountNumber: `XXXX${method.last4}`,
      accountType: method.kind === 'ach' ? 'eCheck' : (method.cardType ?? ''),
    };
  }

  const notCreditable = {
    code: '54',
    text: 'The referenced transaction does not meet the criteria for issuing a credit.',
  };

  /**
   * What the refund's payment names, checked as the XSD does (lengths) and then against its charge: the
   * last 4 of the card (expiry XXXX), or of the bank account and routing number with the name on it.
   */
  function refundPayment(
    transaction: Record<string, unknown>,
  ): { error: Answer } | { kind: 'card' | 'ach'; last4: string; routingLast4?: string } | null {
    const paymentField = isRecord(transaction.payment) ? transaction.payment : {};
    if (isRecord(paymentField.creditCard)) {
      const cardNumber = text(paymentField.creditCard.cardNumber);
      const expirationDate = text(paymentField.creditCard.expirationDate);
      if (cardNumber.length < 4) return { error: tooShort('cardNumber', cardNumber) };
      if (cardNumber.length > 16) return { error: tooLong('cardNumber', cardNumber) };
      if (expirationDate.length < 4) return { error: tooShort('expirationDate', expirationDate) };
      if (expirationDate.length > 7) return { error: tooLong('expirationDate', expirationDate) };
      const last4 = /^(?:XXXX|\d*)(\d{4})$/.exec(cardNumber)?.[1];
      return last4 === undefined ? null : { kind: 'card', last4 };
    }
    if (isRecord(paymentField.bankAccount)) {
      const bank = paymentField.bankAccount;
      const routingNumber = text(bank.routingNumber);
      const accountNumber = text(bank.accountNumber);
      const nameOnAccount = text(bank.nameOnAccount);
      if (routingNumber.length < 8) return { error: tooShort('routingNumber', routingNumber) };
      if (routingNumber.length > 9) return { error: tooLong('routingNumber', routingNumber) };
      if (accountNumber.length < 5) return { error: tooShort('accountNumber', accountNumber) };
      if (accountNumber.length > 17) return { error: tooLong('accountNumber', accountNumber) };
      if (nameOnAccount === '') return { error: tooShort('nameOnAccount', nameOnAccount) };
      if (nameOnAccount.length > 22) return { error: tooLong('nameOnAccount', nameOnAccount) };
      const last4 = /^(?:XXXX|\d*)(\d{4})$/.exec(accountNumber)?.[1];
      const routingLast4 = /^(?:XXXX|\d*)(\d{4})$/.exec(routingNumber)?.[1];
      return last4 === undefined || routingLast4 === undefined ? null : { kind: 'ach', last4, routingLast4 };
    }
    return null;
  }

  /** The sum of the refunds of a charge that give money back, in cents. */
  function refundedCents(chargeId: string): number {
    let sum = 0;
    for (const stored of transactions.values()) {
      if (
        stored.transactionType === 'refundTransaction' &&
        stored.refTransId === chargeId &&
        refundedStatuses.has(stored.status)
      )
        sum += cents(stored.amount);
    }
    return sum;
  }

  function refundTransaction(transaction: Record<string, unknown>, amount: string, echo: Answer): Answer {
    const refTransId = text(transaction.refTransId);
    const invoiceNumber = isRecord(transaction.order) ? text(transaction.order.invoiceNumber) : '';
    if (invoiceNumber.length > 20) return { ...echo, ...tooLong('invoiceNumber', invoiceNumber) };
    const named = refundPayment(transaction);
    if (named && 'error' in named) return { ...echo, ...named.error };
    const original = transactions.get(refTransId);

    const identity = ['refund', invoiceNumber, amount, refTransId, named?.last4 ?? ''].join('|');
    const previous = recentCharges.get(identity);
    if (previous && Date.now() - previous.submittedAt < duplicateWindowMs(transaction.transactionSettings)) {
      return transactionError(
        echo,
        { code: '11', text: 'A duplicate transaction has been submitted.' },
        { transId: previous.transId, refTransId, method: previous.method },
      );
    }
    const method = original?.method;
    const sameAccount =
      method !== undefined &&
      named !== null &&
      named.kind === method.kind &&
      named.last4 === method.last4 &&
      (named.kind === 'card' || named.routingLast4 === bankRoutingLast4);
    if (
      original?.transactionType !== 'authCaptureTransaction' ||
      original.status !== 'settledSuccessfully' ||
      !sameAccount
    ) {
      return transactionError(echo, notCreditable, { refTransId, ...(method ? { method } : {}) });
    }
    if (refundedCents(original.transId) + cents(amount) > cents(original.amount)) {
      return transactionError(
        echo,
        {
          code: '55',
          text: 'The sum of credits against the referenced transaction would exceed original debit amount.',
        },
        { refTransId, method: original.method },
      );
    }
    // A refund is tied to its charge and its card or account, not to the customer profile.
    const stored: StoredTransaction = {
      transId: String(nextTransId++),
      transactionType: 'refundTransaction',
      refTransId,
      method: original.method,
      batchId: null,
      responseCode: '1',
      reasonCode: '1',
      reasonText: 'This transaction has been approved.',
      authCode: '',
      amount,
      invoiceNumber,
      customerProfileId: '',
      paymentProfileId: '',
      status: 'refundPendingSettlement',
      submittedAt: Date.now(),
    };
    transactions.set(stored.transId, stored);
    recentCharges.set(identity, stored);
    return {
      transactionResponse: {
        responseCode: '1',
        authCode: '',
        avsResultCode: 'P',
        cvvResultCode: '',
        cavvResultCode: '',
        transId: stored.transId,
        refTransID: refTransId,
        transHash: '',
        testRequest: '0',
        ...accountFieldsOf(stored.method),
        messages: [{ code: '1', description: 'This transaction has been approved.' }],
      },
      ...echo,
      messages: successful,
    };
  }

  /** Voids what is still in the open batch; a second void answers approved, reason 310. */
  function voidTransaction(transaction: Record<string, unknown>, echo: Answer): Answer {
    const refTransId = text(transaction.refTransId);
    const stored = transactions.get(refTransId);
    const notFound = { code: '16', text: 'The transaction cannot be found.' };
    if (!stored) return transactionError(echo, notFound, { refTransId });
    const approved = (code: string, description: string) => ({
      transactionResponse: {
        responseCode: '1',
        authCode: stored.authCode,
        avsResultCode: 'P',
        cvvResultCode: '',
        cavvResultCode: '',
        transId: stored.transId,
        refTransID: stored.transId,
        transHash: '',
        testRequest: '0',
        ...accountFieldsOf(stored.method),
        messages: [{ code, description }],
      },
      ...echo,
      messages: successful,
    });
    if (stored.status === 'voided') return approved('310', 'This transaction has already been voided.');
    if (stored.batchId !== null || !voidableStatuses.has(stored.status)) {
      return transactionError(echo, notFound, { refTransId, method: stored.method });
    }
    stored.status = 'voided';
    return approved('1', 'This transaction has been approved.');
  }

  const reportingDenied = () =>
    failed('E00011', 'Access denied. You do not have permissions to call the Transaction Details API.');

  function settleAmount(stored: StoredTransaction): number {
    return chargedStatuses.has(stored.status) || refundedStatuses.has(stored.status)
      ? Number(stored.amount)
      : 0;
  }

  /** The card or account as transaction details show it: masked, XXXX and the last 4. */
  function maskedPayment(method: StoredPaymentProfile): Answer {
    return method.kind === 'card'
      ? {
          creditCard: {
            cardNumber: `XXXX${method.last4}`,
            expirationDate: 'XXXX',
            cardType: method.cardType,
          },
        }
      : {
          bankAccount: {
            accountType: 'checking',
            routingNumber: `XXXX${bankRoutingLast4}`,
            accountNumber: `XXXX${method.last4}`,
            nameOnAccount: bankNameOnAccount,
            echeckType: 'WEB',
          },
        };
  }

  function batchOf(stored: StoredTransaction): Answer {
    const batch = batches.find((candidate) => candidate.batchId === stored.batchId);
    if (!batch) return {};
    return {
      batch: {
        batchId: batch.batchId,
        settlementTimeUTC: new Date(batch.settledAt).toISOString(),
        settlementState: 'settledSuccessfully',
      },
    };
  }

  function getTransactionDetails(request: Record<string, unknown>): Answer {
    if (!transactionDetailsApi) return reportingDenied();
    const stored = transactions.get(text(request.transId));
    if (!stored) return failed('E00040', 'The record cannot be found.');
    const returned = stored.status === 'returnedItem';
    return {
      transaction: {
        transId: stored.transId,
        ...(stored.refTransId ? { refTransId: stored.refTransId } : {}),
        submitTimeUTC: new Date(stored.submittedAt).toISOString(),
        transactionType: stored.transactionType,
        transactionStatus: stored.status,
        // A transaction the fraud filters hold was answered with response code 4.
        responseCode: stored.status === 'FDSPendingReview' ? 4 : Number(stored.responseCode),
        responseReasonCode: Number(stored.reasonCode),
        responseReasonDescription: stored.reasonText,
        authCode: stored.authCode,
        authAmount: Number(stored.amount),
        settleAmount: settleAmount(stored),
        ...batchOf(stored),
        order: { invoiceNumber: stored.invoiceNumber },
        payment: maskedPayment(stored.method),
        ...(returned
          ? {
              returnedItems: [
                {
                  id: stored.transId,
                  dateUTC: new Date().toISOString(),
                  code: 'R01',
                  description: 'Insufficient Funds',
                },
              ],
            }
          : {}),
        ...(stored.customerProfileId
          ? {
              profile: {
                customerProfileId: stored.customerProfileId,
                customerPaymentProfileId: stored.paymentProfileId,
              },
            }
          : {}),
      },
      messages: successful,
    };
  }

  /** Transactions sorted and paged as a reporting list asks (offset is the page number, from 1). */
  function listed(request: Record<string, unknown>, matching: StoredTransaction[]): Answer {
    const sorting = isRecord(request.sorting) ? request.sorting : {};
    const paging = isRecord(request.paging) ? request.paging : {};
    const limit = paging.limit === undefined ? 1000 : Number(text(paging.limit));
    const offset = paging.offset === undefined ? 1 : Number(text(paging.offset));
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      return failed(
        'E00003',
        `The '${namespace}:limit' element is invalid - The value '${limit}' is invalid.`,
      );
    }
    if (!Number.isInteger(offset) || offset < 1 || offset > 100_000) {
      return failed(
        'E00003',
        `The '${namespace}:offset' element is invalid - The value '${offset}' is invalid.`,
      );
    }
    const descending = sorting.orderDescending === true || sorting.orderDescending === 'true';
    // Ids grow with time here, so they break ties between transactions of the same millisecond.
    const sorted = [...matching].sort(
      (a, b) => a.submittedAt - b.submittedAt || Number(a.transId) - Number(b.transId),
    );
    if (descending) sorted.reverse();
    const page = sorted.slice((offset - 1) * limit, offset * limit);
    if (page.length === 0) {
      return { messages: { resultCode: 'Ok', message: [{ code: 'I00004', text: 'No records found.' }] } };
    }
    return {
      transactions: page.map((stored) => ({
        transId: stored.transId,
        submitTimeUTC: new Date(stored.submittedAt).toISOString(),
        submitTimeLocal: new Date(stored.submittedAt).toISOString().replace('Z', ''),
        transactionStatus: stored.status,
        invoiceNumber: stored.invoiceNumber,
        firstName: text(stored.method.billTo?.firstName),
        lastName: text(stored.method.billTo?.lastName),
        ...accountFieldsOf(stored.method),
        settleAmount: settleAmount(stored),
        marketType: 'eCommerce',
        product: 'Card Not Present',
        hasReturnedItems: stored.status === 'returnedItem',
        ...(stored.customerProfileId
          ? {
              profile: {
                customerProfileId: stored.customerProfileId,
                customerPaymentProfileId: stored.paymentProfileId,
              },
            }
          : {}),
      })),
      totalNumInResultSet: sorted.length,
      messages: successful,
    };
  }

  /** A customer's transactions: those made with its profile (a refund is not). */
  function getTransactionListForCustomer(request: Record<string, unknown>): Answer {
    if (!transactionDetailsApi) return reportingDenied();
    const customer = customers.get(text(request.customerProfileId));
    if (!customer) return failed('E00040', 'The record cannot be found.');
    const paymentProfileId = text(request.customerPaymentProfileId);
    return listed(
      request,
      [...transactions.values()].filter(
        (stored) =>
          stored.customerProfileId === customer.id &&
          (paymentProfileId === '' || stored.paymentProfileId === paymentProfileId),
      ),
    );
  }

  /** The merchant's transactions not yet in a settled batch. */
  function getUnsettledTransactionList(request: Record<string, unknown>): Answer {
    if (!transactionDetailsApi) return reportingDenied();
    return listed(
      request,
      [...transactions.values()].filter((stored) => stored.batchId === null),
    );
  }

  /** The batches settled between two instants (UTC), the last 24 hours when none are given. */
  function getSettledBatchList(request: Record<string, unknown>): Answer {
    if (!transactionDetailsApi) return reportingDenied();
    const last =
      request.lastSettlementDate === undefined ? Date.now() : Date.parse(text(request.lastSettlementDate));
    const first =
      request.firstSettlementDate === undefined
        ? last - 86_400_000
        : Date.parse(text(request.firstSettlementDate));
    for (const [element, value] of [
      ['firstSettlementDate', first],
      ['lastSettlementDate', last],
    ] as const) {
      if (Number.isNaN(value)) {
        return failed('E00003', `The '${namespace}:${element}' element is invalid - The value is invalid.`);
      }
    }
    const found = batches.filter((batch) => batch.settledAt >= first && batch.settledAt <= last);
    if (found.length === 0) {
      return { messages: { resultCode: 'Ok', message: [{ code: 'I00004', text: 'No records found.' }] } };
    }
    return {
      batchList: found.map((batch) => ({
        batchId: batch.batchId,
        settlementTimeUTC: new Date(batch.settledAt).toISOString(),
        settlementTimeLocal: new Date(batch.settledAt).toISOString().replace('Z', ''),
        settlementState: 'settledSuccessfully',
        paymentMethod: 'creditCard',
        marketType: 'eCommerce',
        product: 'Card Not Present',
      })),
      messages: successful,
    };
  }

  /** The transactions of one settled batch. */
  function getTransactionList(request: Record<string, unknown>): Answer {
    if (!transactionDetailsApi) return reportingDenied();
    const batchId = text(request.batchId);
    if (!batches.some((batch) => batch.batchId === batchId))
      return failed('E00040', 'The record cannot be found.');
    return listed(
      request,
      [...transactions.values()].filter((stored) => stored.batchId === batchId),
    );
  }

  /** Puts transactions in a new batch settled now, as the daily cut-off does. */
  function settle(members: StoredTransaction[]): string {
    const batch = { batchId: String(nextBatchId++), settledAt: Date.now() };
    batches.push(batch);
    for (const stored of members) {
      stored.batchId = batch.batchId;
      if (stored.status === 'capturedPendingSettlement') stored.status = 'settledSuccessfully';
      if (stored.status === 'refundPendingSettlement') stored.status = 'refundSettledSuccessfully';
    }
    return batch.batchId;
  }

  const operations: Record<string, (request: Record<string, unknown>) => Answer> = {
    createCustomerProfileRequest: createCustomerProfile,
    createCustomerPaymentProfileRequest: createCustomerPaymentProfile,
    getCustomerPaymentProfileRequest: getCustomerPaymentProfile,
    getCustomerProfileRequest: getCustomerProfile,
    getTransactionDetailsRequest: getTransactionDetails,
    getTransactionListForCustomerRequest: getTransactionListForCustomer,
    getUnsettledTransactionListRequest: getUnsettledTransactionList,
    getSettledBatchListRequest: getSettledBatchList,
    getTransactionListRequest: getTransactionList,
    createTransactionRequest: createTransaction,
  };

  function answerFor(body: unknown): Answer {
    if (!isRecord(body) || Object.keys(body).length !== 1) {
      return failed('E00003', 'Root element is missing.');
    }
    const [operation, request] = Object.entries(body)[0] as [string, unknown];
    const handler = operations[operation];
    const shape = requestShapes[operation];
    if (!handler || !shape) {
      return failed('E00004', 'The name of the requested API method is invalid.');
    }
    const violation = orderViolation(operation, request, shape);
    if (violation) return failed('E00003', violation);
    const fields = isRecord(request) ? request : {};
    const auth = isRecord(fields.merchantAuthentication) ? fields.merchantAuthentication : {};
    if (
      auth.name !== authorizeNetStubCredentials.apiLoginId ||
      auth.transactionKey !== authorizeNetStubCredentials.transactionKey
    ) {
      return failed('E00007', 'User authentication failed due to invalid authentication values.');
    }
    return handler(fields);
  }

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    let body: unknown = null;
    try {
      body = JSON.parse(raw.replace(/^\uFEFF/, ''));
    } catch {
      body = raw;
    }
    requests.push(body);
    const index = answers.push(null) - 1;
    const path = new URL(request.url ?? '/', 'http://stub').pathname;
    if (path === '/hang') return;
    if (path === '/unavailable') {
      response
        .writeHead(503, { 'content-type': 'text/html' })
        .end('<html><body>Service Unavailable</body></html>');
      return;
    }
    if (path !== apiPath || request.method !== 'POST') {
      response.writeHead(404).end();
      return;
    }
    const answer =
      typeof body === 'string' ? failed('E00003', 'Data at the root level is invalid.') : answerFor(body);
    answers[index] = answer;
    response
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      .end(bom + JSON.stringify(answer));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${apiPath}`,
    requests,
    answers,
    issueNonce(testNonce, { minutesAgo = 0 } = {}) {
      const nonce = `${testNonce}-${nextNonce++}`;
      issuedNonces.set(nonce, Date.now() - minutesAgo * 60_000);
      return nonce;
    },
    setTransactionStatus(transId, status) {
      const stored = transactions.get(transId);
      if (!stored) throw new Error(`The stub has no transaction ${transId}`);
      stored.status = status;
      const settled = ['settledSuccessfully', 'refundSettledSuccessfully', 'returnedItem'].includes(status);
      if (settled && stored.batchId === null) settle([stored]);
    },
    settleBatch() {
      return settle(
        [...transactions.values()].filter(
          (stored) => stored.batchId === null && !heldStatuses.has(stored.status),
        ),
      );
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Requests parked on /hang would otherwise keep the server open forever.
        server.closeAllConnections();
      });
    },
  };
}
