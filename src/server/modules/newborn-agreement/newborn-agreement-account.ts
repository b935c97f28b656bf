import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { installmentPaidOn } from '../../../domain/newborn-agreement';
import {
  type AgreementAccount,
  type AgreementPaymentRequest,
  type AgreementPaymentResponse,
  accountInstallmentState,
  earlyPayoffCents,
  installmentIsOverdue,
  installmentOwedCents,
  installmentAccountMessages as m,
  type SetAgreementMethodRequest,
} from '../../../domain/newborn-installments';
import { PAYMENT_SOURCES, type SetPaymentInfoRequest } from '../../../domain/payment-info';
import { cardProcessingFee } from '../../../domain/payments';
import { describeMethodOnFile } from '../../../domain/storage-billing';
import { HttpError } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { refuseChangedOrderTotal } from '../../lib/shown-amounts';
import { recordActivity } from '../clients/client-activities';
import { billingDayOf } from '../payments/billing-run';
import {
  type PaidCharge,
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  paidOrderRecovery,
  placePaidOrder,
} from '../payments/paid-order';
import { findMethodsOnFile, methodToCharge } from '../payments/payment-methods';
import { savePaymentMethod } from '../payments/payment-service';
import { priceBookInForce } from '../prices/price-book-repository';
import { newbornAgreements, newbornInstallments } from './schema';

/**
 * The signed agreement's page for the main contact (issue 21), opened by its signed link: the
 * schedule with each installment's state, the method the installments are charged to and a new
 * one to replace it (tokenized in the browser), and two payments on the paid-order workflow: the
 * overdue installments, or the whole balance early (the remaining principal without future
 * interest: src/domain/newborn-installments.ts `earlyPayoffCents`).
 */

type AgreementRow = typeof newbornAgreements.$inferSelect;
type InstallmentRow = typeof newbornInstallments.$inferSelect;
type Db = PaidOrderDeps['db'] | Transaction;

const KIND = 'newborn-agreement-payment';

const notSigned = () => new HttpError('NOT_ALLOWED_NOW', m.notSigned);

async function openInstallments(db: Db, agreementId: string): Promise<InstallmentRow[]> {
  return db
    .select()
    .from(newbornInstallments)
    .where(
      and(
        eq(newbornInstallments.agreementId, agreementId),
        ne(newbornInstallments.status, 'paid'),
        isNull(newbornInstallments.paymentId),
      ),
    )
    .orderBy(asc(newbornInstallments.number));
}

/** What each installment a payment covers settles: in full, or (ahead of its date, on a payoff) its principal. */
function settlements(rows: readonly InstallmentRow[], pay: AgreementPaymentRequest['pay'], day: string) {
  const covered = pay === 'overdue' ? rows.filter((row) => installmentIsOverdue(row, day)) : rows;
  return covered.map((row) => ({
    id: row.id,
    cents: pay === 'payoff' ? earlyPayoffCents([row], day) : installmentOwedCents(row),
    paidOn: installmentPaidOn(row, day),
  }));
}

async function methodOf(deps: Pick<PaidOrderDeps, 'db'>, agreement: AgreementRow) {
  return methodToCharge(await findMethodsOnFile(deps.db, agreement.clientId), agreement.paymentKind);
}

/** The schedule and what can be paid now, on the billing day (today, or where a demo run reached). */
export async function agreementAccount(
  deps: Pick<PaidOrderDeps, 'db' | 'clock'>,
  agreement: AgreementRow,
): Promise<AgreementAccount> {
  if (!agreement.signedAt) throw notSigned();
  const { day } = await billingDayOf(deps);
  const rows = await deps.db
    .select()
    .from(newbornInstallments)
    .where(eq(newbornInstallments.agreementId, agreement.id))
    .orderBy(asc(newbornInstallments.number));
  const method = await methodOf(deps, agreement);
  const { book } = await priceBookInForce(deps.db, deps.clock.now());
  const open = rows.filter((row) => row.status !== 'paid' && !row.paymentId);
  const amounts = (amountCents: number) => {
    if (amountCents <= 0) return null;
    const feeCents = method ? cardProcessingFee(book, amountCents, method.kind) : 0;
    return { amountCents, feeCents, totalCents: amountCents + feeCents };
  };
  const sum = (list: { cents: number }[]) => list.reduce((total, item) => total + item.cents, 0);
  return {
    mainContact: agreement.mainContact,
    day,
    method: method ? describeMethodOnFile(method) : null,
    methodKind: method?.kind ?? null,
    installments: rows.map((row) => ({
      number: row.number,
      dueDate: row.dueDate,
      paymentCents: row.paymentCents,
      lateChargeCents: row.lateChargeCents,
      state: accountInstallmentState(row, day),
      paidOn: row.paidOn,
      paidCents: row.paidTotalCents,
    })),
    overdue: amounts(sum(settlements(open, 'overdue', day))),
    payoff: amounts(sum(settlements(open, 'payoff', day))),
  };
}

/**
 * A new card or bank account for the installments: kept on file (the client's method of that
 * kind) and named on the agreement, so the next installments, and the retries, are charged to it.
 * Nothing is charged now: the page's own button pays what is overdue.
 */
export async function changeAgreementMethod(
  deps: PaidOrderDeps,
  agreement: AgreementRow,
  body: SetAgreementMethodRequest,
  idempotencyKey: string,
): Promise<{ message: string; method: string }> {
  if (!agreement.signedAt) throw notSigned();
  const { ClientId: _token, authorizeCharges: _ok, ...request } = body;
  await savePaymentMethod(deps, {
    clientId: agreement.clientId,
    source: PAYMENT_SOURCES.newbornAgreement,
    idempotencyKey: `newborn-method:${agreement.id}:${idempotencyKey}`,
    request: request as SetPaymentInfoRequest,
    chargeOverdue: false,
  });
  const kind = body.Payment_Type === 'CC' ? 'card' : 'ach';
  await deps.db
    .update(newbornAgreements)
    .set({ paymentKind: kind })
    .where(eq(newbornAgreements.id, agreement.id));
  const method = await methodOf(deps, { ...agreement, paymentKind: kind });
  return { message: m.methodSaved, method: method ? describeMethodOnFile(method) : '' };
}

interface PaymentClaim {
  agreementId: string;
  pay: AgreementPaymentRequest['pay'];
  day: string;
  /** Each installment the payment settles, what it settles, and the day it is paid on. */
  settled: { id: string; cents: number; paidOn?: string }[];
}

async function confirmPayment(
  tx: Transaction,
  deps: PaidOrderDeps,
  claim: PaidClaim<PaymentClaim>,
  charge: PaidCharge | null,
): Promise<AgreementPaymentResponse> {
  if (!charge) throw new Error('an agreement payment is always charged');
  const now = deps.clock.now();
  let paidCount = 0;
  // Each installment keeps what the payment charged for it (as the billing run's do): what it
  // settled and its share of the card fee, the last taking the rounding, so they add up to the charge.
  const settledCents = claim.settled.reduce((total, item) => total + item.cents, 0);
  let feeLeft = charge.feeCents;
  const shares = claim.settled.map((item, index) => {
    const fee =
      index === claim.settled.length - 1
        ? feeLeft
        : Math.round((charge.feeCents * item.cents) / Math.max(settledCents, 1));
    feeLeft -= fee;
    return { ...item, totalCents: item.cents + fee };
  });
  for (const item of shares) {
    const [paid] = await tx
      .update(newbornInstallments)
      .set({
        status: 'paid',
        paidAt: now,
        // A claim written before the day was kept per installment is dated on its billing day.
        paidOn: item.paidOn ?? claim.day,
        paymentId: charge.paymentId,
        paidTotalCents: item.totalCents,
        claimOperationId: null,
        nextTryOn: null,
      })
      .where(
        and(eq(newbornInstallments.id, item.id), eq(newbornInstallments.claimOperationId, claim.operationId)),
      )
      .returning({ id: newbornInstallments.id });
    if (paid) paidCount += 1;
  }
  const [agreement] = await tx
    .select()
    .from(newbornAgreements)
    .where(eq(newbornAgreements.id, claim.agreementId))
    .limit(1);
  const what =
    claim.pay === 'payoff'
      ? 'Newborn Finance Agreement paid off early'
      : `Newborn Finance Agreement overdue installments (${claim.settled.length})`;
  await recordActivity(tx, {
    clientId: claim.clientId,
    type: 'Newborn Finance Installment',
    closeDate: claim.day,
    purchasedPlanName: what,
    stageName: 'Closed Won',
    paymentId: charge.paymentId,
    amountCents: charge.totalCents,
  });
  if (agreement) {
    const method = describeMethodOnFile({ kind: charge.kind, brand: charge.brand, last4: charge.last4 });
    await deps.mailer.enqueue(
      tx,
      {
        to: agreement.mainContactEmail,
        subject:
          claim.pay === 'payoff'
            ? 'Receipt: your Newborn Finance Agreement is paid off'
            : 'Receipt: your overdue newborn finance installments',
        text: [
          `Dear ${agreement.mainContact},`,
          `We charged ${formatUsd(charge.totalCents)} to your ${method} on ${isoToUsDate(claim.day)}${charge.feeCents > 0 ? ` (${formatUsd(charge.amountCents)} and the ${formatUsd(charge.feeCents)} card processing fee)` : ''}. Transaction ${charge.transactionId}.`,
          claim.pay === 'payoff'
            ? 'Your Newborn Finance Agreement is paid in full: no more installments will be charged. Thank you.'
            : `It pays ${claim.settled.length === 1 ? 'the overdue installment' : `the ${claim.settled.length} overdue installments`}. Thank you.`,
          'The receipt is attached.',
        ].join('\n\n'),
        attachments: charge.receiptDocumentId
          ? [
              {
                documentId: charge.receiptDocumentId,
                filename: 'receipt.pdf',
                contentType: 'application/pdf',
              },
            ]
          : [],
      },
      { dedupeKey: `newborn-payment:${claim.operationId}` },
    );
  }
  return {
    message: claim.pay === 'payoff' ? m.paidOff : m.overduePaid,
    amountChargedCents: charge.totalCents,
    TransactionId: charge.transactionId,
    installmentsPaid: paidCount,
  };
}

async function giveBackPayment(tx: Transaction, claim: PaidClaim<PaymentClaim>) {
  await tx
    .update(newbornInstallments)
    .set({ claimOperationId: null })
    .where(
      and(
        eq(newbornInstallments.agreementId, claim.agreementId),
        eq(newbornInstallments.claimOperationId, claim.operationId),
      ),
    );
}

const agreementPayment: PaidOrderKind<PaymentClaim, AgreementPaymentResponse> = {
  kind: KIND,
  receipt: true,
  confirm: confirmPayment,
  giveBack: giveBackPayment,
  async stillClaimed(deps, claim) {
    const [held] = await deps.db
      .select({ id: newbornInstallments.id })
      .from(newbornInstallments)
      .where(eq(newbornInstallments.claimOperationId, claim.operationId))
      .limit(1);
    return held !== undefined;
  },
  messages: { interrupted: m.interrupted, notPaid: m.notPaid },
};

export function agreementPaymentRecoveries(deps: PaidOrderDeps) {
  return { [KIND]: paidOrderRecovery(deps, agreementPayment) };
}

/**
 * Pays the overdue installments, or the balance early, with the method on file, once per
 * Idempotency-Key; and once whatever the keys: the claim locks the agreement's row and holds each
 * installment it pays (a second payment, or the billing run, finds them held or paid and charges
 * nothing).
 */
export async function payAgreement(
  deps: PaidOrderDeps,
  agreement: AgreementRow,
  body: AgreementPaymentRequest,
  idempotencyKey: string,
): Promise<AgreementPaymentResponse> {
  return placePaidOrder(deps, agreementPayment, {
    owner: { clientId: agreement.clientId },
    idempotencyKey: `newborn-payment:${agreement.id}:${idempotencyKey}`,
    request: { pay: body.pay, expectedTotalCents: body.expectedTotalCents },
    place: async () => {
      if (!agreement.signedAt) throw notSigned();
      const { day } = await billingDayOf(deps);
      const settled = settlements(await openInstallments(deps.db, agreement.id), body.pay, day);
      const amountCents = settled.reduce((total, item) => total + item.cents, 0);
      if (amountCents <= 0) throw new HttpError('NOT_ALLOWED_NOW', m.nothingOwed);
      const method = await methodOf(deps, agreement);
      if (!method) throw new HttpError('NOT_ALLOWED_NOW', m.noMethod);
      const { book } = await priceBookInForce(deps.db, deps.clock.now());
      const feeCents = cardProcessingFee(book, amountCents, method.kind);
      refuseChangedOrderTotal(body, amountCents + feeCents, m.changed(formatUsd(amountCents + feeCents)));
      return {
        async claim(tx, operationId) {
          // One payment of an agreement at a time: the row lock orders two claims, and the second
          // finds the installments held (or paid) and refuses.
          await tx
            .select({ id: newbornAgreements.id })
            .from(newbornAgreements)
            .where(eq(newbornAgreements.id, agreement.id))
            .for('update');
          const held = await tx
            .update(newbornInstallments)
            .set({ claimOperationId: operationId })
            .where(
              and(
                inArray(
                  newbornInstallments.id,
                  settled.map((item) => item.id),
                ),
                ne(newbornInstallments.status, 'paid'),
                isNull(newbornInstallments.claimOperationId),
                isNull(newbornInstallments.paymentId),
              ),
            )
            .returning();
          if (held.length !== settled.length) throw new HttpError('NOT_ALLOWED_NOW', m.busy);
          // The billing run may have added a late charge since they were priced: then the amount
          // named is not what is owed, and nothing is held or charged.
          const owed = settlements(held, body.pay, day).reduce((total, item) => total + item.cents, 0);
          if (owed !== amountCents) {
            const total = owed + cardProcessingFee(book, owed, method.kind);
            throw new HttpError('AMOUNT_CHANGED', m.changed(formatUsd(total)));
          }
          return { agreementId: agreement.id, pay: body.pay, day, settled };
        },
        charge: {
          source: 'Newborn Finance Agreement',
          purpose: 'newborn_installment',
          amountCents,
          feeCents,
          payment: { kind: method.kind, onFile: method },
          description:
            body.pay === 'payoff'
              ? 'Newborn Finance Agreement early payoff'
              : 'Newborn Finance Agreement overdue installments',
        },
      };
    },
  });
}
