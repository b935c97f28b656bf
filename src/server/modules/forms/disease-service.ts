import { eq } from 'drizzle-orm';
import { todayFor } from '../../../domain/client';
import { documentMessages, labReportProblem } from '../../../domain/documents';
import {
  DISEASE_FORM_SOURCE,
  dataUrlBytes,
  diseaseMessages,
  INFECTIOUS_DISEASE_TERMS_VERSION,
  type SetDiseaseDataRequest,
  whiteGloveQuote,
} from '../../../domain/infectious-disease';
import { formatUsd } from '../../../domain/money';
import type { PriceBook } from '../../../domain/price-book';
import { formSubmissions } from '../../db/schema';
import { readDocument, storeDocument } from '../../lib/document-store';
import { faultPoint } from '../../lib/faults';
import { HttpError } from '../../lib/http-error';
import { pdfSafetyProblem } from '../../lib/pdf-safety';
import type { Transaction } from '../../lib/run-once';
import { openText, sealText } from '../../lib/sealed-text';
import { centsOf, refuseChangedAmounts } from '../../lib/shown-amounts';
import {
  type OrderPayment,
  type PaidCharge,
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  type Placement,
  paidOrderRecovery,
  placePaidOrder,
} from '../payments/paid-order';
import { priceBookInForce } from '../prices/price-book-repository';
import {
  claimForm,
  FORM_INTERRUPTED,
  type FormClaim,
  type FormSubmission,
  formStillClaimed,
  readSignature,
  releaseForm,
  settleAbandonedClaim,
} from './form-claims';
import { paymentShown, resolveFormPayment } from './form-payment';
import {
  type DiseaseSubmissionResponse,
  FILE_STEM,
  type ScreeningResume,
  type SubmittingPhysician,
  screeningRecord,
} from './screening-record';
import { clientOf, completeSignedFormIn, type SignerContext, signerOf } from './signed-record';

/**
 * set_DiseaseData and set_PhysicianDiseaseData: one of the three screening routes, placed through
 * the paid-order workflow (payments/paid-order.ts) in three steps and a give-back:
 *
 * - price (`priceScreening`): the route checked, White Glove Labs priced from the book in force
 *   and its payment resolved (the client's method, or the submitting physician's own card);
 * - claim (`claimScreening`): the client's one submission of the form (form-claims.ts), with what
 *   its finish reads stored under the operation: the lab report or the waiver's signature, and,
 *   sealed, the answers;
 * - confirm (`confirmScreening`): the finish, in one transaction with the answer: the signed PDF,
 *   the form completed, the Client Activity row and the e-mails;
 * - give-back (`releaseForm`): the pending submission and its documents.
 *
 * The workflow charges White Glove Labs once through the ledger; a form whose charge went
 * through is finished by recovery, never given back, and a new submission meanwhile finds it
 * finished (or still being settled), so the client is never charged twice.
 */
const KIND = 'infectious-disease';
const FORM = 'infectious_disease';

/** The route chosen, checked: White Glove Labs priced and its payment resolved, a lab report, a waiver's signature. */
type ScreeningRoute =
  | {
      option: 'White Glove Labs';
      quote: ReturnType<typeof whiteGloveQuote>;
      payment: Exclude<OrderPayment, { kind: 'check' }>;
    }
  | { option: 'Local Lab Submission'; labReport: Buffer }
  | { option: 'Waiver Submission'; signaturePng: Buffer };

/** The screening's claim: the client's one submission of the form, and what its finish needs. */
interface ScreeningClaim extends FormClaim {
  /** A ScreeningResume sealed under the documents key: it names the client and their answers. */
  resume: string;
}

/** The answers as kept with the form: no signature, payment token or file. */
function keptAnswers(body: SetDiseaseDataRequest): SetDiseaseDataRequest {
  return { ...body, Signature: undefined, token: undefined, lab_report_file: undefined };
}

/** The screening on the paid-order workflow. */
const screening: PaidOrderKind<ScreeningClaim, DiseaseSubmissionResponse> = {
  kind: KIND,
  confirm: confirmScreening,
  giveBack: releaseForm,
  stillClaimed: (deps, claim) => formStillClaimed(deps.db, claim),
  messages: {
    interrupted: FORM_INTERRUPTED,
    notPaid:
      'The White Glove Labs payment did not go through, and nothing of this form was kept. Please submit it again.',
  },
};

/** The recovery of a screening whose owner died, for the reconciliation sweep. */
export function screeningRecoveries(deps: PaidOrderDeps) {
  return { [KIND]: paidOrderRecovery(deps, screening) };
}

export async function submitDiseaseForm(
  deps: PaidOrderDeps,
  signer: SignerContext,
  body: SetDiseaseDataRequest,
  physician?: SubmittingPhysician,
): Promise<DiseaseSubmissionResponse> {
  return placePaidOrder(deps, screening, {
    owner: { clientId: signer.clientId },
    idempotencyKey: signer.idempotencyKey,
    request: body,
    place: () => priceScreening(deps, signer, body, physician ?? null),
  });
}

/** Checks the route chosen; for White Glove Labs, the server's amounts and the payment. */
async function checkRoute(
  deps: PaidOrderDeps,
  body: SetDiseaseDataRequest,
  book: PriceBook,
  payer: string | { physicianId: string },
  now: Date,
): Promise<ScreeningRoute> {
  const option = body.submissionOption;
  if (option === 'White Glove Labs') {
    const quote = whiteGloveQuote(book, body.PaymentMethod ?? 'Credit Card');
    checkQuotedAmounts(body, quote);
    const payment = await resolveFormPayment(
      deps.db,
      payer,
      body,
      {
        first: diseaseMessages.firstName,
        last: diseaseMessages.lastName,
        month: diseaseMessages.cardEmpty,
        year: diseaseMessages.cardEmpty,
      },
      todayFor(now),
    );
    // White Glove Labs is paid by card or bank account (the schema has no check for it).
    if (payment.kind === 'check') {
      throw new HttpError('VALIDATION', diseaseMessages.selectOption, {
        PaymentMethod: diseaseMessages.selectOption,
      });
    }
    return { option, quote, payment };
  }
  if (option === 'Local Lab Submission') {
    // Content that is no base64 data URL is no PDF either.
    const bytes = body.lab_report_file ? dataUrlBytes(body.lab_report_file) : null;
    const problem =
      body.lab_report_file && !bytes
        ? documentMessages.notPdf
        : (labReportProblem(bytes) ?? (bytes && (await pdfSafetyProblem(bytes))));
    if (problem || !bytes) {
      const message = problem ?? documentMessages.notPdf;
      throw new HttpError('VALIDATION', message, { lab_report_file: message });
    }
    return { option, labReport: Buffer.from(bytes) };
  }
  const signaturePng = await readSignature(body.Signature);
  if (!signaturePng) {
    throw new HttpError('VALIDATION', diseaseMessages.signature, {
      Signature: diseaseMessages.signature,
    });
  }
  return { option, signaturePng };
}

/** The amounts the page showed must be the server's; a forged or stale amount charges nothing. */
function checkQuotedAmounts(body: SetDiseaseDataRequest, quote: ReturnType<typeof whiteGloveQuote>) {
  refuseChangedAmounts(
    [
      [body.expectedTotalCents, quote.total],
      [centsOf(body.amount), quote.total],
      [centsOf(body.WhiteGloveLabFee), quote.labFee],
      [centsOf(body.CreditCardProcessingFee), quote.processingFee],
    ],
    `The White Glove Labs total is ${formatUsd(quote.total)}. Please review it and submit again.`,
  );
}

/**
 * Price: a new screening checked and priced from the book in force as it is submitted, and a
 * pending screening of this client whose owner died settled first (finished when its charge went
 * through, so its route holds and nothing is charged again).
 */
async function priceScreening(
  deps: PaidOrderDeps,
  signer: SignerContext,
  body: SetDiseaseDataRequest,
  physician: SubmittingPhysician | null,
): Promise<Placement<ScreeningClaim>> {
  const { db, clock } = deps;
  const { clientId } = signer;
  const now = clock.now();
  const { client } = await signerOf(deps, clientId);
  if (body.termsVersion !== undefined && body.termsVersion !== INFECTIOUS_DISEASE_TERMS_VERSION) {
    throw new HttpError('AGREEMENT_CHANGED', diseaseMessages.termsChanged);
  }
  const payer = physician ? { physicianId: physician.id } : undefined;
  const { book } = await priceBookInForce(db, now);
  const route = await checkRoute(deps, body, book, payer ?? clientId, now);
  await settleAbandonedClaim(deps, clientId, FORM, paidOrderRecovery(deps, screening));

  const resume: Omit<ScreeningResume, 'lab' | 'signature'> = {
    at: now.toISOString(),
    body: keptAnswers(body),
    signer: { ip: signer.ip, userAgent: signer.userAgent },
    physician,
    payment: route.option === 'White Glove Labs' ? paymentShown(route.payment) : null,
  };
  const submission: FormSubmission = {
    clientId,
    physicianId: physician?.id ?? null,
    form: FORM,
    idempotencyKey: signer.idempotencyKey,
    body,
    alreadyCompleted: diseaseMessages.alreadyCompleted,
    completedOnRecord: client.infectiousDiseaseFormCompleted,
  };
  return {
    charge:
      route.option === 'White Glove Labs'
        ? {
            source: DISEASE_FORM_SOURCE,
            purpose: 'white_glove_lab',
            amountCents: route.quote.labFee,
            feeCents: route.quote.processingFee,
            payment: route.payment,
            description: 'White Glove Labs infectious disease screening',
            ...(payer ? { payer } : {}),
          }
        : null,
    claim: (tx, operationId) => claimScreening(tx, deps, { submission, route, resume, now }, operationId),
    async afterCharge(claim, charge) {
      faultPoint('white-glove:after-charge');
      // Recorded on the claim at once, for the record of what this submission did.
      await db
        .update(formSubmissions)
        .set({ paymentId: charge.paymentId })
        .where(eq(formSubmissions.id, claim.submissionId));
    },
  };
}

/**
 * Claim: the client's one submission of the form, with what its finish reads stored under the
 * operation (given back with it): the lab report or the waiver's signature, and the answers,
 * sealed.
 */
async function claimScreening(
  tx: Transaction,
  deps: PaidOrderDeps,
  input: {
    submission: FormSubmission;
    route: ScreeningRoute;
    resume: Omit<ScreeningResume, 'lab' | 'signature'>;
    now: Date;
  },
  operationId: string,
): Promise<ScreeningClaim> {
  const { submission, route, resume, now } = input;
  const form = await claimForm(tx, deps, submission, operationId);
  const store = (kind: 'lab_report' | 'signature', fileName: string, contentType: string, content: Buffer) =>
    storeDocument(tx, deps.documentsKey, {
      clientId: form.clientId,
      kind,
      fileName,
      contentType,
      content,
      now,
      operationId,
    });
  let lab: ScreeningResume['lab'] = null;
  let signature: ScreeningResume['signature'] = null;
  if (route.option === 'Local Lab Submission') {
    const name = (resume.body.lab_report_name || 'lab-report.pdf').replace(/[^\w .-]/g, '_').slice(0, 100);
    const stored = await store('lab_report', name, 'application/pdf', route.labReport);
    lab = { documentId: stored.id, sha256: stored.sha256, bytes: route.labReport.length };
  } else if (route.option === 'Waiver Submission') {
    const stored = await store('signature', `${FILE_STEM}-signature.png`, 'image/png', route.signaturePng);
    signature = { documentId: stored.id, sha256: stored.sha256 };
  }
  const kept: ScreeningResume = { ...resume, lab, signature };
  return { ...form, resume: sealText(deps.documentsKey, JSON.stringify(kept)) };
}

/**
 * Confirm: the end of a screening, whether its submission runs to the end or recovery finishes
 * it after its owner died (all it reads is in its claim; a White Glove Labs form only once its
 * charge went through): the answers, the signed PDF and the e-mails, committed with the form, the
 * client's flag and the operation's answer.
 */
async function confirmScreening(
  tx: Transaction,
  deps: PaidOrderDeps,
  claim: PaidClaim<ScreeningClaim>,
  charge: PaidCharge | null,
): Promise<DiseaseSubmissionResponse> {
  const resume = JSON.parse(openText(deps.documentsKey, claim.resume)) as ScreeningResume;
  const now = new Date(resume.at);
  const client = await clientOf(tx, claim.clientId);
  const { book } = await priceBookInForce(tx, now);
  const signed = resume.signature
    ? await readDocument(tx, deps.documentsKey, claim.clientId, resume.signature.documentId)
    : null;
  if (resume.signature && !signed) throw new Error('the waiver signature of the claim is gone');
  return completeSignedFormIn(
    tx,
    deps,
    { claim, client, signer: resume.signer, now },
    screeningRecord(deps, { claim, client, resume, book, charge, signaturePng: signed?.content ?? null }),
  );
}
