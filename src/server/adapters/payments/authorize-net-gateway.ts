import { z } from 'zod';
import { type Clock, systemClock } from '../../lib/clock';
import {
  type BillTo,
  type ChargeLookup,
  type ChargeLookupRequest,
  type ChargeResult,
  type DeclineReason,
  declineMessages,
  type GatewayFailure,
  type PaymentGateway,
  type RefundLookup,
  type RefundLookupRequest,
  type RefundRefusal,
  type RefundRequest,
  type RefundResult,
  refundMessages,
  type SavedMethod,
  type SaveMethodRequest,
  type SaveMethodResult,
  type VoidRefusal,
  type VoidRequest,
  type VoidResult,
} from './payment-gateway';

/**
 * Authorize.Net adapter: Customer Information Manager profiles for saved methods, createTransactionRequest
 * for charges, refunds and voids, the Transaction Details API to find a charge or a refund again, all
 * through the one JSON endpoint. The server only ever handles Accept.js opaque data and profile ids; the
 * masked numbers Authorize.Net returns are reduced to their last four digits here, and a refund sends no
 * more than those (a card's last 4 with the expiry as XXXX, a bank account's as XXXX and the last 4).
 *
 * Prerequisites on the merchant account: the Transaction Details API enabled (lookupCharge and lookupRefund
 * answer `unavailable` with that instruction otherwise, and a refund cannot read the charge it gives back),
 * and the card's billing address collected, because a Visa validated in liveMode without street, city,
 * state and zip is refused with reason 290.
 */
export interface AuthorizeNetGatewayOptions {
  apiLoginId: string;
  transactionKey: string;
  /** https://api.authorize.net/xml/v1/request.api, the apitest host for the sandbox, or a local stub. */
  endpoint: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Now, for the window of settled batches lookupRefund reads. */
  clock?: Clock;
}

const defaultTimeoutMs = 15_000;
/** The longest window Authorize.Net allows: a retry of the same charge within 8 hours is refused as a duplicate. */
const duplicateWindowSeconds = 28_800;
const duplicateReasonCode = '11';

/** Reason codes of the transaction response (and of the legacy direct response) that name a card problem. */
const reasonByCode: Record<string, DeclineReason> = {
  '2': 'generic_decline',
  '3': 'generic_decline',
  '4': 'lost_card',
  '6': 'invalid_number',
  '7': 'expired_card',
  '8': 'expired_card',
  '11': 'duplicate',
  '27': 'incorrect_zip',
  '44': 'incorrect_cvc',
  '45': 'incorrect_cvc',
  '65': 'incorrect_cvc',
  // "There is one or more missing or invalid required fields": for a card, the address verification needs
  // the billing street, city, state and zip, which the client can supply.
  '290': 'billing_address_required',
};

/**
 * Response code 3 means "error" to Authorize.Net, but for these reasons the error is in the card the client
 * typed (number, expiry, CVV, zip), so the client reads it as a decline they can fix with another card.
 */
const cardProblems = new Set<DeclineReason>([
  'invalid_number',
  'expired_card',
  'incorrect_cvc',
  'incorrect_zip',
  'billing_address_required',
]);

/**
 * Accept.js tokens are exchanged by the OTS (one-time secure token) service; these message codes say the
 * token was unknown, expired (15 minutes) or already spent (E00114), so the browser must tokenize again.
 */
const tokenErrorCodes = new Set(['E00114', 'E00115', 'E00116', 'E00117']);

/** The reporting calls answer this when the merchant has not enabled the Transaction Details API. */
const reportingDeniedCode = 'E00011';
const reportingDeniedMessage =
  'Authorize.Net refused the transaction lookup (E00011): enable the Transaction Details API in the ' +
  'Authorize.Net merchant interface: Account > Settings > Security Settings > General Security Settings > ' +
  'Transaction Details API.';

/** Our reference is Authorize.Net's invoice number, whose XSD limit is 20 characters. */
const maxReferenceLength = 20;
/** Transactions read per page, and the pages read, newest first: a lookup concerns a recent charge. */
const lookupPageSize = 100;
const lookupMaxPages = 3;
/** Matches confirmed one by one with getTransactionDetailsRequest, at most. */
const lookupMaxMatches = 5;

const brandByCardType: Record<string, string> = {
  Visa: 'Visa',
  MasterCard: 'Mastercard',
  AmericanExpress: 'American Express',
  Discover: 'Discover',
  JCB: 'JCB',
  DinersClub: 'Diners Club',
};

/** Statuses of a transaction that moved money; anything else (declined, voided, under review) did not. */
const chargedStatuses = new Set(['capturedPendingSettlement', 'settledSuccessfully']);
/** Held by the fraud filters or authorised without capture: the money may still be taken, or not. */
const inDoubtStatuses = new Set([
  'FDSPendingReview',
  'FDSAuthorizedPendingReview',
  'authorizedPendingCapture',
]);
/** An eCheck debit that settled and then came back from the bank. */
const returnedStatus = 'returnedItem';
/** Still in the open batch: voidable, and (for a charge) not yet refundable. */
const unsettledStatuses = new Set([
  'capturedPendingSettlement',
  'authorizedPendingCapture',
  'FDSPendingReview',
  'FDSAuthorizedPendingReview',
  'refundPendingSettlement',
]);
/** Settled with the batch: refundable (a charge), no longer voidable. */
const settledStatuses = new Set(['settledSuccessfully', 'refundSettledSuccessfully']);
/** bankAccountTypeEnum of the XSD. */
const bankAccountTypes = new Set(['checking', 'savings', 'businessChecking']);
/** A refund that gives the money back, before or after its batch settled. */
const refundedStatuses = new Set(['refundPendingSettlement', 'refundSettledSuccessfully']);

/**
 * Reason codes of a refused refund: 54, the charge does not meet the criteria for a credit (not settled,
 * voided, declined, another card, too old); 55, the credits would exceed the charge; 16, no such charge.
 */
const notCreditableCode = '54';
const creditsExceedChargeCode = '55';
const transactionNotFoundCode = '16';
/** How far back lookupRefund reads settled batches: the longest range getSettledBatchListRequest allows is 31 days. */
const refundLookupDays = 30;
/** Transactions read per page of the reporting lists (their maximum), and the pages read of one list. */
const reportPageSize = 1000;
const reportMaxPages = 3;

const idSchema = z.union([z.string(), z.number()]).transform(String);

const messagesSchema = z.object({
  resultCode: z.string(),
  // A single message has been seen serialised as an object rather than a one-element list.
  message: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.object({ code: z.string(), text: z.string().default('') })),
  ),
});

const answerSchema = z.object({ messages: messagesSchema });

const createProfileAnswerSchema = answerSchema.extend({
  customerProfileId: idSchema.optional(),
});

const readProfileAnswerSchema = answerSchema.extend({
  profile: z.object({ customerProfileId: idSchema }).optional(),
});

const createPaymentProfileAnswerSchema = answerSchema.extend({
  customerProfileId: idSchema.optional(),
  customerPaymentProfileId: idSchema.optional(),
  validationDirectResponse: z.string().optional(),
});

const readPaymentProfileAnswerSchema = answerSchema.extend({
  paymentProfile: z
    .object({
      payment: z.object({
        creditCard: z
          .object({
            cardNumber: z.string(),
            expirationDate: z.string().optional(),
            cardType: z.string().optional(),
          })
          .optional(),
        bankAccount: z.object({ accountNumber: z.string() }).optional(),
      }),
    })
    .optional(),
});

const transactionAnswerSchema = answerSchema.extend({
  transactionResponse: z
    .object({
      responseCode: idSchema.optional(),
      authCode: z.string().optional(),
      transId: idSchema.optional(),
      errors: z.array(z.object({ errorCode: idSchema, errorText: z.string().optional() })).optional(),
    })
    .optional(),
});

const amountSchema = z.union([z.string(), z.number()]).optional();

const transactionDetailsAnswerSchema = answerSchema.extend({
  transaction: z
    .object({
      transId: idSchema,
      refTransId: idSchema.optional(),
      transactionType: z.string().optional(),
      transactionStatus: z.string(),
      responseCode: idSchema,
      responseReasonCode: idSchema.optional(),
      authCode: z.string().optional(),
      authAmount: amountSchema,
      settleAmount: amountSchema,
      order: z.object({ invoiceNumber: z.string().optional() }).optional(),
      // Masked as Authorize.Net shows them: XXXX and the last four digits.
      payment: z
        .object({
          creditCard: z.object({ cardNumber: z.string() }).optional(),
          bankAccount: z
            .object({
              accountType: z.string().optional(),
              routingNumber: z.string(),
              accountNumber: z.string(),
              nameOnAccount: z.string().default(''),
            })
            .optional(),
        })
        .optional(),
      profile: z.object({ customerProfileId: idSchema.optional() }).optional(),
    })
    .optional(),
});
type TransactionDetails = NonNullable<z.infer<typeof transactionDetailsAnswerSchema>['transaction']>;

const batchListAnswerSchema = answerSchema.extend({
  batchList: z
    .preprocess(
      (value) => (value === undefined || Array.isArray(value) ? value : [value]),
      z.array(z.object({ batchId: idSchema, settlementTimeUTC: z.string().optional() })),
    )
    .optional(),
});

const transactionListAnswerSchema = answerSchema.extend({
  transactions: z
    .preprocess(
      (value) => (value === undefined || Array.isArray(value) ? value : [value]),
      z.array(z.object({ transId: idSchema, invoiceNumber: z.string().optional() })),
    )
    .optional(),
});

type ApiMessages = z.infer<typeof messagesSchema>;
type Failure = { outcome: 'declined' | 'error'; reason: DeclineReason; message: string };

type Exchange = { ok: true; answer: unknown } | { ok: false };

export function createAuthorizeNetGateway(options: AuthorizeNetGatewayOptions): PaymentGateway {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const clock = options.clock ?? systemClock;

  /**
   * One request to the API. merchantAuthentication goes first because the XSD checks element order;
   * the caller's keys follow in the order it wrote them.
   */
  async function exchange(operation: string, fields: Record<string, unknown>): Promise<Exchange> {
    const body = JSON.stringify({
      [operation]: {
        merchantAuthentication: { name: options.apiLoginId, transactionKey: options.transactionKey },
        ...fields,
      },
    });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetchImpl(options.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal: controller.signal,
      });
      // Authorize.Net answers 200 for declines and errors alike; anything else came from a proxy or an outage.
      if (response.status !== 200) {
        await response.body?.cancel();
        return { ok: false };
      }
      const text = await response.text();
      // Every answer starts with a UTF-8 BOM; undici's text() drops it, but not every fetch does.
      return { ok: true, answer: JSON.parse(text.replace(/^\uFEFF/, '')) };
    } catch {
      return { ok: false };
    } finally {
      clearTimeout(timer);
    }
  }

  async function call<T>(
    operation: string,
    fields: Record<string, unknown>,
    schema: z.ZodType<T>,
  ): Promise<T | undefined> {
    const result = await exchange(operation, fields);
    if (!result.ok) return undefined;
    const parsed = schema.safeParse(result.answer);
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * The client's customer profile, created without a payment profile so the one-time token is spent only
   * once, by createPaymentProfile. Authorize.Net answers E00039 with the existing profile's id when a profile
   * has the same merchantCustomerId, description and e-mail, so those three never vary for a client: the
   * description repeats the merchantCustomerId and no e-mail is set on the profile (the billing e-mail the
   * client typed goes with the card, in billTo). A save whose answer was lost therefore finds its profile.
   */
  async function findOrCreateCustomer(request: SaveMethodRequest): Promise<string | Failure> {
    const merchantCustomerId = request.merchantCustomerId.slice(0, 20);
    const answer = await call(
      'createCustomerProfileRequest',
      { profile: { merchantCustomerId, description: merchantCustomerId } },
      createProfileAnswerSchema,
    );
    if (answer === undefined) return unavailable();
    if (isOk(answer.messages) && answer.customerProfileId !== undefined) return answer.customerProfileId;
    if (firstCode(answer.messages) !== 'E00039') return apiError(answer.messages);
    const existing = /\bID (\d+)/.exec(firstText(answer.messages))?.[1];
    if (existing !== undefined) return existing;
    const found = await call('getCustomerProfileRequest', { merchantCustomerId }, readProfileAnswerSchema);
    if (found === undefined) return unavailable();
    if (!isOk(found.messages) || found.profile === undefined) return apiError(found.messages);
    return found.profile.customerProfileId;
  }

  async function createPaymentProfile(
    customerRef: string,
    paymentProfile: Record<string, unknown>,
  ): Promise<{ customerRef: string; paymentRef: string } | Failure> {
    const answer = await call(
      'createCustomerPaymentProfileRequest',
      { customerProfileId: customerRef, paymentProfile, validationMode: 'liveMode' },
      createPaymentProfileAnswerSchema,
    );
    if (answer === undefined) return unavailable();
    const paymentRef = answer.customerPaymentProfileId;
    // E00039 here means the same card is on file already; its id comes back, so the save is idempotent.
    const accepted = isOk(answer.messages) || firstCode(answer.messages) === 'E00039';
    if (accepted && paymentRef !== undefined) return { customerRef, paymentRef };
    return saveFailure(answer.messages, answer.validationDirectResponse);
  }

  async function readSavedMethod(customerRef: string, paymentRef: string): Promise<SaveMethodResult> {
    const answer = await call(
      'getCustomerPaymentProfileRequest',
      { customerProfileId: customerRef, customerPaymentProfileId: paymentRef },
      readPaymentProfileAnswerSchema,
    );
    if (answer === undefined) return unavailable();
    const payment = answer.paymentProfile?.payment;
    if (!isOk(answer.messages) || payment === undefined) return apiError(answer.messages);
    const card = payment.creditCard;
    const maskedNumber = card?.cardNumber ?? payment.bankAccount?.accountNumber ?? '';
    const last4 = /(\d{4})$/.exec(maskedNumber)?.[1];
    if (last4 === undefined) return failure('error', 'processing_error');
    // Without unmaskExpirationDate the answer says 'XXXX'; the caller keeps the expiry the browser showed.
    const expiry = /^(\d{4})-(\d{2})$/.exec(card?.expirationDate ?? '');
    const method: SavedMethod = {
      customerRef,
      paymentRef,
      kind: card === undefined ? 'ach' : 'card',
      brand: card?.cardType === undefined ? null : (brandByCardType[card.cardType] ?? card.cardType),
      last4,
      expiryYear: expiry ? Number(expiry[1]) : null,
      expiryMonth: expiry ? Number(expiry[2]) : null,
    };
    return { outcome: 'saved', method };
  }

  /**
   * A reason-11 answer carries the id of the first attempt, but that attempt may itself have been declined
   * (the duplicate check counts declines too), so its outcome is read back before calling the charge paid.
   */
  async function resolveDuplicate(originalId: string): Promise<ChargeResult> {
    const answer = await call(
      'getTransactionDetailsRequest',
      { transId: originalId },
      transactionDetailsAnswerSchema,
    );
    if (answer === undefined) return { ...unavailable(), transactionId: originalId };
    const original = answer.transaction;
    if (!isOk(answer.messages) || original === undefined) {
      return { ...apiError(answer.messages), transactionId: originalId };
    }
    if (original.responseCode === '1' && chargedStatuses.has(original.transactionStatus)) {
      return { outcome: 'approved', transactionId: original.transId, authCode: original.authCode || null };
    }
    if (original.responseCode === '2') {
      const reason = reasonByCode[original.responseReasonCode ?? ''] ?? 'generic_decline';
      return { ...failure('declined', reason), transactionId: original.transId };
    }
    return { ...failure('error', 'processing_error'), transactionId: original.transId };
  }

  /** What one transaction's details say of the money, for lookupCharge. */
  async function confirmTransaction(transId: string): Promise<ChargeLookup> {
    const answer = await call('getTransactionDetailsRequest', { transId }, transactionDetailsAnswerSchema);
    if (answer === undefined) return lookupUnavailable();
    const transaction = answer.transaction;
    if (!isOk(answer.messages) || transaction === undefined) return lookupRefused(answer.messages);
    const status = transaction.transactionStatus;
    if (chargedStatuses.has(status)) {
      const amountCents = centsOf(transaction.settleAmount) ?? centsOf(transaction.authAmount);
      if (amountCents === null) return lookupUnavailable();
      return { status: 'approved', transactionId: transaction.transId, amountCents };
    }
    if (status === returnedStatus) return { status: 'returned', transactionId: transaction.transId };
    if (inDoubtStatuses.has(status)) return { status: 'pending', transactionId: transaction.transId };
    // declined, voided, expired, communicationError, generalError, failedReview, settlementError, ...
    return { status: 'failed', transactionId: transaction.transId };
  }

  /** One transaction's details, or why they could not be read. */
  async function readTransaction(
    transId: string,
  ): Promise<
    { found: TransactionDetails } | { unknown: true } | { failed: GatewayFailure; message: string }
  > {
    const answer = await call('getTransactionDetailsRequest', { transId }, transactionDetailsAnswerSchema);
    if (answer === undefined)
      return { failed: 'gateway_unavailable', message: refundMessages.gateway_unavailable };
    if (isOk(answer.messages) && answer.transaction !== undefined) return { found: answer.transaction };
    if (firstCode(answer.messages) === 'E00040') return { unknown: true };
    return { failed: 'processing_error', message: lookupRefused(answer.messages).message };
  }

  /** A reason-11 answer to a refund: the first refund with this reference, read back. */
  async function resolveRefundDuplicate(originalId: string): Promise<RefundResult> {
    const read = await readTransaction(originalId);
    if ('failed' in read)
      return { outcome: 'error', reason: read.failed, message: read.message, transactionId: originalId };
    if ('unknown' in read) return refundError('processing_error', originalId);
    const original = read.found;
    if (refundedStatuses.has(original.transactionStatus))
      return { outcome: 'refunded', transactionId: original.transId };
    if (original.transactionStatus === 'voided') return refundRefused('duplicate');
    return refundError('processing_error', original.transId);
  }

  /** The reference's matches among a reporting list (unsettled, or one settled batch), newest first. */
  async function matchesIn(
    operation: 'getUnsettledTransactionListRequest' | 'getTransactionListRequest',
    fields: Record<string, unknown>,
    reference: string,
  ): Promise<string[] | { unavailable: LookupUnavailable }> {
    const matches: string[] = [];
    for (let page = 1; page <= reportMaxPages; page += 1) {
      const answer = await call(
        operation,
        {
          ...fields,
          sorting: { orderBy: 'submitTimeUTC', orderDescending: true },
          paging: { limit: reportPageSize, offset: page },
        },
        transactionListAnswerSchema,
      );
      if (answer === undefined) return { unavailable: lookupUnavailable() };
      if (!isOk(answer.messages)) return { unavailable: lookupRefused(answer.messages) };
      const listed = answer.transactions ?? [];
      for (const transaction of listed) {
        if (transaction.invoiceNumber === reference) matches.push(transaction.transId);
      }
      if (listed.length < reportPageSize) break;
    }
    return matches;
  }

  /** The ids of the batches settled in the last refundLookupDays, newest first. */
  async function recentBatches(): Promise<string[] | { unavailable: LookupUnavailable }> {
    const now = clock.now().getTime();
    // The dates have whole seconds: the last one rounds up, so a batch settled this second is in.
    const last = new Date(Math.ceil(now / 1000) * 1000);
    const first = new Date(last.getTime() - refundLookupDays * 86_400_000);
    const answer = await call(
      'getSettledBatchListRequest',
      { firstSettlementDate: utcSeconds(first), lastSettlementDate: utcSeconds(last) },
      batchListAnswerSchema,
    );
    if (answer === undefined) return { unavailable: lookupUnavailable() };
    if (!isOk(answer.messages)) return { unavailable: lookupRefused(answer.messages) };
    return [...(answer.batchList ?? [])]
      .sort((a, b) => (b.settlementTimeUTC ?? '').localeCompare(a.settlementTimeUTC ?? ''))
      .map((batch) => batch.batchId);
  }

  return {
    name: 'authorize-net',

    /**
     * Lists the customer's transactions newest first, a few pages at most, and confirms each one carrying
     * our reference as invoice number. A retry after a timeout can leave more than one (the duplicate window
     * refuses most): the outcome that took money wins, then one still in doubt, then a return, then failed.
     */
    async lookupCharge(request: ChargeLookupRequest): Promise<ChargeLookup> {
      checkReference(request.reference);
      const matches: string[] = [];
      for (let page = 1; page <= lookupMaxPages && matches.length < lookupMaxMatches; page += 1) {
        const answer = await call(
          'getTransactionListForCustomerRequest',
          {
            customerProfileId: request.customerRef,
            sorting: { orderBy: 'submitTimeUTC', orderDescending: true },
            paging: { limit: lookupPageSize, offset: page },
          },
          transactionListAnswerSchema,
        );
        if (answer === undefined) return lookupUnavailable();
        // E00040: the customer profile is unknown, so no charge of ours can be under it.
        if (firstCode(answer.messages) === 'E00040') return { status: 'not_found' };
        if (!isOk(answer.messages)) return lookupRefused(answer.messages);
        const listed = answer.transactions ?? [];
        for (const transaction of listed) {
          if (transaction.invoiceNumber === request.reference) matches.push(transaction.transId);
        }
        if (listed.length < lookupPageSize) break;
      }
      if (matches.length === 0) return { status: 'not_found' };
      const found: ChargeLookup[] = [];
      for (const transId of matches.slice(0, lookupMaxMatches)) {
        const confirmed = await confirmTransaction(transId);
        if (confirmed.status === 'unavailable') return confirmed;
        found.push(confirmed);
      }
      for (const status of ['approved', 'pending', 'returned', 'failed'] as const) {
        const first = found.find((lookup) => lookup.status === status);
        if (first) return first;
      }
      return { status: 'not_found' };
    },

    /**
     * Finds or creates the customer profile first (unless the caller knows it), then adds the payment
     * profile with the Accept.js token: the token is single-use, so it is sent in exactly one request.
     */
    async saveMethod(request) {
      const paymentProfile = {
        customerType: 'individual',
        ...(request.billTo ? { billTo: billToFields(request.billTo, request.email) } : {}),
        payment: { opaqueData: { dataDescriptor: request.token.descriptor, dataValue: request.token.value } },
      };
      let customerRef = request.customerRef;
      if (customerRef === null) {
        const found = await findOrCreateCustomer(request);
        if (typeof found !== 'string') return found;
        customerRef = found;
      }
      const added = await createPaymentProfile(customerRef, paymentProfile);
      if ('outcome' in added) return added;
      return readSavedMethod(customerRef, added.paymentRef);
    },

    async charge(request) {
      if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
        throw new RangeError(`A charge needs a positive whole number of cents, got ${request.amountCents}`);
      }
      checkReference(request.reference);
      const reference = request.reference;
      const answer = await call(
        'createTransactionRequest',
        {
          refId: reference,
          // Keys in the order of the XSD's transactionRequestType; out of order, the API refuses with E00003.
          transactionRequest: {
            transactionType: 'authCaptureTransaction',
            amount: dollars(request.amountCents),
            profile: {
              customerProfileId: request.customerRef,
              paymentProfile: { paymentProfileId: request.paymentRef },
            },
            ...orderAndWindow(reference, request.description),
          },
        },
        transactionAnswerSchema,
      );
      if (answer === undefined) return { ...unavailable(), transactionId: null };
      const transaction = answer.transactionResponse;
      if (transaction?.responseCode === undefined)
        return { ...apiError(answer.messages), transactionId: null };
      // '0' is what an account in test mode returns: nothing was charged, so there is nothing to record.
      const { transactionId, reasonCode } = transactionFacts(transaction);
      switch (transaction.responseCode) {
        case '1':
          if (transactionId === null) return { ...failure('error', 'processing_error'), transactionId };
          return { outcome: 'approved', transactionId, authCode: transaction.authCode || null };
        case '2':
          return { ...failure('declined', reasonByCode[reasonCode] ?? 'generic_decline'), transactionId };
        case '3': {
          if (reasonCode === duplicateReasonCode) {
            if (transactionId !== null) return resolveDuplicate(transactionId);
            return { ...failure('error', 'duplicate'), transactionId };
          }
          const reason = reasonByCode[reasonCode];
          if (reason !== undefined && cardProblems.has(reason))
            return { ...failure('declined', reason), transactionId };
          return { ...failure('error', 'processing_error'), transactionId };
        }
        default:
          // '4', held for review: the card was authorised but the merchant's fraud filter decides whether it is
          // captured, possibly days later. Reporting it approved could release an order that is never paid, so
          // it is an error that keeps the transaction id for the ledger to reconcile.
          return { ...failure('error', 'processing_error'), transactionId };
      }
    },

    /**
     * Reads the charge first: its masked payment is what the refund must name (Authorize.Net checks it
     * against the charge), and its status tells a refusal for "not settled yet" from one for "voided or
     * declined". The service decides: a refund is refused unless the charge has settled, and while the
     * credits against it would exceed it.
     */
    async refund(request: RefundRequest): Promise<RefundResult> {
      if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
        throw new RangeError(`A refund needs a positive whole number of cents, got ${request.amountCents}`);
      }
      checkReference(request.reference);
      const read = await readTransaction(request.chargeTransactionId);
      if ('failed' in read)
        return { outcome: 'error', reason: read.failed, message: read.message, transactionId: null };
      if ('unknown' in read) return refundRefused('not_refundable');
      const charge = read.found;
      const payment = refundPaymentOf(charge);
      if (
        charge.transactionType === 'refundTransaction' ||
        charge.profile?.customerProfileId !== request.customerRef ||
        payment === null
      ) {
        return refundRefused('not_refundable');
      }
      const answer = await call(
        'createTransactionRequest',
        {
          refId: request.reference,
          // Keys in the order of the XSD's transactionRequestType.
          transactionRequest: {
            transactionType: 'refundTransaction',
            amount: dollars(request.amountCents),
            payment,
            refTransId: request.chargeTransactionId,
            ...orderAndWindow(request.reference, request.description),
          },
        },
        transactionAnswerSchema,
      );
      if (answer === undefined) return refundError('gateway_unavailable', null);
      const transaction = answer.transactionResponse;
      if (transaction?.responseCode === undefined) return refundError('processing_error', null);
      const { transactionId, reasonCode } = transactionFacts(transaction);
      if (transaction.responseCode === '1') {
        return transactionId === null
          ? refundError('processing_error', null)
          : { outcome: 'refunded', transactionId };
      }
      if (transaction.responseCode === '2') return refundRefused('not_refundable');
      if (transaction.responseCode !== '3') return refundError('processing_error', transactionId);
      switch (reasonCode) {
        case duplicateReasonCode:
          return transactionId === null
            ? refundError('processing_error', null)
            : resolveRefundDuplicate(transactionId);
        case notCreditableCode:
          return refundRefused(
            unsettledStatuses.has(charge.transactionStatus) ? 'not_settled' : 'not_refundable',
          );
        case creditsExceedChargeCode:
          return refundRefused('exceeds_charge');
        case transactionNotFoundCode:
          return refundRefused('not_refundable');
        default:
          return refundError('processing_error', transactionId);
      }
    },

    /**
     * Voids a charge or a refund still in the open batch. Authorize.Net answers a second void of the same
     * transaction as approved (reason 310, already voided), so a void whose answer was lost is simply sent
     * again. Any other refusal is told apart by the transaction's status: settled (refund it instead), or
     * never voidable.
     */
    async void(request: VoidRequest): Promise<VoidResult> {
      const answer = await call(
        'createTransactionRequest',
        { transactionRequest: { transactionType: 'voidTransaction', refTransId: request.transactionId } },
        transactionAnswerSchema,
      );
      if (answer === undefined) return voidError('gateway_unavailable');
      const responseCode = answer.transactionResponse?.responseCode;
      if (responseCode === undefined) return voidError('processing_error');
      if (responseCode === '1') return { outcome: 'voided', transactionId: request.transactionId };
      const read = await readTransaction(request.transactionId);
      if ('failed' in read) return { outcome: 'error', reason: read.failed, message: read.message };
      if ('unknown' in read) return voidRefused('not_voidable');
      const status = read.found.transactionStatus;
      if (status === 'voided') return { outcome: 'voided', transactionId: request.transactionId };
      if (settledStatuses.has(status)) return voidRefused('settled');
      if (unsettledStatuses.has(status)) return voidError('processing_error');
      return voidRefused('not_voidable');
    },

    /**
     * A refund names the card or account, not the customer profile, so it is found in the merchant's
     * reporting lists rather than the customer's: first the unsettled transactions, then the batches
     * settled in the last 30 days, newest first. In that order a refund that settles meanwhile is still
     * found (it left the first list only for the second). Each transaction carrying our reference is
     * confirmed as a refund of this charge; one that gives money back wins over one voided or refused.
     */
    async lookupRefund(request: RefundLookupRequest): Promise<RefundLookup> {
      checkReference(request.reference);
      const unsettled = await matchesIn('getUnsettledTransactionListRequest', {}, request.reference);
      if (!Array.isArray(unsettled)) return unsettled.unavailable;
      const matches = [...unsettled];
      if (matches.length === 0) {
        const batches = await recentBatches();
        if (!Array.isArray(batches)) return batches.unavailable;
        for (const batchId of batches) {
          const found = await matchesIn('getTransactionListRequest', { batchId }, request.reference);
          if (!Array.isArray(found)) return found.unavailable;
          matches.push(...found);
          if (matches.length > 0) break;
        }
      }
      let failed: RefundLookup | null = null;
      for (const transId of matches.slice(0, lookupMaxMatches)) {
        const read = await readTransaction(transId);
        if ('failed' in read) return { status: 'unavailable', message: read.message };
        if ('unknown' in read) continue;
        const refund = read.found;
        if (
          refund.transactionType !== 'refundTransaction' ||
          refund.refTransId !== request.chargeTransactionId
        )
          continue;
        if (refundedStatuses.has(refund.transactionStatus)) {
          const amountCents = centsOf(refund.settleAmount) ?? centsOf(refund.authAmount);
          if (amountCents === null) return lookupUnavailable();
          return { status: 'refunded', transactionId: refund.transId, amountCents };
        }
        failed ??= { status: 'failed', transactionId: refund.transId };
      }
      return failed ?? { status: 'not_found' };
    },
  };
}

/**
 * The payment a refund must name, from the charge's masked one: a card's last four digits with the expiry
 * as XXXX; a bank account's routing and account numbers as XXXX and their last four, with the name on it.
 */
function refundPaymentOf(charge: TransactionDetails): Record<string, unknown> | null {
  const card = charge.payment?.creditCard;
  if (card) {
    const last4 = /(\d{4})$/.exec(card.cardNumber)?.[1];
    return last4 === undefined ? null : { creditCard: { cardNumber: last4, expirationDate: 'XXXX' } };
  }
  const bank = charge.payment?.bankAccount;
  if (!bank) return null;
  const accountLast4 = /(\d{4})$/.exec(bank.accountNumber)?.[1];
  const routingLast4 = /(\d{4})$/.exec(bank.routingNumber)?.[1];
  if (accountLast4 === undefined || routingLast4 === undefined) return null;
  // bankAccountType's order: accountType (one of the XSD's enumeration, or left out), routingNumber,
  // accountNumber, nameOnAccount.
  const accountType = bankAccountTypes.has(bank.accountType ?? '') ? bank.accountType : undefined;
  return {
    bankAccount: {
      ...(accountType ? { accountType } : {}),
      routingNumber: `XXXX${routingLast4}`,
      accountNumber: `XXXX${accountLast4}`,
      nameOnAccount: bank.nameOnAccount.slice(0, 22),
    },
  };
}

function refundRefused(reason: RefundRefusal): RefundResult {
  return { outcome: 'declined', reason, message: refundMessages[reason] };
}

function refundError(reason: GatewayFailure, transactionId: string | null): RefundResult {
  return { outcome: 'error', reason, message: refundMessages[reason], transactionId };
}

function voidRefused(reason: VoidRefusal): VoidResult {
  return { outcome: 'declined', reason, message: refundMessages[reason] };
}

function voidError(reason: GatewayFailure): VoidResult {
  return { outcome: 'error', reason, message: refundMessages[reason] };
}

/** An instant as the reporting calls take it: UTC to the second. */
function utcSeconds(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

function billToFields(billTo: BillTo, email: string): Record<string, string> {
  // Same order and maxLength as the XSD's customerAddressType: firstName, lastName, company, address, city,
  // state, zip, country, phoneNumber, faxNumber, email.
  const optional = (name: string, value: string | undefined, max: number) => {
    const trimmed = value?.trim() ?? '';
    return trimmed === '' ? {} : { [name]: trimmed.slice(0, max) };
  };
  return {
    firstName: billTo.firstName.slice(0, 50),
    lastName: billTo.lastName.slice(0, 50),
    ...optional('address', billTo.address, 60),
    ...optional('city', billTo.city, 40),
    ...optional('state', billTo.state, 40),
    ...optional('zip', billTo.zip, 20),
    ...optional('country', billTo.country, 60),
    ...optional('email', email, 255),
  };
}

/**
 * A reference the gateway would cut or refuse could never be found again by lookupCharge, so a longer one
 * is a programming error, not something to shorten quietly.
 */
function checkReference(reference: string): void {
  if (reference.length === 0 || reference.length > maxReferenceLength) {
    throw new RangeError(
      `A charge reference has 1 to ${maxReferenceLength} characters, got ${reference.length}`,
    );
  }
}

/** "339.81" or 339.81 as 33981 cents; null when it is no amount. */
function centsOf(amount: string | number | undefined): number | null {
  if (amount === undefined) return null;
  const text = typeof amount === 'number' ? amount.toFixed(2) : amount.trim();
  const parts = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!parts) return null;
  return Number(parts[1]) * 100 + Number((parts[2] ?? '').padEnd(2, '0'));
}

/** A lookup that could not be answered now: the same for charges and refunds. */
type LookupUnavailable = { status: 'unavailable'; message: string };

function lookupUnavailable(): LookupUnavailable {
  return { status: 'unavailable', message: declineMessages.gateway_unavailable };
}

function lookupRefused(messages: ApiMessages): LookupUnavailable {
  if (firstCode(messages) === reportingDeniedCode)
    return { status: 'unavailable', message: reportingDeniedMessage };
  const code = firstCode(messages) || 'no code';
  return { status: 'unavailable', message: `Authorize.Net refused the transaction lookup (${code}).` };
}

/** The order (our reference as the invoice number) and the duplicate window of a transaction request. */
function orderAndWindow(reference: string, description: string) {
  return {
    order: { invoiceNumber: reference, description: description.slice(0, 255) },
    transactionSettings: {
      setting: [{ settingName: 'duplicateWindow', settingValue: String(duplicateWindowSeconds) }],
    },
  };
}

/** A transaction answer's id ('0' in test mode: nothing happened) and its first reason code. */
function transactionFacts(transaction: { transId?: string; errors?: { errorCode?: string }[] }) {
  return {
    transactionId: transaction.transId && transaction.transId !== '0' ? transaction.transId : null,
    reasonCode: transaction.errors?.[0]?.errorCode ?? '',
  };
}

function dollars(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function isOk(messages: ApiMessages): boolean {
  return messages.resultCode === 'Ok';
}

function firstCode(messages: ApiMessages): string {
  return messages.message[0]?.code ?? '';
}

function firstText(messages: ApiMessages): string {
  return messages.message[0]?.text ?? '';
}

function failure(outcome: 'declined' | 'error', reason: DeclineReason): Failure {
  return { outcome, reason, message: declineMessages[reason] };
}

function unavailable(): Failure {
  return failure('error', 'gateway_unavailable');
}

function apiError(messages: ApiMessages): Failure {
  return failure('error', tokenErrorCodes.has(firstCode(messages)) ? 'invalid_token' : 'processing_error');
}

/**
 * A profile saved with validationMode liveMode runs a small authorisation; when it fails, the result is
 * E00027 with the legacy comma-separated direct response, whose 1st field is the response code and 3rd
 * the reason code.
 */
function saveFailure(messages: ApiMessages, directResponse: string | undefined): Failure {
  if (firstCode(messages) !== 'E00027') return apiError(messages);
  const fields = (directResponse ?? '').split(',').map((field) => field.replace(/^["|]|["|]$/g, ''));
  const responseCode = fields[0];
  const reason = reasonByCode[fields[2] ?? ''];
  if (responseCode === '3' && (reason === undefined || !cardProblems.has(reason))) {
    return failure('error', 'processing_error');
  }
  return failure('declined', reason ?? 'generic_decline');
}
