import { CONSENT_AGREEMENT_VERSION } from '../../domain/consent-agreement';
import { DEMO_CLIENT_PASSWORD } from '../db/seed';
import { pngDataUrl, signaturePng } from '../testing/signature-png';
import { vialRequestBody } from '../testing/vial-request-body';

/**
 * What a browser sends, over real HTTP: sign-in, a card tokenized at the sandbox gateway, a card
 * saved (which pays what is overdue), a consent signed, orders placed and cancelled, and an
 * admin's refund. An answer is its status and body; a
 * request the server never answered (the process died, the socket was cut) is `cut`.
 */

export type Answer =
  | { cut: false; status: number; body: Record<string, unknown> | null; text: string }
  | { cut: true; error: string };

export interface SimulatedClient {
  id: string;
  actId: string;
  /** The address the client's requests come from (X-Forwarded-For). */
  ip: string;
  cookie?: string;
}

const REQUEST_TIMEOUT_MS = 45_000;
const SIGNATURE = pngDataUrl(signaturePng());

async function call(
  baseUrl: string,
  method: 'GET' | 'POST',
  url: string,
  options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer & { setCookie?: string | null }> {
  try {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = null;
    }
    return { cut: false, status: response.status, body, text, setCookie: response.headers.get('set-cookie') };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { cut: true, error: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

export function describeAnswer(answer: Answer): string {
  if (answer.cut) return `no answer (${answer.error})`;
  const code = typeof answer.body?.code === 'string' ? ` ${answer.body.code}` : '';
  return `${answer.status}${code}`;
}

/** The status, code and message of an answer, for a failure's details. */
export function explainAnswer(answer: Answer): string {
  const message = !answer.cut && typeof answer.body?.error === 'string' ? ` "${answer.body.error}"` : '';
  return `${describeAnswer(answer)}${message}`;
}

export async function health(baseUrl: string): Promise<Answer> {
  return call(baseUrl, 'GET', '/api/health', { timeoutMs: 5000 });
}

/** Signs the client in with the demo password; keeps the session cookie on the client. */
export async function signIn(baseUrl: string, client: SimulatedClient): Promise<void> {
  const answer = await call(baseUrl, 'POST', '/api/pay/login', {
    body: { username: client.actId, password: DEMO_CLIENT_PASSWORD },
    headers: { 'x-forwarded-for': client.ip },
  });
  if (answer.cut || answer.status !== 200 || !answer.setCookie) {
    throw new Error(`sign-in of ${client.actId} failed: ${describeAnswer(answer)}`);
  }
  client.cookie = answer.setCookie.split(';')[0] as string;
}

export type CardToken = { descriptor: string; value: string };

/** A card as the payment page's tokenizer sends it: by default a Visa the sandbox approves. */
export interface SandboxCard {
  number: string;
  expiryMonth: number;
  expiryYear: number;
}

const approvedVisa = (): SandboxCard => ({
  number: '4111111111111111',
  expiryMonth: 12,
  expiryYear: new Date().getUTCFullYear() + 3,
});

/** A card tokenized as the payment page's tokenizer would (by default a Visa the sandbox approves). */
export async function tokenizeCard(
  baseUrl: string,
  client: SimulatedClient,
  card: SandboxCard = approvedVisa(),
): Promise<CardToken> {
  const answer = await call(baseUrl, 'POST', '/sandbox-gateway/v1/tokens', {
    body: { card: { ...card, cvv: '123', zip: '33131' } },
    headers: { 'x-forwarded-for': client.ip },
  });
  const token = answer.cut ? undefined : (answer.body?.token as CardToken | undefined);
  if (!token) throw new Error(`tokenizing a card for ${client.actId} failed: ${describeAnswer(answer)}`);
  return token;
}

function headersOf(client: SimulatedClient, idempotencyKey?: string): Record<string, string> {
  if (!client.cookie) throw new Error(`${client.actId} is not signed in`);
  return {
    cookie: client.cookie,
    'x-forwarded-for': client.ip,
    ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
  };
}

/** Saves the card as the method on file: the overdue annual storage is charged to it. */
export function savePaymentMethod(
  baseUrl: string,
  client: SimulatedClient,
  token: CardToken,
  idempotencyKey: string,
  card: Pick<SandboxCard, 'expiryMonth' | 'expiryYear'> = approvedVisa(),
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/pay/set_PaymentInfo', {
    headers: headersOf(client, idempotencyKey),
    body: {
      Payment_Type: 'CC',
      token,
      Credit_Card_Type: 'Visa',
      Month_of_Expiry: String(card.expiryMonth),
      Year_of_Expiry: String(card.expiryYear),
      Credit_Card_Holder_First_Name: 'Fault',
      Credit_Card_Holder_Last_Name: 'Client',
      Credit_Card_Biling_Email_Address: `${client.actId.toLowerCase()}@example.com`,
      Country: 'United States',
      Credit_Card_Billing_Street: '1200 Brickell Avenue',
      Credit_Card_Billing_City: 'Miami',
      Credit_Card_Billing_State: 'FL',
      Credit_Card_Billing_Zip_Code: '33131',
      PaymentSource: 'CP Payment Info Page',
    },
  });
}

/** Signs the consent agreement, paying by check (nothing is charged). */
export function sendConsent(
  baseUrl: string,
  client: SimulatedClient,
  idempotencyKey: string,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/pay/send_ConsentData', {
    headers: headersOf(client, idempotencyKey),
    body: {
      Medications: 'No',
      Tissue_deliver: 'Destroy any Tissue',
      sample_type: 'Adipose',
      PaymentMethod: 'Check',
      agree: true,
      Signature: SIGNATURE,
      agreementVersion: CONSENT_AGREEMENT_VERSION,
    },
  });
}

export function getClient(baseUrl: string, client: SimulatedClient): Promise<Answer> {
  return call(baseUrl, 'GET', '/api/pay/get_Client', { headers: headersOf(client), timeoutMs: 10_000 });
}

/** A form paid with a new card: its token and the fields the page shows with it. */
function newCardFields(client: SimulatedClient, token: CardToken) {
  return {
    PaymentMethod: 'Credit Card',
    update_card: true,
    token,
    Credit_Card_Type: 'Visa',
    Month_of_Expiry: '12',
    Year_of_Expiry: String(new Date().getUTCFullYear() + 3),
    Credit_Card_Holder_First_Name: 'Fault',
    Credit_Card_Holder_Last_Name: 'Client',
    Credit_Card_Biling_Email_Address: `${client.actId.toLowerCase()}@example.com`,
    Credit_Card_Holder_Country: 'United States',
    Credit_Card_Billing_Street: '1200 Brickell Avenue',
    Credit_Card_Billing_City: 'Miami',
    Credit_Card_Billing_State: 'FL',
    Credit_Card_Billing_Zip_Code: '33131',
  };
}

/** Submits the infectious disease screening by White Glove Labs, paid with a new card ($410.97). */
export function sendWhiteGlove(
  baseUrl: string,
  client: SimulatedClient,
  token: CardToken,
  idempotencyKey: string,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/pay/set_DiseaseData', {
    headers: headersOf(client, idempotencyKey),
    body: {
      submissionOption: 'White Glove Labs',
      agree: true,
      FirstName: 'Fault',
      LastName: 'Client',
      Street: '1200 Brickell Avenue',
      City: 'Miami',
      State: 'FL',
      ZipCode: '33131',
      Country: 'United States',
      ...newCardFields(client, token),
      Source: 'ACT Client Portal',
    },
  });
}

/**
 * Orders 3 vials by FedEx with CPP, one of them the client's pre-paid Bio-Insurance vial, for
 * delivery on `shipmentDate`, paid with a new card (the request body of the API tests).
 */
export function placeVialRequest(
  baseUrl: string,
  client: SimulatedClient,
  token: CardToken,
  idempotencyKey: string,
  shipmentDate: string,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/pay/send_CellRequest', {
    headers: headersOf(client, idempotencyKey),
    body: {
      ...vialRequestBody({ NumberOfVials: 3, CPP: 'Yes', ShipmentDate: shipmentDate }),
      ...newCardFields(client, token),
    },
  });
}

/** Orders 2 bottles of the store's serum ($463.50 with the card fee), paid with a new card. */
export function placeStoreOrder(
  baseUrl: string,
  client: SimulatedClient,
  token: CardToken,
  idempotencyKey: string,
  shipmentDate: string,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/pay/send_CP_StoreRequest', {
    headers: headersOf(client, idempotencyKey),
    body: {
      stemskinserum: { name: 'Stem Cell Face Serum', quantity: 2 },
      ShipmentDate: shipmentDate,
      FirstName: 'Fault',
      LastName: 'Client',
      ShippingEmail: 'receiving@example.com',
      Phone: '3055550142',
      Street: '1200 Brickell Avenue',
      City: 'Miami',
      State: 'FL',
      Country: 'United States',
      ZipCode: '33131',
      ...newCardFields(client, token),
      expectedTotalCents: 46_350,
    },
  });
}

/** The client cancels one of their vial requests (`cancel_CellRequest`) or store orders (`cancel_StoreOrder`). */
export function cancelOrder(
  baseUrl: string,
  client: SimulatedClient,
  order: { kind: 'vial request' | 'store order'; id: string },
  idempotencyKey: string,
): Promise<Answer> {
  const route = order.kind === 'vial request' ? 'cancel_CellRequest' : 'cancel_StoreOrder';
  return call(baseUrl, 'POST', `/api/pay/${route}`, {
    headers: headersOf(client, idempotencyKey),
    body: { id: order.id },
  });
}

/** An admin refunds part of a charge, with a reason (`POST /api/staff/refunds`). */
export function staffRefund(
  baseUrl: string,
  staff: SimulatedClient,
  refund: { paymentId: string; amount: string; reason: string },
  idempotencyKey: string,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/staff/refunds', {
    headers: headersOf(staff, idempotencyKey),
    body: refund,
  });
}

/**
 * The client orders a 5-year annual storage plan paid with the card on file
 * ($1,575.00 + the 3% card fee, $47.25: $1,622.25).
 */
export function buyFiveYearPlan(baseUrl: string, client: SimulatedClient, idempotencyKey: string) {
  return call(baseUrl, 'POST', '/api/pay/send_StoragePlan', {
    headers: headersOf(client, idempotencyKey),
    body: {
      Source: 'Client Portal',
      Annual_Storage_Plan: '5 Year',
      Plan: 'No additional Plan',
      Tissue_Info: 'Adipose',
      PaymentMethod: 'Credit Card',
      expectedTotalCents: 162_225,
    },
  });
}

/**
 * An admin's "Run billing as of…" (demo mode): each day from the day after the last run of these
 * clients up to `asOf`.
 */
export function runBillingAsOf(
  baseUrl: string,
  staff: SimulatedClient,
  body: { asOf: string; clients: string[] },
  idempotencyKey: string,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/staff/billing/run', {
    headers: headersOf(staff, idempotencyKey),
    body,
    timeoutMs,
  });
}

/** The storage years waiting for a check, as the staff queue lists them (`GET /api/staff/storage_checks`). */
export function storageChecksQueue(baseUrl: string, staff: SimulatedClient): Promise<Answer> {
  return call(baseUrl, 'GET', '/api/staff/storage_checks', { headers: headersOf(staff) });
}

/** Staff record a check received for a storage year (`POST /api/staff/record_storage_check`). */
export function recordStorageCheck(
  baseUrl: string,
  staff: SimulatedClient,
  check: { feeId: string; checkNumber: string; checkAmount: string; checkDate: string },
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/staff/record_storage_check', {
    headers: headersOf(staff),
    body: check,
  });
}

/** The figures staff send a newborn finance agreement with (cents, the rate in basis points). */
export interface AgreementFigures {
  mainContact: string;
  patientId: string;
  annualBankingFeeCents: number;
  bioInsuranceFeeCents: number;
  downPaymentCents: number;
  initialProcessingFeeCents: number;
  interestRateBasisPoints: number;
  installments: number;
  totalFinancedCents: number;
}

/** Staff create a newborn finance agreement and e-mail its link (`POST /api/staff/send_agreement_link`). */
export function sendAgreementLink(
  baseUrl: string,
  staff: SimulatedClient,
  clientActId: string,
  figures: AgreementFigures,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/staff/send_agreement_link', {
    headers: headersOf(staff),
    body: { clientId: clientActId, ...figures },
  });
}

/** The public agreement page's headers: no session, the link token in the body. */
function publicHeaders(client: SimulatedClient, idempotencyKey?: string): Record<string, string> {
  return {
    'x-forwarded-for': client.ip,
    ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
  };
}

/** A card as the agreement page sends it with its token: brand, expiry and billing address. */
function agreementCardFields(client: SimulatedClient, token: CardToken, card: SandboxCard) {
  return {
    Payment_Type: 'CC',
    token,
    Credit_Card_Type: 'Visa',
    Month_of_Expiry: String(card.expiryMonth),
    Year_of_Expiry: String(card.expiryYear),
    Credit_Card_Holder_First_Name: 'Fault',
    Credit_Card_Holder_Last_Name: 'Client',
    Credit_Card_Biling_Email_Address: `${client.actId.toLowerCase()}@example.com`,
    Country: 'United States',
    Credit_Card_Billing_Street: '1200 Brickell Avenue',
    Credit_Card_Billing_City: 'Miami',
    Credit_Card_Billing_State: 'FL',
    Credit_Card_Billing_Zip_Code: '33131',
    authorizeCharges: true,
  };
}

/**
 * The main contact signs the agreement the e-mailed link opens, with a card for the deposit
 * (charged now, `expectedTotalCents` as the button named it) and the installments.
 */
export function signAgreement(
  baseUrl: string,
  client: SimulatedClient,
  link: string,
  card: { token: CardToken; card: SandboxCard },
  expectedTotalCents: number,
  idempotencyKey: string,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/pay/set_Client_Agreement_service', {
    headers: publicHeaders(client, idempotencyKey),
    body: {
      ClientId: link,
      signatureData: SIGNATURE,
      NBAgreementCompleted: true,
      ...agreementCardFields(client, card.token, card.card),
      expectedTotalCents,
    },
  });
}

/** The signed agreement's page: its schedule, and what is overdue or paid off now. */
export function agreementAccount(baseUrl: string, client: SimulatedClient, link: string): Promise<Answer> {
  return call(baseUrl, 'GET', `/api/pay/get_Client_Agreement_account?id=${encodeURIComponent(link)}`, {
    headers: publicHeaders(client),
  });
}

/** A new card for the installments, on the signed agreement's page (nothing is charged). */
export function changeAgreementCard(
  baseUrl: string,
  client: SimulatedClient,
  link: string,
  card: { token: CardToken; card: SandboxCard },
  idempotencyKey: string,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/pay/set_Client_Agreement_payment_method', {
    headers: publicHeaders(client, idempotencyKey),
    body: { ClientId: link, ...agreementCardFields(client, card.token, card.card) },
  });
}

/** Pays the overdue installments, or the balance early, with the total the page's button named. */
export function payAgreement(
  baseUrl: string,
  client: SimulatedClient,
  link: string,
  pay: 'overdue' | 'payoff',
  expectedTotalCents: number,
  idempotencyKey: string,
): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/pay/set_Client_Agreement_payment', {
    headers: publicHeaders(client, idempotencyKey),
    body: { ClientId: link, pay, expectedTotalCents },
  });
}
