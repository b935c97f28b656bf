import { todayFor } from '../../../domain/client';
import type { FormSubmissionResponse } from '../../../domain/consent-form';
import {
  diseaseMessages,
  INFECTIOUS_DISEASE_TERMS_VERSION,
  infectiousDiseaseTerms,
  type SetDiseaseDataRequest,
  WAIVER_NOTICES,
  WAIVER_TEXT,
} from '../../../domain/infectious-disease';
import { centsToAmount, formatUsd } from '../../../domain/money';
import { cardFeePercent } from '../../../domain/payments';
import type { PriceBook } from '../../../domain/price-book';
import { orderNumber } from '../../../domain/site';
import { recordActivity } from '../clients/client-activities';
import type { OneOffCharge } from '../payments/one-off-charge';
import type { FormClaim, FormDeps } from './form-claims';
import { describePaidWith, type PaymentShown } from './form-payment';
import type { SignedRecord } from './signed-record';

/**
 * What a signed infectious disease screening says: the text agreed to, the answers its PDF
 * lists, its answer, and the e-mails sent with its commit (to the client, and to the physician who
 * submitted it: the receipt of White Glove Labs paid with their own card, or a confirmation).
 */

const TITLE = 'Infectious Disease Screening Form';
const TEXT_VERSION = `Infectious disease terms, version ${INFECTIOUS_DISEASE_TERMS_VERSION}`;

export const FILE_STEM = 'infectious-disease-form';

/** A physician who submits the form for their client (and pays White Glove Labs with their own card). */
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

/**
 * What the finish of a screening needs beyond its claim, whether its submission runs to the end
 * or recovery finishes it after its owner died. No token and no file: those are documents.
 */
export interface ScreeningResume {
  /** When the client (or physician) submitted it: the price book, the signing time. */
  at: string;
  body: SetDiseaseDataRequest;
  signer: { ip: string; userAgent: string };
  physician: SubmittingPhysician | null;
  /** The card or account White Glove Labs is charged to. */
  payment: PaymentShown | null;
  /** The lab report the claim stored. */
  lab: { documentId: string; sha256: string; bytes: number } | null;
  /** The waiver's signature the claim stored. */
  signature: { documentId: string; sha256: string } | null;
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

/**
 * The physician's confirmation of a screening they submitted, sent with the form's commit: for
 * White Glove Labs the receipt of the charge to their card, for the other routes what was submitted.
 */
function physicianConfirmation(
  physician: SubmittingPhysician,
  client: { clientActId: string; firstName: string; lastName: string },
  submission: { id: string; option: SetDiseaseDataRequest['submissionOption'] },
  paid: { charge: OneOffCharge; payment: PaymentShown; book: PriceBook } | null,
) {
  const name = `${client.firstName} ${client.lastName}`;
  const submitted = `You submitted the infectious disease screening form of ${name} (Client ID ${client.clientActId}) by ${submission.option}.`;
  const reference = `Reference ${orderNumber('FS', submission.id)}.`;
  if (!paid) {
    return {
      to: physician.email,
      subject: `Physician Portal: infectious disease screening form of ${name} (${client.clientActId})`,
      text: [
        `Dear Dr. ${physician.lastName},`,
        submitted,
        'Nothing was charged. The client was e-mailed a copy of the form.',
        reference,
      ].join('\n\n'),
    };
  }
  const { charge, payment, book } = paid;
  return {
    to: physician.email,
    subject: `Physician Portal: White Glove Labs receipt for ${name} (${client.clientActId})`,
    text: [
      `Dear Dr. ${physician.lastName},`,
      submitted,
      `We charged ${formatUsd(charge.totalCents)} (White Glove Labs fee ${formatUsd(charge.amountCents)} + card processing fee (${cardFeePercent(book)}) ${formatUsd(charge.feeCents)}) to your ${describePaidWith(payment, charge)}. Transaction ${charge.transactionId}.`,
      reference,
    ].join('\n\n'),
  };
}

/** The answers of a screening as its signed PDF lists them. */
function screeningAnswers(resume: ScreeningResume, charge: OneOffCharge | null, book: PriceBook) {
  const { body, physician, payment, lab } = resume;
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
      value: `${body.lab_report_name || 'lab-report.pdf'}, ${lab.bytes} bytes, SHA-256 ${lab.sha256}`,
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
  return answers;
}

/** What a screening keeps of its signing: the text agreed to, the answers, the row's facts, the e-mails. */
export function screeningRecord(
  deps: FormDeps,
  input: {
    claim: FormClaim;
    client: { id: string; clientActId: string; firstName: string; lastName: string };
    resume: ScreeningResume;
    book: PriceBook;
    charge: OneOffCharge | null;
    signaturePng: Buffer | null;
  },
): SignedRecord<DiseaseSubmissionResponse> {
  const { claim, client, resume, book, charge } = input;
  const { body, physician, payment, lab } = resume;
  const option = body.submissionOption;
  const now = new Date(resume.at);
  const sections = agreedSections(body, book);
  return {
    completedFlag: 'infectiousDiseaseFormCompleted',
    text: {
      title: TITLE,
      version: TEXT_VERSION,
      subtitle: TEXT_VERSION,
      sections,
      signed: sections.flatMap((section) => [section.heading, ...section.paragraphs]).join('\n\n'),
    },
    answers: screeningAnswers(resume, charge, book),
    answersJson: body,
    signaturePng: input.signaturePng,
    signatureDocument: resume.signature && {
      id: resume.signature.documentId,
      sha256: resume.signature.sha256,
    },
    fileStem: FILE_STEM,
    // The physician variant's answer carries the client and the amount charged; the client's
    // route lists only the spec's fields.
    response: {
      success: true,
      TransactionId: charge?.transactionId ?? claim.submissionId,
      page_name: 'Infectious-disease',
      message: diseaseMessages.submitted,
      ClientId: client.clientActId,
      ClientName: `${client.firstName} ${client.lastName}`,
      charged: charge
        ? {
            labFee: centsToAmount(charge.amountCents),
            processingFee: centsToAmount(charge.feeCents),
            total: centsToAmount(charge.totalCents),
            brand: charge.brand,
            last4: charge.last4,
          }
        : null,
    },
    submission: {
      submissionOption: option,
      labReportDocumentId: lab?.documentId ?? null,
      paymentId: charge?.paymentId ?? null,
    },
    alsoInTransaction: async (tx) => {
      // Every screening a physician submits is confirmed to them by e-mail (spec 2: "Please check
      // your email for order confirmation").
      if (physician) {
        const paid = charge && payment ? { charge, payment, book } : null;
        await deps.mailer.enqueue(
          tx,
          physicianConfirmation(physician, client, { id: claim.submissionId, option }, paid),
          { dedupeKey: `form-receipt:${claim.submissionId}` },
        );
      }
      if (!charge) return;
      await recordActivity(tx, {
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
  };
}

/** Where the kit goes, as one line: the physician variant may leave the street out. */
function kitAddressLine(body: SetDiseaseDataRequest): string {
  const cityLine = [body.City, [body.State, body.ZipCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return [body.Street, cityLine].filter(Boolean).join(', ');
}
