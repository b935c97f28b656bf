import { eq } from 'drizzle-orm';
import { todayFor } from '../../../domain/client';
import { isoToUsDate } from '../../../domain/dates';
import {
  INITIAL_PROCESSING_SOURCE,
  type InitialProcessingQuote,
  initialProcessingQuote,
  initialProcessingMessages as m,
  quoteSummary,
  type SendProcessDataRequest,
  type SendProcessDataResponse,
  sampleCardEmptyMessages,
  tissueLabels,
  WELCOME_LINK_DAYS,
} from '../../../domain/initial-processing';
import { centsToAmount, formatUsd } from '../../../domain/money';
import { isHeld, operationById, recoverLapsed, type Transaction } from '../../lib/run-once';
import { refuseChangedAmounts } from '../../lib/shown-amounts';
import { recordActivity } from '../clients/client-activities';
import { findClientRow, markClientCompleted } from '../clients/client-directory';
import { resolveFormPayment } from '../forms/form-payment';
import type { OneOffCharge } from '../payments/one-off-charge';
import {
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  type Placement,
  paidOrderRecovery,
  placePaidOrder,
} from '../payments/paid-order';
import { findPhysician } from '../physicians/physician-repository';
import { priceBookInForce } from '../prices/price-book-repository';
import {
  pendingRegistrationOf,
  refuseDuplicate,
  registerClient,
  removeUnfinishedRegistration,
} from './client-registration';
import { sampleSubmissions } from './schema';
import { createWelcomeLink } from './welcome-links';

export interface SampleDeps extends PaidOrderDeps {
  /** Where links in e-mails point (config.publicUrl). */
  publicUrl: string;
}

/** What a sample form's operation claimed: the client it registered and their pending sample. */
interface SampleClaim {
  sampleId: string;
  clientId: string;
  clientActId: string;
  physicianId: string;
  paymentKind: 'card' | 'check';
  quote: InitialProcessingQuote;
}

function responseOf(claim: SampleClaim, charge: OneOffCharge | null): SendProcessDataResponse {
  return {
    success: true,
    TransactionId: charge?.transactionId ?? claim.sampleId,
    message: m.submitted,
    ClientId: claim.clientActId,
    clientRecordId: claim.clientId,
    paymentKind: claim.paymentKind,
    amountCharged: charge ? centsToAmount(charge.totalCents) : 0,
    processingFee: charge ? centsToAmount(charge.feeCents) : 0,
    amountDue: charge ? 0 : centsToAmount(claim.quote.total),
    cardLast4: charge?.last4 ?? null,
  };
}

/**
 * The effects of a completed sample form, in the transaction that records it, whether the
 * submission finished normally or recovery found its charge approved: the sample paid (card) or
 * awaiting the check, the client's initial processing paid (card), the welcome link and the
 * e-mails to the physician, the billing contact (check) and the new client.
 */
async function completeSample(
  tx: Transaction,
  deps: SampleDeps,
  claim: PaidClaim<SampleClaim>,
  charge: OneOffCharge | null,
): Promise<SendProcessDataResponse> {
  const now = deps.clock.now();
  const [sample] = await tx
    .update(sampleSubmissions)
    .set({
      status: charge ? 'paid' : 'awaiting_check',
      paymentId: charge?.paymentId ?? null,
      completedAt: now,
    })
    .where(eq(sampleSubmissions.id, claim.sampleId))
    .returning();
  const client = await findClientRow(tx, claim.clientId);
  const physician = await findPhysician(tx, claim.physicianId);
  if (!sample || !client || !physician) throw new Error('the registration to complete is gone');
  const tissue = tissueLabels[sample.tissue];
  if (charge) {
    await markClientCompleted(tx, claim.clientId, 'initialProcessingFormCompleted', now);
    await recordActivity(tx, {
      clientId: claim.clientId,
      type: 'Initial Processing',
      closeDate: todayFor(now),
      purchasedPlanName: `Initial sample processing, ${tissue} (${formatUsd(charge.totalCents)})`,
      stageName: 'Closed Won',
      paymentId: charge.paymentId,
      amountCents: charge.totalCents,
    });
  }

  const clientName = `${client.firstName} ${client.lastName}`;
  const sampleFacts = [
    `Client: ${clientName}, born ${isoToUsDate(client.dateOfBirth)}, ${client.email}`,
    `Client ID: ${client.clientActId}`,
    `Sample: ${tissue}, to be shipped on ${isoToUsDate(sample.shipDate)}`,
  ].join('\n');
  const shipping =
    'Please let us know at least 3 days before you ship. Send the sample by priority overnight service for delivery by 10:30 AM; a shipment on a Friday or over a weekend needs the Saturday delivery option.';
  const payment = charge
    ? `We charged ${quoteSummary(claim.quote)} to the ${charge.brand ?? 'card'} ending in ${charge.last4}. Transaction ${charge.transactionId}.`
    : `Please put a check for ${formatUsd(claim.quote.total)} in the shipment with the sample. The billing contact is ${sample.billingName} (${sample.billingEmail}). The client's initial processing stays unpaid until we receive the check; they can sign the consent agreement after that.`;
  await deps.mailer.enqueue(
    tx,
    {
      to: physician.email,
      subject: `Physician Portal: new sample form for ${clientName} (${client.clientActId})`,
      text: [
        `Dear Dr. ${physician.lastName},`,
        'We received your new sample form and registered your client with the bank.',
        sampleFacts,
        payment,
        shipping,
        `We e-mailed ${client.firstName} their Client ID and a link to set their password.`,
      ].join('\n\n'),
    },
    { dedupeKey: `sample:${claim.sampleId}:physician` },
  );
  if (!charge && sample.billingEmail) {
    await deps.mailer.enqueue(
      tx,
      {
        to: sample.billingEmail,
        subject: `Initial sample processing: check of ${formatUsd(claim.quote.total)} for ${clientName}`,
        text: [
          `Dear ${sample.billingName},`,
          `Dr. ${physician.firstName} ${physician.lastName} sent us a new ${tissue.toLowerCase()} sample form for ${clientName} (Client ID ${client.clientActId}) and named you as the billing contact.`,
          `The up-front banking fee is ${formatUsd(claim.quote.total)}, to be paid by a check put in the shipment with the sample. Please write the Client ID on the check.`,
        ].join('\n\n'),
      },
      { dedupeKey: `sample:${claim.sampleId}:billing` },
    );
  }
  const token = await createWelcomeLink(tx, claim.clientId, now);
  await deps.mailer.enqueue(
    tx,
    {
      to: client.email,
      subject: 'Client Portal: welcome, and your Client ID',
      text: [
        `Dear ${client.firstName},`,
        `Dr. ${physician.lastName} registered you with the bank for the processing and storage of your ${tissue.toLowerCase()} sample. Your Client ID is ${client.clientActId}.`,
        `Please set your password to sign in to the Client Portal with this link. It can be used once, within ${WELCOME_LINK_DAYS} days:`,
        `${deps.publicUrl}/welcome/${token}`,
        charge
          ? 'Once signed in, please read and sign the consent agreement under Forms and Other Documents.'
          : 'Once the bank receives the payment for the initial processing, you can sign the consent agreement under Forms and Other Documents.',
        'If you did not expect this e-mail, please contact us.',
      ].join('\n\n'),
    },
    { dedupeKey: `sample:${claim.sampleId}:welcome` },
  );
  return responseOf(claim, charge);
}

/** A new sample on the paid-order workflow: a charge (or a check to come) completes the registration. */
function sampleOrder(deps: SampleDeps): PaidOrderKind<SampleClaim, SendProcessDataResponse> {
  return {
    kind: 'initial-processing',
    confirm: (tx, _deps, claim, charge) => completeSample(tx, deps, claim, charge),
    giveBack: (tx, claim) => removeUnfinishedRegistration(tx, claim.sampleId, claim.clientId),
    async stillClaimed(_deps, claim) {
      const [row] = await deps.db
        .select({ id: sampleSubmissions.id })
        .from(sampleSubmissions)
        .where(eq(sampleSubmissions.id, claim.sampleId))
        .limit(1);
      return row !== undefined;
    },
    messages: { interrupted: m.interrupted, notPaid: m.interrupted },
  };
}

/** The recovery of the sample kind, for the reconciliation sweep. */
export function initialProcessingRecoveries(deps: SampleDeps) {
  return { 'initial-processing': paidOrderRecovery(deps, sampleOrder(deps)) };
}

/**
 * send_ProcessData: registers a new client of the physician with their sample and pays the
 * up-front banking fee by the physician's card, or records the check to come in the shipment.
 * One Idempotency-Key, one client and at most one charge; a decline keeps nothing, so a retry
 * with another card registers the client afresh.
 */
export async function submitSample(
  deps: SampleDeps,
  input: { physicianId: string; idempotencyKey: string },
  body: SendProcessDataRequest,
): Promise<SendProcessDataResponse> {
  return placePaidOrder(deps, sampleOrder(deps), {
    owner: { scope: `physician:${input.physicianId}` },
    idempotencyKey: input.idempotencyKey,
    request: body,
    place: () => priceSample(deps, input, body),
  });
}

/** Prices a new sample form and checks its payment: its claim (the new client) and its charge. */
async function priceSample(
  deps: SampleDeps,
  input: { physicianId: string; idempotencyKey: string },
  body: SendProcessDataRequest,
): Promise<Placement<SampleClaim>> {
  const { db, clock } = deps;
  const { physicianId } = input;
  const now = clock.now();
  const paymentKind = body.CreditCard ? 'card' : 'check';
  const { book } = await priceBookInForce(db, now);
  const quote = initialProcessingQuote(book, body.Tissue, paymentKind);
  refuseChangedAmounts(
    [[body.expectedTotalCents, quote.total]],
    `The amount for this sample is ${quoteSummary(quote)}. Please review it and submit again.`,
  );
  const payment = body.CreditCard
    ? await resolveFormPayment(
        db,
        { physicianId },
        { ...body, PaymentMethod: 'Credit Card', update_ach: false, save_ach: false },
        {
          first: sampleCardEmptyMessages.Credit_Card_Holder_First_Name,
          last: sampleCardEmptyMessages.Credit_Card_Holder_Last_Name,
          month: sampleCardEmptyMessages.Month_of_Expiry,
          year: sampleCardEmptyMessages.Year_of_Expiry,
        },
        todayFor(now),
      )
    : null;

  // A registration of the same person whose owner died is settled first, so it neither blocks
  // this one for longer than a lease nor is registered twice.
  const abandoned = await pendingRegistrationOf(db, physicianId, body);
  if (abandoned) {
    const op = await operationById(db, abandoned);
    if (op && !isHeld(op, now))
      await recoverLapsed(deps, op.id, initialProcessingRecoveries(deps)['initial-processing']);
  }

  return {
    charge:
      payment && payment.kind === 'card'
        ? {
            source: INITIAL_PROCESSING_SOURCE,
            purpose: 'initial_processing',
            amountCents: quote.fee,
            feeCents: quote.processingFee,
            payment,
            description: (claim) =>
              `Initial sample processing, ${tissueLabels[body.Tissue]}, ${claim.clientActId}`,
            payer: { physicianId },
          }
        : null,
    async claim(tx, operationId) {
      await refuseDuplicate(tx, physicianId, body);
      const client = await registerClient(tx, physicianId, body, now);
      const [sample] = await tx
        .insert(sampleSubmissions)
        .values({
          clientId: client.id,
          physicianId,
          tissue: body.Tissue,
          shipDate: body.Ship_date,
          paymentKind,
          status: 'pending',
          amountCents: quote.fee,
          feeCents: quote.processingFee,
          totalCents: quote.total,
          billingName: paymentKind === 'check' ? (body.BillingName ?? null) : null,
          billingEmail: paymentKind === 'check' ? (body.BillingEmail ?? null) : null,
          operationId,
          createdAt: now,
        })
        .returning({ id: sampleSubmissions.id });
      if (!sample) throw new Error('the sample was not recorded');
      return {
        sampleId: sample.id,
        clientId: client.id,
        clientActId: client.actId,
        physicianId,
        paymentKind,
        quote,
      };
    },
  };
}
