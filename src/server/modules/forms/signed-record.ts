import { eq } from 'drizzle-orm';
import type { AgreementSection } from '../../../domain/consent-agreement';
import type { FormSubmissionResponse } from '../../../domain/consent-form';
import { storeDocument } from '../../lib/document-store';
import { faultPoint } from '../../lib/faults';
import { notFound } from '../../lib/http-error';
import type { Run, Transaction } from '../../lib/run-once';
import { sha256Hex } from '../../lib/secrets';
import { findClientRow, markClientCompleted } from '../clients/client-directory';
import { physicianOfClient } from '../physicians/physician-repository';
import type { FormClaim, FormDeps, SubmissionRow } from './form-claims';
import { formSubmissions } from './schema';
import { renderSignedPdf } from './signed-pdf';

export type { FormDeps } from './form-claims';

export interface SignerContext {
  clientId: string;
  idempotencyKey: string;
  ip: string;
  userAgent: string;
}

/** The client and their physician, as the form and its PDF name them. */
export async function signerOf(deps: FormDeps, clientId: string) {
  const client = await findClientRow(deps.db, clientId);
  if (!client) throw notFound();
  const physician = await physicianOfClient(deps.db, clientId);
  return {
    client,
    physician: physician
      ? { first: physician.firstName, last: physician.lastName, actId: physician.physicianActId }
      : null,
  };
}

/** What a form keeps of one signing, beyond what every signing keeps. */
export interface SignedRecord {
  completedFlag: 'clientConsentFormCompleted' | 'infectiousDiseaseFormCompleted';
  /** The text signed as the client read it; its SHA-256 is recorded and printed on the certificate. */
  text: { title: string; version: string; subtitle: string; sections: AgreementSection[]; signed: string };
  answers: { label: string; value: string }[];
  /** The answers as submitted (no signature, token or file), kept encrypted. */
  answersJson: unknown;
  signaturePng: Buffer | null;
  /** The stem of the stored files' names: `<stem>.pdf`, `<stem>-signature.png`, `<stem>-answers.json`. */
  fileStem: string;
  response: Omit<FormSubmissionResponse, 'documentId'>;
  /** The physician variants: the physician who submitted the form, the client signing in their presence. */
  inPresenceOf?: { physicianId: string; physicianActId: string; name: string };
  /** Facts of this form's row: the route chosen, the lab report, the payment. */
  submission?: Partial<Pick<SubmissionRow, 'submissionOption' | 'labReportDocumentId' | 'paymentId'>>;
  alsoInTransaction?: (tx: Transaction) => Promise<void>;
  mail: { subject: string; paragraphs: string[] };
}

/**
 * The end of every signing (DESIGN.md section 7): the signature, the answers and the signed PDF
 * with its certificate page stored encrypted, the claim completed with the facts of the signing
 * and the client's flag set in one transaction, then the PDF e-mailed.
 */
export async function completeSignedForm(
  deps: FormDeps,
  context: {
    claim: FormClaim;
    run: Run<FormSubmissionResponse>;
    client: { id: string; clientActId: string; firstName: string; lastName: string; email: string };
    signer: SignerContext;
    now: Date;
  },
  record: SignedRecord,
): Promise<FormSubmissionResponse> {
  const { db, documentsKey } = deps;
  const { claim, run, client, signer, now } = context;
  const isConsent = claim.form === 'consent';
  const signerName = `${client.firstName} ${client.lastName}`;
  const store = (
    kind: 'signature' | 'form_answers' | 'signed_agreement',
    fileName: string,
    contentType: string,
    content: Buffer,
  ) =>
    storeDocument(db, documentsKey, {
      clientId: client.id,
      kind,
      fileName,
      contentType,
      content,
      now,
      operationId: claim.operationId,
    });

  const signature = record.signaturePng
    ? await store('signature', `${record.fileStem}-signature.png`, 'image/png', record.signaturePng)
    : null;
  const answersDocument = await store(
    'form_answers',
    `${record.fileStem}-answers.json`,
    'application/json',
    Buffer.from(JSON.stringify(record.answersJson)),
  );
  const textSha256 = sha256Hex(record.text.signed);
  const pdf = await renderSignedPdf({
    title: record.text.title,
    subtitle: record.text.subtitle,
    sections: record.text.sections,
    answers: record.answers,
    signaturePng: record.signaturePng,
    certificate: {
      signer: signerName,
      clientActId: client.clientActId,
      signedAt: now,
      ip: signer.ip,
      userAgent: signer.userAgent,
      textSha256,
      signatureSha256: signature?.sha256 ?? null,
      reference: claim.submissionId,
      inPresenceOf: record.inPresenceOf,
    },
  });
  const pdfFileName = `${record.fileStem}.pdf`;
  const pdfDocument = await store('signed_agreement', pdfFileName, 'application/pdf', pdf);
  if (isConsent) faultPoint('consent:after-documents');
  const response: FormSubmissionResponse = { ...record.response, documentId: pdfDocument.id };

  await run.succeed(async (tx) => {
    await tx
      .update(formSubmissions)
      .set({
        ...record.submission,
        // The claim already names a submitting physician (the screening); a signing in one's presence says so too.
        ...(record.inPresenceOf ? { physicianId: record.inPresenceOf.physicianId } : {}),
        status: 'completed',
        agreementVersion: record.text.version,
        agreementSha256: textSha256,
        answersDocumentId: answersDocument.id,
        signatureDocumentId: signature?.id ?? null,
        pdfDocumentId: pdfDocument.id,
        signerIp: signer.ip,
        userAgent: signer.userAgent,
        responseJson: JSON.stringify(response),
        completedAt: now,
      })
      .where(eq(formSubmissions.id, claim.submissionId));
    await markClientCompleted(tx, client.id, record.completedFlag, now);
    await record.alsoInTransaction?.(tx);
    // The signed copy leaves with the commit, once: the PDF is attached from the documents.
    await deps.mailer.enqueue(
      tx,
      {
        to: client.email,
        subject: record.mail.subject,
        text: [`Dear ${signerName},`, ...record.mail.paragraphs, `Reference ${claim.submissionId}.`].join(
          '\n\n',
        ),
        attachments: [{ documentId: pdfDocument.id, filename: pdfFileName, contentType: 'application/pdf' }],
      },
      { dedupeKey: `form:${claim.submissionId}` },
    );
  }, response);
  deps.mailer.kick();
  if (isConsent) faultPoint('consent:after-commit');
  return response;
}
