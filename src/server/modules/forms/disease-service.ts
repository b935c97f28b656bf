import { and, eq } from 'drizzle-orm';
import { todayFor } from '../../../domain/client';
import type { FormSubmissionResponse } from '../../../domain/consent-form';
import { documentMessages, labReportProblem } from '../../../domain/documents';
import {
  DISEASE_FORM_SOURCE,
  dataUrlBytes,
  diseaseMessages,
  INFECTIOUS_DISEASE_TERMS_VERSION,
  infectiousDiseaseTerms,
  type SetDiseaseDataRequest,
  WAIVER_NOTICES,
  WAIVER_TEXT,
  whiteGloveQuote,
} from '../../../domain/infectious-disease';
import { centsToAmount, formatUsd } from '../../../domain/money';
import { cardFeePercent } from '../../../domain/payments';
import type { PriceBook } from '../../../domain/price-book';
import { clientActivities, formSubmissions, payments } from '../../db/schema';
import { storeDocument } from '../../lib/document-store';
import { faultPoint } from '../../lib/faults';
import { HttpError } from '../../lib/http-error';
import { pdfSafetyProblem } from '../../lib/pdf-safety';
import {
  findOperation,
  isHeld,
  operationById,
  type Recovered,
  type RecoveryRun,
  type Run,
  recoverLapsed,
} from '../../lib/run-once';
import { openText } from '../../lib/sealed-text';
import { centsOf, refuseChangedAmounts } from '../../lib/shown-amounts';
import { chargeOnce, type OneOffCharge, paymentRecoveries } from '../payments/payment-service';
import { priceBookInForce } from '../prices/price-book-repository';
import { type FormClaim, giveFormBack, readSignature, submitFormOnce } from './form-claims';
import {
  describePaidWith,
  type PaymentShown,
  paymentShown,
  type ResolvedPayment,
  resolveFormPayment,
} from './form-payment';
import { completeSignedForm, type FormDeps, type SignerContext, signerOf } from './signed-record';

/** An approved White Glove Labs charge of this client that no completed form accounts for. */
async function standingWhiteGloveCharge(db: FormDeps['db'], clientId: string): Promise<OneOffCharge | null> {
  const charged = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.clientId, clientId),
        eq(payments.purpose, 'white_glove_lab'),
        eq(payments.status, 'approved'),
      ),
    );
  if (charged.length === 0) return null;
  const completed = await db
    .select({ paymentId: formSubmissions.paymentId })
    .from(formSubmissions)
    .where(and(eq(formSubmissions.clientId, clientId), eq(formSubmissions.status, 'completed')));
  const used = new Set(completed.map((row) => row.paymentId));
  const standing = charged.find((row) => !used.has(row.id) && row.responseJson);
  return standing ? (JSON.parse(standing.responseJson as string) as OneOffCharge) : null;
}

const TITLE = 'Infectious Disease Screening Form';
const TEXT_VERSION = `Infectious disease terms, version ${INFECTIOUS_DISEASE_TERMS_VERSION}`;

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

/** The text the client agreed to for the route chosen: the terms, and for a waiver its texts. */
function agreedSections(body: SetDiseaseDataRequest, book: PriceBook) {
  const sections = [
    { heading: 'Infectious Disease Terms and Conditions', paragraphs: infectiousDiseaseTerms(book) },
  ];
  if (body.submissionOption === 'Waiver Submission' && body.WaiverNotice) {
    const notice = WAIVER_NOTICES[body.WaiverNotice];
    sections.push(
      { heading: 'Waiver', paragraphs: WAIVER_TEXT },
      { heading: notice.label, paragraphs: [notice.text] },
    );
  }
  return sections;
}

/** A physician who submits the form for their client and pays White Glove Labs with their own card. */
export interface SubmittingPhysician {
  id: string;
  actId: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** The answer of both variants: the client route shows the spec's fields, the physician's all of them. */
export type DiseaseSubmissionResponse = FormSubmissionResponse & {
  ClientId: string;
  ClientName: string;
  charged: {
    labFee: number;
    processingFee: number;
    total: number;
    brand: string | null;
    last4: string;
  } | null;
};

/** The physician's receipt for a White Glove Labs charge to their card, sent with the form's commit. */
function physicianReceipt(
  physician: SubmittingPhysician,
  client: { clientActId: string; firstName: string; lastName: string },
  charge: OneOffCharge,
  payment: PaymentShown,
  book: PriceBook,
) {
  return {
    to: physician.email,
    subject: `Physician Portal: White Glove Labs receipt for ${client.firstName} ${client.lastName} (${client.clientActId})`,
    text: [
      `Dear Dr. ${physician.lastName},`,
      `You submitted the infectious disease screening form of ${client.firstName} ${client.lastName} (Client ID ${client.clientActId}) by White Glove Labs.`,
      `We charged ${formatUsd(charge.totalCents)} (White Glove Labs fee ${formatUsd(charge.amountCents)} + card processing fee (${cardFeePercent(book)}) ${formatUsd(charge.feeCents)}) to your ${describePaidWith(payment, charge)}. Transaction ${charge.transactionId}.`,
    ].join('\n\n'),
  };
}

/**
 * set_DiseaseData and set_PhysicianDiseaseData: one of the three screening routes. White Glove
 * Labs is charged through the payment ledger for the server's amount, to the client's method or,
 * when a physician submits, to the physician's own card; a lab report is checked by content and
 * stored encrypted; a waiver keeps its signature. The form is claimed first, so a second
 * submission changes nothing and charges nothing.
 */
export async function submitDiseaseForm(
  deps: FormDeps,
  signer: SignerContext,
  body: SetDiseaseDataRequest,
  physician?: SubmittingPhysician,
): Promise<DiseaseSubmissionResponse> {
  const { db, clock } = deps;
  const { clientId } = signer;
  const now = clock.now();
  const { client } = await signerOf(deps, clientId);
  const payer = physician ? { physicianId: physician.id } : undefined;
  const option = body.submissionOption;
  if (body.termsVersion !== undefined && body.termsVersion !== INFECTIOUS_DISEASE_TERMS_VERSION) {
    throw new HttpError('AGREEMENT_CHANGED', diseaseMessages.termsChanged);
  }

  // The fee, its rate and the terms: the price book in force as the form is submitted.
  const { book } = await priceBookInForce(db, now);
  let payment: ResolvedPayment | null = null;
  let quote: ReturnType<typeof whiteGloveQuote> | null = null;
  let labReport: Buffer | null = null;
  let png: Buffer | null = null;
  if (option === 'White Glove Labs') {
    const method = body.PaymentMethod ?? 'Credit Card';
    quote = whiteGloveQuote(book, method);
    checkQuotedAmounts(body, quote);
    payment = await resolveFormPayment(
      db,
      payer ?? clientId,
      body,
      {
        first: diseaseMessages.firstName,
        last: diseaseMessages.lastName,
        month: diseaseMessages.cardEmpty,
        year: diseaseMessages.cardEmpty,
      },
      todayFor(now),
    );
  } else if (option === 'Local Lab Submission') {
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
    labReport = Buffer.from(bytes);
  } else {
    png = await readSignature(body.Signature);
    if (!png) {
      throw new HttpError('VALIDATION', diseaseMessages.signature, {
        Signature: diseaseMessages.signature,
      });
    }
  }

  // A White Glove Labs charge by card or bank account: what recovery needs to finish the form if
  // this process dies once the charge is sent (kept sealed with the claim; no token, no file).
  const resume: WhiteGloveResume | undefined =
    payment && payment.kind !== 'check'
      ? {
          idempotencyKey: signer.idempotencyKey,
          at: now.toISOString(),
          body: keptAnswers(body),
          signer: { ip: signer.ip, userAgent: signer.userAgent },
          physician: physician ?? null,
          payment: paymentShown(payment),
        }
      : undefined;

  const response = await submitFormOnce(deps, {
    clientId,
    physicianId: physician?.id ?? null,
    form: 'infectious_disease',
    kind: 'infectious-disease',
    idempotencyKey: signer.idempotencyKey,
    body,
    alreadyCompleted: diseaseMessages.alreadyCompleted,
    completedOnRecord: client.infectiousDiseaseFormCompleted,
    resume,
    recover: (run, claim) => recoverDiseaseForm(deps, run, claim),
    work: async (run, claim) => {
      let charge: OneOffCharge | null = null;
      // A White Glove Labs charge whose form was never completed (the process stopped, a database
      // error) stands for this submission: nothing is charged twice, and no other route is taken
      // while the client's money is held for the kit.
      charge = await standingWhiteGloveCharge(db, clientId);
      if (charge && option !== 'White Glove Labs') {
        throw new HttpError('NOT_ALLOWED_NOW', diseaseMessages.whiteGlovePaid, {
          submissionOption: diseaseMessages.whiteGlovePaid,
        });
      }
      if (!charge && payment && quote && payment.kind !== 'check') {
        // From here a failure may have left money taken: unless the charge was refused outright,
        // the form stays claimed for recovery, which finishes it when the charge went through.
        run.setInDoubt(true);
        try {
          charge = await chargeOnce(deps, {
            clientId,
            source: DISEASE_FORM_SOURCE,
            purpose: 'white_glove_lab',
            idempotencyKey: chargeKeyOf(signer.idempotencyKey),
            request: body,
            amountCents: quote.labFee,
            feeCents: quote.processingFee,
            kind: payment.kind,
            method:
              'onFile' in payment
                ? { onFile: payment.onFile }
                : { token: payment.token, keepOnFile: payment.keepOnFile },
            description: 'White Glove Labs infectious disease screening',
            payer,
          });
        } catch (error) {
          if (error instanceof HttpError && error.statusCode < 500) run.setInDoubt(false);
          throw error;
        }
        faultPoint('white-glove:after-charge');
        // Recorded on the claim at once, for the record of what this submission did.
        await db
          .update(formSubmissions)
          .set({ paymentId: charge.paymentId })
          .where(eq(formSubmissions.id, claim.submissionId));
      }

      const labDocument = labReport
        ? await storeDocument(db, deps.documentsKey, {
            clientId,
            kind: 'lab_report',
            fileName: (body.lab_report_name || 'lab-report.pdf').replace(/[^\w .-]/g, '_').slice(0, 100),
            contentType: 'application/pdf',
            content: labReport,
            now,
            operationId: claim.operationId,
          })
        : null;
      return finishDiseaseForm(deps, {
        run,
        claim,
        client,
        signer,
        now,
        body,
        book,
        physician: physician ?? null,
        payment: payment && payment.kind !== 'check' ? paymentShown(payment) : null,
        charge,
        lab: labDocument && labReport ? { document: labDocument, bytes: labReport.length } : null,
        signaturePng: png,
      });
    },
  });
  // finishDiseaseForm keeps and answers the whole response object it is given: the fields above.
  return response as DiseaseSubmissionResponse;
}

/** The nested charge's key, in the client's scope. */
const chargeKeyOf = (idempotencyKey: string) => `${idempotencyKey}:charge`;

/** The answers as kept with the form: no signature, payment token or file. */
function keptAnswers(body: SetDiseaseDataRequest): SetDiseaseDataRequest {
  return { ...body, Signature: undefined, token: undefined, lab_report_file: undefined };
}

/** What a recovery needs to finish a White Glove Labs form whose charge went through. */
interface WhiteGloveResume {
  idempotencyKey: string;
  /** When the client (or physician) submitted it: the price book, the signing time. */
  at: string;
  body: SetDiseaseDataRequest;
  signer: { ip: string; userAgent: string };
  physician: SubmittingPhysician | null;
  payment: PaymentShown;
}

/**
 * The end of a screening form, whether its submission runs to the end or a recovery finishes it
 * after its White Glove Labs charge went through: the answers, the signed PDF and the e-mails,
 * committed with the form and the client's flag.
 */
async function finishDiseaseForm(
  deps: FormDeps,
  form: {
    run: Run<FormSubmissionResponse>;
    claim: FormClaim;
    client: Awaited<ReturnType<typeof signerOf>>['client'];
    signer: SignerContext;
    now: Date;
    body: SetDiseaseDataRequest;
    book: PriceBook;
    physician: SubmittingPhysician | null;
    payment: PaymentShown | null;
    charge: OneOffCharge | null;
    lab: { document: { id: string; sha256: string }; bytes: number } | null;
    signaturePng: Buffer | null;
  },
): Promise<FormSubmissionResponse> {
  const { run, claim, client, signer, now, body, book, physician, payment, charge, lab } = form;
  const option = body.submissionOption;
  const answers: { label: string; value: string }[] = [{ label: 'Submission option', value: option }];
  if (option === 'White Glove Labs' && charge && payment) {
    answers.push(
      {
        label: 'Blood draw kit shipping address',
        value: [body.FirstName, body.LastName, body.Street, body.City, body.State, body.ZipCode, body.Country]
          .filter(Boolean)
          .join(', '),
      },
      { label: 'Payment', value: describePaidWith(payment, charge) },
      {
        label: 'Amount charged',
        value: `White Glove Labs fee ${formatUsd(charge.amountCents)} + card processing fee (${cardFeePercent(book)}) ${formatUsd(charge.feeCents)} = ${formatUsd(charge.totalCents)}. Transaction ${charge.transactionId}.`,
      },
    );
  } else if (lab) {
    answers.push({
      label: 'Lab report',
      value: `${body.lab_report_name || 'lab-report.pdf'}, ${lab.bytes} bytes, SHA-256 ${lab.document.sha256}`,
    });
  } else if (body.WaiverNotice) {
    answers.push(
      { label: 'Notice', value: WAIVER_NOTICES[body.WaiverNotice].label },
      { label: 'Infectious diseases', value: body.InfectiousDisease ?? '' },
    );
  }
  answers.push({
    label: 'Agreement',
    value: 'I agree to the Infectious Disease Terms and Conditions.',
  });
  if (physician) {
    answers.push({
      label: 'Submitted by',
      value: `Dr. ${physician.firstName} ${physician.lastName} (Physician ID ${physician.actId}), for the client`,
    });
  }
  const clientName = `${client.firstName} ${client.lastName}`;
  // The physician variant's answer carries the client and the amount charged; the client's
  // route lists only the spec's fields.
  const answer: Omit<DiseaseSubmissionResponse, 'documentId'> = {
    success: true,
    TransactionId: charge?.transactionId ?? claim.submissionId,
    page_name: 'Infectious-disease',
    message: diseaseMessages.submitted,
    ClientId: client.clientActId,
    ClientName: clientName,
    charged: charge
      ? {
          labFee: centsToAmount(charge.amountCents),
          processingFee: centsToAmount(charge.feeCents),
          total: centsToAmount(charge.totalCents),
          brand: charge.brand,
          last4: charge.last4,
        }
      : null,
  };
  const sections = agreedSections(body, book);
  return await completeSignedForm(
    deps,
    { claim, run, client, signer, now },
    {
      completedFlag: 'infectiousDiseaseFormCompleted',
      text: {
        title: TITLE,
        version: TEXT_VERSION,
        subtitle: TEXT_VERSION,
        sections,
        signed: sections.flatMap((section) => [section.heading, ...section.paragraphs]).join('\n\n'),
      },
      answers,
      answersJson: keptAnswers(body),
      signaturePng: form.signaturePng,
      fileStem: 'infectious-disease-form',
      response: answer,
      submission: {
        submissionOption: option,
        labReportDocumentId: lab?.document.id ?? null,
        paymentId: charge?.paymentId ?? null,
      },
      alsoInTransaction: async (tx) => {
        if (!charge) return;
        if (physician && payment) {
          await deps.mailer.enqueue(tx, physicianReceipt(physician, client, charge, payment, book), {
            dedupeKey: `form-receipt:${claim.submissionId}`,
          });
        }
        await tx.insert(clientActivities).values({
          clientId: client.id,
          type: 'White Glove Labs',
          closeDate: todayFor(now),
          purchasedPlanName: `White Glove Labs screening (${formatUsd(charge.totalCents)})`,
          stageName: 'Closed Won',
        });
      },
      mail: {
        subject: 'Client Portal: your infectious disease screening form',
        paragraphs: [
          physician
            ? `Dr. ${physician.firstName} ${physician.lastName} submitted your infectious disease screening form (${option}) for you. A copy is attached; you can also download it from Forms and Other Documents in the Client Portal.`
            : `We received your infectious disease screening form (${option}). A copy is attached; you can also download it from Forms and Other Documents in the Client Portal.`,
          charge
            ? `${physician ? `Your physician paid ${formatUsd(charge.totalCents)}` : `We charged ${formatUsd(charge.totalCents)}`} for White Glove Labs (lab fee ${formatUsd(charge.amountCents)}${charge.feeCents > 0 ? ` + card processing fee ${formatUsd(charge.feeCents)}` : ''}). Transaction ${charge.transactionId}. Your blood draw kit will be shipped to ${kitAddressLine(body)}.`
            : physician
              ? 'Nothing was charged to you.'
              : 'Nothing was charged.',
        ],
      },
    },
  );
}

/** How long a charge whose outcome the gateway cannot tell yet waits before its form looks again. */
const RECHECK_AFTER_MS = 60_000;

/**
 * Settles a screening form whose owner died. Its White Glove Labs charge (its own operation) is
 * settled first when its owner died too, and waited for while it is still running or unknown at
 * the gateway; a charge that went through finishes the form, with its PDF and e-mails, as the
 * submission would have; a form without a charge, or whose charge was refused or never made, is
 * given back. A form is never given back while the money for it is taken.
 */
export async function recoverDiseaseForm(
  deps: FormDeps,
  run: RecoveryRun<FormSubmissionResponse>,
  claim: FormClaim | null,
): Promise<Recovered> {
  if (!claim?.resume) return giveFormBack(run, claim);
  const resume = JSON.parse(openText(deps.documentsKey, claim.resume)) as WhiteGloveResume;
  let charge = await findOperation(deps.db, `client:${claim.clientId}`, chargeKeyOf(resume.idempotencyKey));
  if (charge?.status === 'running') {
    if (!isHeld(charge, deps.clock.now())) {
      await recoverLapsed(deps, charge.id, paymentRecoveries(deps).charge);
    }
    charge = await operationById(deps.db, charge.id);
    if (charge?.status === 'running') return { retryAfterMs: RECHECK_AFTER_MS };
  }
  if (charge?.status !== 'succeeded' || !charge.responseJson) return giveFormBack(run, claim);

  const result = JSON.parse(charge.responseJson) as OneOffCharge;
  const at = new Date(resume.at);
  const { client } = await signerOf(deps, claim.clientId);
  const { book } = await priceBookInForce(deps.db, at);
  const finishing: Run<FormSubmissionResponse> = {
    id: run.id,
    async succeed(effects, response) {
      await run.succeed(effects, response);
      return response;
    },
    succeedWith: (effects) => run.succeedWith(effects),
    setInDoubt() {},
  };
  await finishDiseaseForm(deps, {
    run: finishing,
    claim,
    client,
    signer: { clientId: claim.clientId, idempotencyKey: resume.idempotencyKey, ...resume.signer },
    now: at,
    body: resume.body,
    book,
    physician: resume.physician,
    payment: resume.payment,
    charge: result,
    lab: null,
    signaturePng: null,
  });
  return 'settled';
}

/** Where the kit goes, as one line: the physician variant may leave the street out. */
function kitAddressLine(body: SetDiseaseDataRequest): string {
  const cityLine = [body.City, [body.State, body.ZipCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return [body.Street, cityLine].filter(Boolean).join(', ');
}
