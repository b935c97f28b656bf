import { and, desc, eq } from 'drizzle-orm';
import { earliestVialShipmentDate, shipmentDateProblem } from '../../../domain/carrier-calendar';
import {
  type CellRequest,
  cellRequestMessages,
  type SendCellRequest,
  type SendCellRequestResponse,
  tissueLabels,
} from '../../../domain/cell-request';
import { cancellationMessages } from '../../../domain/cell-request-cancellation';
import {
  earliestAfterObjection,
  OBJECTION_LINK_MARGIN_MS,
  objectionDeadline,
  objectionDeadlineText,
  objectionMessages,
} from '../../../domain/cell-request-objection';
import { todayFor } from '../../../domain/client';
import { isoToUsDate } from '../../../domain/dates';
import { centsToAmount, formatUsd } from '../../../domain/money';
import { enrollmentRefusal, overdueStorageCents, releaseRefusals } from '../../../domain/release-readiness';
import { shippingMessages } from '../../../domain/shipping';
import { orderNumber } from '../../../domain/site';
import { storageYearsCharge } from '../../../domain/storage-billing';
import { priceVialRequest, vialsWithPrePaidText } from '../../../domain/vial-request-price';
import type { AppDeps } from '../../app-deps';
import { HttpError, notFound } from '../../lib/http-error';
import { createIdLinkToken } from '../../lib/link-tokens';
import type { Transaction } from '../../lib/run-once';
import { refuseChangedOrderTotal } from '../../lib/shown-amounts';
import { recordActivity, updateActivity } from '../clients/client-activities';
import { findClientRow } from '../clients/client-directory';
import {
  givePrePaidVialsBack,
  preferredAddressFrom,
  reservePrePaidVials,
  savePreferredAddress,
} from '../clients/client-holdings';
import { physicianActsFor } from '../clients/client-repository';
import { describePayment, type ResolvedPayment, resolveFormPayment } from '../forms/form-payment';
import type { OneOffCharge } from '../payments/one-off-charge';
import {
  type PaidCharge,
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  type Placement,
  paidOrderRecovery,
  placePaidOrder,
} from '../payments/paid-order';
import { findMethodsOnFile } from '../payments/payment-methods';
import {
  claimOverdueYears,
  payClaimedOverdueYears,
  releaseOverdueYears,
  storageHoldingRelease,
} from '../payments/release-storage';
import { findPhysician } from '../physicians/physician-repository';
import { priceBookInForce } from '../prices/price-book-repository';
import { cancellationView, prePaidVialsOf } from './cell-request-cancellation';
import { vialRequests } from './schema';
import { shipmentBlackoutDates } from './shipment-calendar-repository';
import { shippingAmount } from './shipping-service';
import { scansOf, shippingTimeline } from './vial-shipping';

/**
 * send_CellRequest: a client's order of vials. Everything is checked first (consent, the three
 * months after the Enrollment Date, the date rules, overdue annual storage, the payment choice,
 * the server's own quote against the total the page showed); then, on the run-once engine, the
 * claim records the request, reserves the pre-paid vials (a guarded decrement, so two requests
 * never use the same vial) and holds the overdue storage years it pays, the ledger charges the
 * server's amount once, and the request is confirmed with its Client Activity row, the years
 * paid and its e-mails. A decline gives the vials and the years back and leaves nothing ordered.
 */

/** What a confirmation needs to make the client's objection link of a physician's request. */
type ObjectionLinks = Pick<AppDeps, 'linkSecret' | 'config'>;

export type CellRequestDeps = PaidOrderDeps & ObjectionLinks & Pick<AppDeps, 'carrier'>;

const m = cellRequestMessages;
const SOURCE = 'ACT Client Portal';
const KIND = 'vial-request';

type RequestRow = typeof vialRequests.$inferSelect;

/** The pre-paid vials the claim took, by kind: a give-back returns these, 10 Longevity vials a vial. */
interface VialClaim {
  requestId: string;
  bioInsurance: number;
  longevity: number;
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

export function cellRequestView(row: RequestRow): CellRequest {
  return {
    id: row.id,
    status: row.status,
    NumberOfVials: row.vials,
    PrePaidVials: prePaidVialsOf(row),
    BioInsuranceVialsUsed: row.bioInsuranceVialsUsed,
    LongevityVialsUsed: row.longevityVialsUsed,
    CPP: row.cpp,
    Tissue_Info: row.tissue as CellRequest['Tissue_Info'],
    Infectious_Disease: row.infectiousDisease as CellRequest['Infectious_Disease'],
    Infectious_Disease_Name: row.infectiousDiseaseName,
    clinicName: row.clinicName,
    shipping_method: row.shippingMethod,
    ShipmentDate: row.shipmentDate,
    ShippingContactName: `${row.contactFirstName} ${row.contactLastName}`,
    ShippingEmail: row.shippingEmail,
    phone: row.phone,
    street: row.street,
    city: row.city,
    state: row.state,
    ZipCode: row.zip,
    country: row.country,
    AddressFedExVerified: row.addressVerified,
    vialsCents: row.vialsCents,
    cppCents: row.cppCents,
    shippingCents: row.shippingCents,
    overdueStorageYears: row.overdueStorageYears,
    overdueStorageCents: row.overdueStorageCents,
    processingFeeCents: row.processingFeeCents,
    totalCents: row.totalCents,
    PaymentMethod: row.paymentMethod,
    paymentDescription: row.paymentDescription,
    TransactionId: row.transactionId,
    shippingPriceToBeConfirmed: row.shippingPriceToBeConfirmed,
    requestedAt: (row.requestedAt ?? row.createdAt).toISOString(),
    approvedByPractitionerAt: iso(row.approvedByPractitionerAt),
    vipPriceConfirmedAt: iso(row.vipPriceConfirmedAt),
    shippedAt: iso(row.shippedAt),
    trackingNumber: row.trackingNumber,
    deliveredAt: iso(row.deliveredAt),
    orderedByPhysician: row.orderedBy,
    objectionDeadline: iso(row.objectionDeadline),
    objectedAt: iso(row.objectedAt),
  };
}

async function requestRow(db: CellRequestDeps['db'] | Transaction, id: string) {
  const [row] = await db.select().from(vialRequests).where(eq(vialRequests.id, id)).limit(1);
  return row;
}

function dateRefused(message: string): HttpError {
  return new HttpError('VALIDATION', message, { ShipmentDate: message });
}

const years = (n: number) => `${n} year${n === 1 ? '' : 's'}`;

function summaryLines(row: RequestRow): string[] {
  const used = {
    bioInsurance: row.bioInsuranceVialsUsed,
    longevity: row.longevityVialsUsed,
    coveredVials: prePaidVialsOf(row),
  };
  return [
    `Vials: ${vialsWithPrePaidText(row.vials, used)}, ${formatUsd(row.vialsCents)}`,
    `Cell Protection Plan: ${row.cpp ? formatUsd(row.cppCents) : 'No'}`,
    `Shipping (${row.shippingMethod}): ${row.shippingPriceToBeConfirmed ? 'to be confirmed by ACT' : formatUsd(row.shippingCents)}`,
    ...(row.overdueStorageYears > 0
      ? [`Overdue annual storage (${years(row.overdueStorageYears)}): ${formatUsd(row.overdueStorageCents)}`]
      : []),
    `Processing fee: ${formatUsd(row.processingFeeCents)}`,
    `Total charged: ${formatUsd(row.totalCents)}`,
    `Sample type: ${tissueLabels[row.tissue as keyof typeof tissueLabels] ?? row.tissue}`,
    `Shipment arrival date: ${isoToUsDate(row.shipmentDate)}`,
    `Ship to: ${row.clinicName ? `${row.clinicName}, ` : ''}${row.contactFirstName} ${row.contactLastName}, ${row.street}, ${row.city}, ${row.state} ${row.zip}, ${row.country}`,
  ];
}

/** A new card or account reads as the gateway's charge names it: brand and last 4 digits only. */
function paidWith(described: string, charge: OneOffCharge | null): string {
  if (!charge || described.endsWith('(on file)')) return described;
  const kept = described.endsWith('(not kept on file)') ? '' : ' (now on file)';
  return charge.kind === 'card'
    ? `${charge.brand ?? 'Card'} ending in ${charge.last4}${kept}`
    : `Bank account ending in ${charge.last4}${kept}`;
}

/** The effects of a confirmed request, whether it finished normally or recovery found its charge. */
async function confirmRequest(
  tx: Transaction,
  deps: PaidOrderDeps & ObjectionLinks,
  claim: PaidClaim<VialClaim>,
  charge: PaidCharge | null,
): Promise<SendCellRequestResponse> {
  const now = deps.clock.now();
  const row = await requestRow(tx, claim.requestId);
  if (!row) throw notFound();
  // A physician's request: the client may object until the window closes; it ships only after.
  const deadline = row.physicianId ? objectionDeadline(now) : null;
  // The overdue years the charge paid: paid, and storage paid on to the end of the last.
  if (row.overdueStorageYears > 0) {
    await payClaimedOverdueYears(tx, {
      clientId: claim.clientId,
      operationId: claim.operationId,
      paymentId: charge?.paymentId ?? null,
      now,
    });
  }
  const activityId = await recordActivity(tx, {
    clientId: claim.clientId,
    type: 'Dose Retrieval Fee',
    doseAmount: row.vials,
    closeDate: todayFor(now),
    purchasedPlanName: `Stem cell request: ${row.vials} vial${row.vials === 1 ? '' : 's'} by ${row.shippingMethod}${row.overdueStorageYears > 0 ? `, with ${years(row.overdueStorageYears)} of overdue annual storage` : ''}${row.orderedBy ? `, requested by ${row.orderedBy}` : ''}`,
    stageName: 'Requested',
    cellRequestApprovedByPractitioner: false,
    paymentId: charge?.paymentId ?? null,
    amountCents: row.totalCents,
    cellRequestId: row.id,
  });
  const [updated] = await tx
    .update(vialRequests)
    .set({
      status: 'requested',
      requestedAt: now,
      paymentDescription: paidWith(row.paymentDescription, charge),
      paymentId: charge?.paymentId ?? null,
      transactionId: charge?.transactionId ?? null,
      clientActivityId: activityId,
      objectionDeadline: deadline,
    })
    .where(eq(vialRequests.id, claim.requestId))
    .returning();
  if (!updated) throw notFound();
  // Read before a saved address replaces the clinic's e-mail: both hear of the request.
  const client = await findClientRow(tx, claim.clientId);
  if (row.saveAddress) {
    await savePreferredAddress(tx, claim.clientId, preferredAddressFrom(row), now);
  }
  const text = [
    `We received your stem cell request ${orderNumber('VR', row.id)}.`,
    ...summaryLines(updated),
    charge
      ? `Paid with ${updated.paymentDescription}. Transaction ${charge.transactionId}.`
      : 'Nothing was charged: your pre-paid vials cover this order.',
    ...(row.shippingPriceToBeConfirmed ? [m.vipNote] : []),
    m.cancellationPolicy(
      (await priceBookInForce(tx, row.requestedAt ?? row.createdAt)).book.vialReplacementFeeCents,
    ),
  ].join('\n\n');
  const recipients = new Set(
    [client?.email, client?.shippingClinicEmail, row.shippingEmail].filter(Boolean) as string[],
  );
  // The client of a physician's request reads it in the e-mail with the link to object instead.
  if (deadline && client?.email) recipients.delete(client.email);
  for (const to of recipients) {
    await deps.mailer.enqueue(
      tx,
      { to, subject: 'Client Portal: your stem cell request', text },
      { dedupeKey: `vial-request:${row.id}:${to.toLowerCase()}` },
    );
  }
  if (deadline) await tellOfPhysicianRequest(tx, deps, updated, deadline, now);
  return responseOf(updated);
}

/**
 * A physician's request: the client is e-mailed at once who ordered what, the total and how it was
 * paid, with the signed link to object within the window; the physician has the same summary.
 */
async function tellOfPhysicianRequest(
  tx: Transaction,
  deps: PaidOrderDeps & ObjectionLinks,
  row: RequestRow,
  deadline: Date,
  now: Date,
) {
  const client = await findClientRow(tx, row.clientId);
  const physician = row.physicianId ? await findPhysician(tx, row.physicianId) : undefined;
  const token = createIdLinkToken(
    deps.linkSecret,
    'cell-request-objection',
    row.id,
    now,
    deadline.getTime() - now.getTime() + OBJECTION_LINK_MARGIN_MS,
  );
  const link = `${deps.config.publicUrl.replace(/\/$/, '')}/object/${token}`;
  const paidBy = row.paidByPhysician ? `by ${row.orderedBy}` : 'with your payment method on file';
  const summary = [
    ...summaryLines(row),
    row.totalCents > 0
      ? `Paid ${paidBy}: ${row.paymentDescription}.`
      : 'Nothing was charged: the pre-paid vials cover this order.',
  ];
  if (client?.email) {
    await deps.mailer.enqueue(
      tx,
      {
        to: client.email,
        subject: objectionMessages.emailSubject,
        text: [
          `Dear ${client.firstName},`,
          `${row.orderedBy} requested the release of ${row.vials} of your stem cell vial${row.vials === 1 ? '' : 's'} (request ${orderNumber('VR', row.id)}), as your agreement allows.`,
          ...summary,
          `If you did not agree to this request, you may object until ${objectionDeadlineText(deadline)}: the request is then cancelled at no cost, everything paid refunded and your pre-paid vials given back. The vials ship only after that time.`,
          `To object: ${link}`,
        ].join('\n\n'),
      },
      { dedupeKey: `vial-request-objection-link:${row.id}` },
    );
  }
  if (physician) {
    await deps.mailer.enqueue(
      tx,
      {
        to: physician.email,
        subject: 'Client Portal: the stem cell request you placed',
        text: [
          `Dear Dr. ${physician.lastName},`,
          `Your stem cell request ${orderNumber('VR', row.id)} for ${client ? `${client.firstName} ${client.lastName}` : 'your client'} was received.`,
          ...summary,
          `The client was e-mailed and may object until ${objectionDeadlineText(deadline)}; the vials ship only after that time.`,
        ].join('\n\n'),
      },
      { dedupeKey: `vial-request:${row.id}:physician` },
    );
  }
}

/** Gives the request back: the row goes, the pre-paid vials and the overdue years it held return. */
async function releaseRequest(tx: Transaction, claim: PaidClaim<VialClaim>) {
  await releaseOverdueYears(tx, claim.operationId);
  const deleted = await tx
    .delete(vialRequests)
    .where(and(eq(vialRequests.id, claim.requestId), eq(vialRequests.status, 'pending')))
    .returning({ id: vialRequests.id });
  if (deleted.length === 0) return;
  await givePrePaidVialsBack(tx, claim.clientId, claim);
}

function responseOf(row: RequestRow): SendCellRequestResponse {
  return {
    success: true,
    message: m.submitted,
    id: row.id,
    TransactionId: row.transactionId,
    amountCharged: centsToAmount(row.totalCents),
    amountChargedCents: row.totalCents,
    request: cellRequestView(row),
  };
}

/** A vial request on the paid-order workflow: its confirm, answer and give-back. */
const vialRequest = (links: ObjectionLinks): PaidOrderKind<VialClaim, SendCellRequestResponse> => ({
  kind: KIND,
  confirm: (tx, deps, claim, charge) => confirmRequest(tx, { ...deps, ...links }, claim, charge),
  giveBack: releaseRequest,
  stillClaimed: async (deps, claim) => (await requestRow(deps.db, claim.requestId)) !== undefined,
  messages: {
    interrupted: 'The request was interrupted. Please submit it again.',
    notPaid: 'The payment did not go through and nothing was ordered. Please try again.',
  },
});

/** The recoveries of the vial request kind, for the reconciliation sweep. */
export function cellRequestRecoveries(deps: PaidOrderDeps & ObjectionLinks) {
  return { [KIND]: paidOrderRecovery(deps, vialRequest(deps)) };
}

/** Who places a request: the client, or a physician acting for them (physicianId). */
type RequestInput = {
  clientId: string;
  physicianId: string | null;
  idempotencyKey: string;
  body: SendCellRequest;
};

export async function sendCellRequest(
  deps: CellRequestDeps,
  input: RequestInput,
): Promise<SendCellRequestResponse> {
  // A client's own request is keyed as it always was; a physician's names the physician too.
  const request = input.physicianId ? { body: input.body, physicianId: input.physicianId } : input.body;
  return placePaidOrder(deps, vialRequest(deps), {
    owner: { clientId: input.clientId },
    idempotencyKey: input.idempotencyKey,
    request,
    place: () => priceCellRequest(deps, input),
  });
}

/**
 * Who pays a request and with what: a client, their own method; a physician, the client's method
 * on file (never a new one entered for the client) or their own, on file or new.
 */
async function requestPayment(
  deps: CellRequestDeps,
  input: RequestInput,
  today: string,
): Promise<{ payment: ResolvedPayment; payer: { physicianId: string } | null }> {
  const { clientId, physicianId, body } = input;
  if (!physicianId && body.PaidBy === 'physician') {
    throw new HttpError('VALIDATION', objectionMessages.clientOnly, { PaidBy: objectionMessages.clientOnly });
  }
  const payer = physicianId && body.PaidBy === 'physician' ? { physicianId } : null;
  if (physicianId && !payer) {
    const { card, ach } = await findMethodsOnFile(deps.db, clientId);
    const onFile = body.PaymentMethod === 'Credit Card' ? card : ach;
    const newOne = body.PaymentMethod === 'Credit Card' ? body.update_card : body.update_ach;
    if (!onFile || newOne) {
      throw new HttpError('VALIDATION', objectionMessages.paymentChoice, {
        PaymentMethod: objectionMessages.paymentChoice,
      });
    }
  }
  const payment = await resolveFormPayment(
    deps.db,
    payer ?? clientId,
    body,
    {
      first: m.holderFirst,
      last: m.holderLast,
      month: m.cardEmpty,
      year: m.cardEmpty,
      email: m.billingEmail,
    },
    today,
  );
  return { payment, payer };
}

/** Checks and prices a new request (consent, dates, the server's own quote, the payment): its claim and charge. */
async function priceCellRequest(deps: CellRequestDeps, input: RequestInput): Promise<Placement<VialClaim>> {
  const { db, clock } = deps;
  const { clientId, body } = input;
  const today = todayFor(clock.now());
  const physician = input.physicianId ? await findPhysician(db, input.physicianId) : undefined;
  if (input.physicianId && !physician) throw notFound();
  // The order is priced by the book in force as it is placed.
  const { book } = await priceBookInForce(db, clock.now());
  const client = await findClientRow(db, clientId);
  if (!client) throw notFound();
  if (!client.clientConsentFormCompleted) throw new HttpError('CONSENT_REQUIRED', m.consentRequired);
  // Release requests from three months after the Enrollment Date (the banked date where none is recorded).
  const tooSoon = enrollmentRefusal(today, client.enrollmentDate, client.dateBankedIn);
  if (tooSoon) throw new HttpError('RELEASE_NOT_READY', tooSoon);
  // Overdue annual storage holds the release: paid with the order when a method is on file.
  const { overdueYears } = await storageHoldingRelease(db, clientId);
  const overdueCents = overdueStorageCents(overdueYears);
  if (overdueYears.length > 0) {
    const { card, ach } = await findMethodsOnFile(db, clientId);
    if (!card && !ach) {
      throw new HttpError(
        'RELEASE_NOT_READY',
        releaseRefusals.storageOverdue(overdueYears.length, overdueCents),
      );
    }
  }

  // The date rules, against the client's holdings now (the claim re-checks the vials).
  const prePaid = {
    bioInsurance: client.bioInsuranceVialsAvailable,
    longevity: client.longevityVialsAvailable,
  };
  const paymentMethod = body.PaymentMethod === 'Credit Card' ? 'card' : 'ach';
  const draft = priceVialRequest(book, {
    vials: body.NumberOfVials,
    prePaid,
    cpp: body.CPP === 'Yes',
    shipping: { method: 'ACT VIP' },
    paymentMethod,
  });
  const earliest = earliestVialShipmentDate({
    today,
    coveredByBioInsurance: draft.prePaidVials.coveredByBioInsurance,
    dateBankedIn: client.dateBankedIn,
    lastBioInsurancePurchasedDate: client.lastBioInsurancePurchasedDate,
    ...(physician ? { notBefore: earliestAfterObjection(clock.now()) } : {}),
  });
  const problem = shipmentDateProblem(body.ShipmentDate, {
    method: body.shipping_method,
    earliest,
    blackoutDates: body.shipping_method === 'FedEx' ? await shipmentBlackoutDates(db) : [],
  });
  if (problem) throw dateRefused(problem.message);

  // The server's own quote, from the carrier now.
  const quote = await shippingAmount(
    deps,
    {
      shipping_method: body.shipping_method,
      Country: body.country,
      Street: body.street,
      City: body.city,
      State: body.state,
      ZipCode: body.ZipCode,
      Phone: body.phone,
      ShipmentDate: body.ShipmentDate,
    },
    shippingMessages.quoteFailed,
  );
  const price = priceVialRequest(book, {
    vials: body.NumberOfVials,
    prePaid,
    cpp: body.CPP === 'Yes',
    shipping:
      body.shipping_method === 'FedEx'
        ? { method: 'FedEx', carrierNetChargeCents: Math.round((quote.totalNetCharge ?? 0) * 100) }
        : { method: 'ACT VIP' },
    paymentMethod,
    // Each overdue year at the amount its notice fixed for the method (storageYearsCharge).
    overdueStorage: storageYearsCharge(book, overdueYears, paymentMethod),
  });
  refuseChangedOrderTotal(
    body,
    price.totalCents,
    `The order total is ${formatUsd(price.totalCents)}. Please review the order summary and submit again.`,
  );

  const { payment, payer } = await requestPayment(deps, input, today);
  // Until the gateway names the new card (brand, last 4), it reads as typed; kept on file when asked.
  const paymentDescription =
    'token' in payment && payment.keepOnFile
      ? describePayment(payment).replace(/ \(not kept on file\)$/, ' (to be kept on file)')
      : describePayment(payment);
  const use = price.prePaidVials;
  const subtotal = price.vialsCents + price.cppCents + price.shippingCents + price.overdueStorageCents;

  return {
    charge:
      subtotal > 0 && payment.kind !== 'check'
        ? {
            source: SOURCE,
            purpose: 'vial_request',
            amountCents: subtotal,
            feeCents: price.processingFeeCents,
            payment,
            description: `Stem cell request: ${body.NumberOfVials} vials${overdueYears.length > 0 ? `, annual storage ${years(overdueYears.length)} overdue` : ''}`,
            ...(payer ? { payer } : {}),
          }
        : null,
    async claim(tx, operationId) {
      // The pre-paid vials are reserved with a guard: two requests never use the same vial.
      if (!(await reservePrePaidVials(tx, clientId, use))) {
        throw new HttpError('AMOUNT_CHANGED', m.vialsChanged);
      }
      // The overdue years priced are held for this order: no other payment takes them meanwhile.
      const held = await claimOverdueYears(tx, {
        clientId,
        feeIds: overdueYears.map((y) => y.id),
        operationId,
      });
      if (held === 'changed') throw new HttpError('AMOUNT_CHANGED', releaseRefusals.storageChanged);
      if (held === 'busy') throw new HttpError('PAYMENT_IN_PROGRESS', releaseRefusals.storageBeingPaid);
      const [row] = await tx
        .insert(vialRequests)
        .values({
          clientId,
          operationId,
          idempotencyKey: input.idempotencyKey,
          status: 'pending',
          vials: body.NumberOfVials,
          bioInsuranceVialsUsed: use.bioInsurance,
          longevityVialsUsed: use.longevity,
          longevityCoveredVials: use.longevityCoveredVials,
          cpp: body.CPP === 'Yes',
          tissue: body.Tissue_Info,
          infectiousDisease: body.Infectious_Disease,
          infectiousDiseaseName: body.Infectious_Disease === 'treated' ? body.Infectious_Disease_Name : '',
          clinicName: body.clinicName,
          shippingMethod: body.shipping_method,
          shipmentDate: body.ShipmentDate,
          contactFirstName: body.firstName,
          contactLastName: body.lastName,
          shippingEmail: body.ShippingEmail,
          phone: body.phone,
          street: body.street,
          city: body.city,
          state: body.state,
          zip: body.ZipCode,
          country: body.country,
          addressVerified: body.AddressFedExVerified,
          saveAddress: body.saveAddressForFuture,
          vialsCents: price.vialsCents,
          cppCents: price.cppCents,
          shippingCents: price.shippingCents,
          overdueStorageYears: overdueYears.length,
          overdueStorageCents: price.overdueStorageCents,
          overdueStorageFeeCents: price.overdueStorageFeeCents,
          processingFeeCents: price.processingFeeCents,
          totalCents: price.totalCents,
          paymentMethod: body.PaymentMethod,
          paymentDescription,
          shippingPriceToBeConfirmed: price.shippingConfirmedLater,
          physicianId: physician?.id ?? null,
          orderedBy: physician ? `Dr. ${physician.firstName} ${physician.lastName}` : null,
          paidByPhysician: payer !== null,
          createdAt: clock.now(),
        })
        .returning({ id: vialRequests.id });
      if (!row) throw new Error('the vial request was not written');
      return { requestId: row.id, bioInsurance: use.bioInsurance, longevity: use.longevity };
    },
  };
}

/** One request of a client: another client's id answers the same 404 as an unknown one. */
export async function findCellRequest(db: CellRequestDeps['db'], clientId: string, id: string, now: Date) {
  const [row] = await db
    .select()
    .from(vialRequests)
    .where(and(eq(vialRequests.id, id), eq(vialRequests.clientId, clientId)))
    .limit(1);
  if (!row || row.status === 'pending') throw notFound();
  const scans = (await scansOf(db, [row.id])).get(row.id) ?? [];
  return {
    ...cellRequestView(row),
    cancellation: await cancellationView(db, row, now),
    shipping: shippingTimeline(row, scans),
  };
}

export async function listCellRequests(db: CellRequestDeps['db'], clientId: string) {
  const rows = await db
    .select()
    .from(vialRequests)
    .where(eq(vialRequests.clientId, clientId))
    .orderBy(desc(vialRequests.createdAt));
  return { requests: rows.filter((r) => r.status !== 'pending').map(cellRequestView) };
}

/** set_CellRequestApproval: only the physician linked to the request's client; others 404. */
export async function approveCellRequest(
  deps: Pick<CellRequestDeps, 'db' | 'clock'>,
  physicianId: string,
  id: string,
): Promise<{ clientId: string; request: CellRequest }> {
  const { db, clock } = deps;
  const [request] = await db.select().from(vialRequests).where(eq(vialRequests.id, id)).limit(1);
  if (!request || request.status === 'pending') throw notFound();
  if (!(await physicianActsFor(db, physicianId, request.clientId))) throw notFound();
  if (request.status === 'cancelled')
    throw new HttpError('NOT_ALLOWED_NOW', cancellationMessages.isCancelled);
  if (request.approvedByPractitionerAt)
    return { clientId: request.clientId, request: cellRequestView(request) };
  const updated = await db.transaction(async (tx) => {
    const [done] = await tx
      .update(vialRequests)
      .set({
        approvedByPractitionerAt: clock.now(),
        ...(request.status === 'requested' ? { status: 'approved' as const } : {}),
      })
      .where(eq(vialRequests.id, id))
      .returning();
    if (request.clientActivityId) {
      await updateActivity(tx, request.clientActivityId, {
        cellRequestApprovedByPractitioner: true,
        stageName: 'Approved',
      });
    }
    return done;
  });
  if (!updated) throw notFound();
  return { clientId: request.clientId, request: cellRequestView(updated) };
}
