import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { todayFor } from '../../../domain/client-basics';
import { isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import {
  installmentSchedule,
  installmentScheduleRows,
  newbornAgreementMessages as m,
  NEWBORN_AGREEMENT_TITLE,
  NEWBORN_PAYMENT_AUTHORIZATION,
  newbornAgreementRows,
  newbornAgreementTerms,
  type SetClientAgreementRequest,
  type SetClientAgreementResponse,
} from '../../../domain/newborn-agreement';
import { PAYMENT_SOURCES, type SetPaymentInfoRequest } from '../../../domain/payment-info';
import { cardFeePercent, cardProcessingFee } from '../../../domain/payments';
import { SHIPPED_PRICE_BOOK } from '../../../domain/price-book';
import { orderNumber } from '../../../domain/site';
import { describeMethodOnFile } from '../../../domain/storage-billing';
import { readDocument, storeDocument } from '../../lib/document-store';
import { HttpError } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { sha256Hex } from '../../lib/secrets';
import { refuseChangedOrderTotal } from '../../lib/shown-amounts';
import { recordActivity } from '../clients/client-activities';
import { clientContact } from '../clients/client-directory';
import { readSignature } from '../forms/form-claims';
import { renderSignedPdf } from '../forms/signed-pdf';
import { refuseCardExpiry } from '../payments/ledger';
import {
  type PaidCharge,
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  paidOrderRecovery,
  placePaidOrder,
} from '../payments/paid-order';
import { savePaymentMethod } from '../payments/payment-service';
import { priceBookInForce } from '../prices/price-book-repository';
import { agreementOfLink, figuresOf } from './newborn-agreement-service';
import { agreementPageLink } from './newborn-installments';
import { newbornAgreements, newbornInstallments } from './schema';

/**
 * Signing a newborn finance agreement collects (issue 21, DESIGN 8a): the main contact signs,
 * authorizes the charges and gives a card or bank account (tokenized in the browser), and the
 * agreement's deposit, with the price book's card fee on a card, is charged once through the
 * paid-order workflow:
 *
 * - price: the deposit and its fee from the book in force, checked against the amount the button
 *   named (a different one charges nothing);
 * - claim: the agreement held by the signing's operation (one signing at a time, none once
 *   signed), and the drawn signature stored under it;
 * - charge: the deposit, the method kept on file for the installments;
 * - confirm: the signed PDF (figures, terms, schedule, authorization, signature, certificate), the
 *   agreement signed, its installments written from the schedule, the deposit's Client Activity
 *   row and the e-mail with the PDF and the receipt, in one transaction with the answer;
 * - give-back: a decline leaves the agreement unsigned and free to sign again.
 */

const KIND = 'newborn-agreement-signing';
const SOURCE = 'Newborn Finance Agreement';
const AGREEMENT_VERSION = 'newborn-finance-2027-01';

interface SigningClaim {
  agreementId: string;
  signatureDocumentId: string;
  /** When it was signed (ISO), from where: the confirmation reads them, also in recovery. */
  at: string;
  ip: string;
  userAgent: string;
  kind: 'card' | 'ach';
  /** The book's card fee rate as shown ("3%"), for the PDF. */
  feePercent: string;
  /** The book's late charge, a term the agreement keeps (absent in a claim from before it: as shipped). */
  lateChargeCents?: number;
}

const lateChargeOf = (claim: SigningClaim) =>
  claim.lateChargeCents ?? SHIPPED_PRICE_BOOK.newbornLateChargeCents;

const alreadySigned = () => new HttpError('ALREADY_COMPLETED', m.alreadySigned);

async function agreementRow(db: PaidOrderDeps['db'] | Transaction, id: string) {
  const [row] = await db.select().from(newbornAgreements).where(eq(newbornAgreements.id, id)).limit(1);
  return row;
}

/** The card or account as the ledger takes it: its token and the fields a person reads back. */
function paymentRequestOf(body: SetClientAgreementRequest): SetPaymentInfoRequest {
  const {
    ClientId: _id,
    signatureData: _signature,
    NBAgreementCompleted: _flag,
    authorizeCharges: _ok,
    ...rest
  } = body;
  return rest;
}

/** What signing needs besides the workflow: the link to the agreement's page its e-mail gives. */
export type SigningDeps = PaidOrderDeps & { publicUrl: string; linkSecret: Buffer };

/** The signed PDF and its e-mail, the agreement signed and its installments written. */
async function confirmSigning(
  tx: Transaction,
  deps: SigningDeps,
  claim: PaidClaim<SigningClaim>,
  charge: PaidCharge | null,
): Promise<SetClientAgreementResponse> {
  const answer: SetClientAgreementResponse = {
    NB_Finance_Agreement_Completed__c: true,
    message: m.completed,
    amountChargedCents: charge?.totalCents ?? 0,
    TransactionId: charge?.transactionId ?? null,
  };
  const row = await agreementRow(tx, claim.agreementId);
  if (!row) throw alreadySigned();
  if (row.signedAt) return answer;
  const at = new Date(claim.at);
  const signedOn = todayFor(at);
  const client = await clientContact(tx, claim.clientId);
  if (!client) throw alreadySigned();
  const signature = await readDocument(tx, deps.documentsKey, claim.clientId, claim.signatureDocumentId);
  if (!signature) throw new Error('the signature of the signing is gone');

  const figures = figuresOf(row);
  const schedule = installmentSchedule(figures, signedOn);
  const scheduleRows = installmentScheduleRows(schedule);
  const method = charge
    ? describeMethodOnFile({ kind: charge.kind, brand: charge.brand, last4: charge.last4 })
    : claim.kind === 'card'
      ? 'the card given'
      : 'the bank account given';
  const authorization = [
    NEWBORN_PAYMENT_AUTHORIZATION,
    `Payment method: ${method}.`,
    charge
      ? `Deposit charged on ${isoToUsDate(signedOn)}: ${formatUsd(charge.totalCents)}${charge.feeCents > 0 ? ` (${formatUsd(charge.amountCents)} and the ${formatUsd(charge.feeCents)} card processing fee)` : ''}, transaction ${charge.transactionId}.`
      : 'No deposit is due.',
  ];
  const rows = newbornAgreementRows(figures);
  const terms = newbornAgreementTerms(figures, {
    cardFeePercent: claim.feePercent,
    lateChargeCents: lateChargeOf(claim),
  });
  const columns = ['Date', 'Payment', 'Interest', 'Principal', 'Balance'];
  const tableRows = scheduleRows.map((r) => [r.date, r.payment, r.interest, r.principal, r.balance]);
  const signedText = [
    NEWBORN_AGREEMENT_TITLE,
    AGREEMENT_VERSION,
    ...rows.map((r) => `${r.label}: ${r.value}`),
    ...terms,
    ...tableRows.map((r) => r.join(' ')),
    ...authorization,
  ].join('\n');
  const pdf = await renderSignedPdf({
    title: NEWBORN_AGREEMENT_TITLE,
    subtitle: `Version ${AGREEMENT_VERSION}`,
    sections: [
      { heading: 'Terms', paragraphs: terms },
      { heading: 'Payment authorization', paragraphs: authorization },
    ],
    answers: rows,
    tables: [
      {
        heading: 'Payment schedule',
        columns,
        rows: tableRows,
        note:
          claim.kind === 'card'
            ? `Each installment is charged on its date to the ${method}, with the ${claim.feePercent} card processing fee.`
            : `Each installment is charged on its date to the ${method}.`,
      },
    ],
    signaturePng: signature.content,
    certificate: {
      signer: row.mainContact,
      clientActId: client.clientActId,
      signedAt: at,
      ip: claim.ip,
      userAgent: claim.userAgent,
      textSha256: sha256Hex(signedText),
      signatureSha256: createHash('sha256').update(signature.content).digest('hex'),
      reference: row.id,
    },
  });
  const fileStem = `Newborn finance agreement ${client.clientActId}`;
  const document = await storeDocument(tx, deps.documentsKey, {
    clientId: claim.clientId,
    kind: 'signed_agreement',
    fileName: `${fileStem}.pdf`,
    contentType: 'application/pdf',
    content: pdf,
    now: at,
    operationId: claim.operationId,
  });
  const [signed] = await tx
    .update(newbornAgreements)
    .set({
      signedAt: at,
      lateChargeCents: lateChargeOf(claim),
      signerIp: claim.ip,
      userAgent: claim.userAgent,
      documentId: document.id,
      signingOperationId: null,
      paymentKind: claim.kind,
      depositPaymentId: charge?.paymentId ?? null,
      depositTotalCents: charge?.totalCents ?? 0,
    })
    .where(
      and(
        eq(newbornAgreements.id, row.id),
        isNull(newbornAgreements.signedAt),
        eq(newbornAgreements.signingOperationId, claim.operationId),
      ),
    )
    .returning({ id: newbornAgreements.id });
  if (!signed) throw alreadySigned();
  if (schedule.length > 0 && figures.totalFinancedCents > 0) {
    await tx.insert(newbornInstallments).values(
      schedule.map((installment) => ({
        agreementId: row.id,
        clientId: claim.clientId,
        ...installment,
      })),
    );
  }
  if (charge) {
    await recordActivity(tx, {
      clientId: claim.clientId,
      type: 'Newborn Finance Deposit',
      closeDate: signedOn,
      purchasedPlanName: 'Newborn Finance Agreement deposit',
      stageName: 'Closed Won',
      paymentId: charge.paymentId,
      amountCents: charge.totalCents,
    });
  }
  const [first] = schedule;
  await deps.mailer.enqueue(
    tx,
    {
      to: row.mainContactEmail,
      subject: 'Your signed Newborn Finance Agreement',
      text: [
        `Dear ${row.mainContact},`,
        'Thank you for signing your Newborn Finance Agreement. Your signed copy, with the payment schedule and your authorization, is attached.',
        charge
          ? `We charged the deposit of ${formatUsd(charge.totalCents)} to your ${method}. Transaction ${charge.transactionId}. The receipt is attached.`
          : '',
        first && figures.totalFinancedCents > 0
          ? `Your ${schedule.length} monthly installments are charged automatically to your ${method}, the first of ${formatUsd(first.paymentCents)} on ${isoToUsDate(first.dueDate)}${claim.kind === 'card' ? `, with the ${claim.feePercent} card processing fee` : ''}. We e-mail you a reminder 3 days before each one, and a receipt after it.`
          : '',
        figures.totalFinancedCents > 0
          ? `Your payment schedule, a new payment method, or paying the balance off early (the link is for you only and works for 14 days): ${agreementPageLink(deps, row.id)}`
          : '',
        `Reference ${orderNumber('NA', row.id)}.`,
      ]
        .filter(Boolean)
        .join('\n\n'),
      attachments: [
        { documentId: document.id, filename: `${fileStem}.pdf`, contentType: 'application/pdf' },
        ...(charge?.receiptDocumentId
          ? [
              {
                documentId: charge.receiptDocumentId,
                filename: 'receipt.pdf',
                contentType: 'application/pdf',
              },
            ]
          : []),
      ],
    },
    { dedupeKey: `newborn-agreement:${row.id}` },
  );
  return answer;
}

/** A signing that took nothing: the agreement is free to sign again (its signature goes with the operation). */
async function giveBackSigning(tx: Transaction, claim: PaidClaim<SigningClaim>) {
  await tx
    .update(newbornAgreements)
    .set({ signingOperationId: null })
    .where(
      and(
        eq(newbornAgreements.id, claim.agreementId),
        eq(newbornAgreements.signingOperationId, claim.operationId),
      ),
    );
}

/** The signing of an agreement on the paid-order workflow. */
function newbornSigning(deps: SigningDeps): PaidOrderKind<SigningClaim, SetClientAgreementResponse> {
  return {
    kind: KIND,
    receipt: true,
    confirm: (tx, _deps, claim, charge) => confirmSigning(tx, deps, claim, charge),
    giveBack: giveBackSigning,
    async stillClaimed(_deps, claim) {
      return (await agreementRow(deps.db, claim.agreementId))?.signingOperationId === claim.operationId;
    },
    messages: { interrupted: m.interrupted, notPaid: m.notPaid },
  };
}

export function newbornSigningRecoveries(deps: SigningDeps) {
  return { [KIND]: paidOrderRecovery(deps, newbornSigning(deps)) };
}

/**
 * Signs the agreement a link opens and charges its deposit, once: keyed by the agreement and the
 * submission's Idempotency-Key (a retry is answered as it was), and held by one signing at a time
 * (a second submission, concurrent or later, charges nothing).
 */
export async function signNewbornAgreement(
  deps: SigningDeps,
  input: {
    token: string;
    body: SetClientAgreementRequest;
    idempotencyKey: string;
    ip: string;
    userAgent: string;
    now: Date;
  },
): Promise<SetClientAgreementResponse> {
  const { body, now } = input;
  const row = await agreementOfLink(deps, input.token, now);
  const request = {
    ...paymentRequestOf(body),
    signatureSha256: sha256Hex(body.signatureData),
  };
  return placePaidOrder(deps, newbornSigning(deps), {
    owner: { clientId: row.clientId },
    idempotencyKey: `newborn-agreement:${row.id}:${input.idempotencyKey}`,
    request,
    place: async () => {
      if (row.signedAt) throw alreadySigned();
      const png = await readSignature(body.signatureData);
      if (!png) throw new HttpError('VALIDATION', m.signature, { signatureData: m.signature });
      const kind: 'card' | 'ach' = body.Payment_Type === 'CC' ? 'card' : 'ach';
      // Kept on file for the installments.
      refuseCardExpiry(kind, body, todayFor(now), { keptOnFile: true });
      // The deposit is priced by the book in force as it is signed.
      const { book } = await priceBookInForce(deps.db, now);
      const feeCents = cardProcessingFee(book, row.downPaymentCents, kind);
      const totalCents = row.downPaymentCents + feeCents;
      refuseChangedOrderTotal(
        body,
        totalCents,
        `The deposit is ${formatUsd(totalCents)}. Please check it and sign again.`,
      );
      return {
        charge:
          totalCents > 0
            ? {
                source: SOURCE,
                purpose: 'newborn_deposit',
                amountCents: row.downPaymentCents,
                feeCents,
                // Kept on file: the installments are charged to it.
                payment: { kind, token: paymentRequestOf(body), keepOnFile: true },
                description: 'Newborn Finance Agreement deposit',
              }
            : null,
        // Nothing to charge now: the method is still kept on file for the installments.
        ...(totalCents > 0
          ? {}
          : {
              beforeCharge: async () => {
                await savePaymentMethod(deps, {
                  clientId: row.clientId,
                  source: PAYMENT_SOURCES.newbornAgreement,
                  idempotencyKey: `newborn-agreement:${row.id}:${input.idempotencyKey}:method`,
                  request: paymentRequestOf(body),
                  chargeOverdue: false,
                });
              },
            }),
        async claim(tx, operationId) {
          const [held] = await tx
            .update(newbornAgreements)
            .set({ signingOperationId: operationId })
            .where(
              and(
                eq(newbornAgreements.id, row.id),
                isNull(newbornAgreements.signedAt),
                isNull(newbornAgreements.signingOperationId),
              ),
            )
            .returning({ id: newbornAgreements.id });
          if (!held) {
            const now = await agreementRow(tx, row.id);
            throw now?.signedAt ? alreadySigned() : new HttpError('NOT_ALLOWED_NOW', m.beingSigned);
          }
          const client = await clientContact(tx, row.clientId);
          const stored = await storeDocument(tx, deps.documentsKey, {
            clientId: row.clientId,
            kind: 'signature',
            fileName: `Newborn finance agreement ${client?.clientActId ?? ''}-signature.png`,
            contentType: 'image/png',
            content: png,
            now,
            operationId,
          });
          return {
            agreementId: row.id,
            signatureDocumentId: stored.id,
            at: now.toISOString(),
            ip: input.ip,
            userAgent: input.userAgent,
            kind,
            feePercent: cardFeePercent(book),
            lateChargeCents: book.newbornLateChargeCents,
          };
        },
      };
    },
  });
}
