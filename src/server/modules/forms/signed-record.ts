import { eq } from 'drizzle-orm';
import type { AgreementSection } from '../../../domain/consent-agreement';
import type { FormSubmissionResponse } from '../../../domain/consent-form';
import { orderNumber } from '../../../domain/site';
import type { Database } from '../../db/client';
import { type StoredDocument, storeDocument } from '../../lib/document-store';
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

/** The client a form is for, read in the caller's transaction or outside one. */
export async function clientOf(db: Database | Transaction, clientId: string) {
  const client = await findClientRow(db, clientId);
  if (!client) throw notFound();
  return client;
}

/** The client and their physician, as the form and its PDF name them. */
export async function signerOf(deps: FormDeps, clientId: string) {
  const client = await clientOf(deps.db, clientId);
  const physician = await physicianOfClient(deps.db, clientId);
  return {
    client,
    physician: physician
      ? { first: physician.firstName, last: physician.lastName, actId: physician.physicianActId }
      : null,
  };
}

/** What a form keeps of one signing, beyond what every signing keeps. */
export interface SignedRecord<R extends FormSubmissionResponse = FormSubmissionResponse> {
  completedFlag: 'clientConsentFormCompleted' | 'infectiousDiseaseFormCompleted';
  /** The text signed as the client read it; its SHA-256 is recorded and printed on the certificate. */
  text: { title: string; version: string; subtitle: string; sections: AgreementSection[]; signed: string };
  answers: { label: string; value: string }[];
  /** The answers as submitted (no signature, token or file), kept encrypted. */
  answersJson: unknown;
  signaturePng: Buffer | null;
  /** The signature's document when the claim has stored it already (the screening's waiver). */
  signatureDocument?: StoredDocument | null;
  /** The stem of the stored files' names: `<stem>.pdf`, `<stem>-signature.png`, `<stem>-answers.json`. */
  fileStem: string;
  response: Omit<R, 'documentId'>;
  /** The physician variants: the physician who submitted the form, the client signing in their presence. */
  inPresenceOf?: { physicianId: string; physicianActId: string; name: string };
  /** Facts of this form's row: the route chosen, the lab report, the payment. */
  submission?: Partial<Pick<SubmissionRow, 'submissionOption' | 'labReportDocumentId' | 'paymentId'>>;
  alsoInTransaction?: (tx: Transaction) => Promise<void>;
  mail: { subject: string; paragraphs: string[] };
}

/** The signing: the claimed form, its client as named in it, and when and from where it was signed. */
export interface Signing {
  claim: FormClaim;
  client: { id: string; clientActId: string; firstName: string; lastName: string; email: string };
  signer: Pick<SignerContext, 'ip' | 'userAgent'>;
  now: Date;
}

interface SignedDocuments {
  signature: StoredDocument | null;
  answers: StoredDocument;
  pdf: StoredDocument;
  pdfFileName: string;
  textSha256: string;
}

/**
 * The documents of a signing, stored encrypted under its operation (they go with it if it
 * fails): the signature, the answers and the signed PDF with its certificate page.
 */
async function storeSignedDocuments(
  db: Database,
  deps: FormDeps,
  signing: Signing,
  record: SignedRecord<FormSubmissionResponse>,
): Promise<SignedDocuments> {
  const { claim, client, signer, now } = signing;
  const store = (
    kind: 'signature' | 'form_answers' | 'signed_agreement',
    fileName: string,
    contentType: string,
    content: Buffer,
  ) =>
    storeDocument(db, deps.documentsKey, {
      clientId: client.id,
      kind,
      fileName,
      contentType,
      content,
      now,
      operationId: claim.operationId,
    });

  const signature =
    record.signatureDocument ??
    (record.signaturePng
      ? await store('signature', `${record.fileStem}-signature.png`, 'image/png', record.signaturePng)
      : null);
  const answers = await store(
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
      signer: `${client.firstName} ${client.lastName}`,
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
  return { signature, answers, pdf: pdfDocument, pdfFileName, textSha256 };
}

/**
 * The signing committed, in the outcome's transaction: the claim completed with the facts of the
 * signing, the client's flag set, and the signed PDF e-mailed (from the outbox, once).
 */
async function recordSigning(
  tx: Transaction,
  deps: FormDeps,
  signing: Signing,
  record: SignedRecord<FormSubmissionResponse>,
  stored: SignedDocuments,
  response: unknown,
): Promise<void> {
  const { claim, client, signer, now } = signing;
  await tx
    .update(formSubmissions)
    .set({
      ...record.submission,
      // The claim already names a submitting physician (the screening); a signing in one's presence says so too.
      ...(record.inPresenceOf ? { physicianId: record.inPresenceOf.physicianId } : {}),
      status: 'completed',
      agreementVersion: record.text.version,
      agreementSha256: stored.textSha256,
      answersDocumentId: stored.answers.id,
      signatureDocumentId: stored.signature?.id ?? null,
      pdfDocumentId: stored.pdf.id,
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
      text: [
        `Dear ${client.firstName} ${client.lastName},`,
        ...record.mail.paragraphs,
        `Reference ${orderNumber('FS', claim.submissionId)}.`,
      ].join('\n\n'),
      attachments: [
        { documentId: stored.pdf.id, filename: stored.pdfFileName, contentType: 'application/pdf' },
      ],
    },
    { dedupeKey: `form:${claim.submissionId}` },
  );
}

/**
 * The end of every signing (DESIGN.md section 7): the signature, the answers and the signed PDF
 * with its certificate page stored encrypted, then the claim completed with the facts of the
 * signing and the client's flag set in one transaction with the operation's answer, then the PDF
 * e-mailed.
 */
export async function completeSignedForm(
  deps: FormDeps,
  context: Signing & { run: Run<FormSubmissionResponse> },
  record: SignedRecord,
): Promise<FormSubmissionResponse> {
  const { claim, run } = context;
  const isConsent = claim.form === 'consent';
  const stored = await storeSignedDocuments(deps.db, deps, context, record);
  if (isConsent) faultPoint('consent:after-documents');
  const response: FormSubmissionResponse = { ...record.response, documentId: stored.pdf.id };
  await run.succeed((tx) => recordSigning(tx, deps, context, record, stored, response), response);
  deps.mailer.kick();
  if (isConsent) faultPoint('consent:after-commit');
  return response;
}

/**
 * The same end of a signing within a transaction the caller holds (a paid form's confirmation,
 * committed with the operation's answer): its documents are stored in it too, so a confirmation
 * that does not commit leaves none behind.
 */
export async function completeSignedFormIn<R extends FormSubmissionResponse>(
  tx: Transaction,
  deps: FormDeps,
  signing: Signing,
  record: SignedRecord<R>,
): Promise<Omit<R, 'documentId'> & { documentId: string }> {
  const stored = await storeSignedDocuments(tx, deps, signing, record);
  const response = { ...record.response, documentId: stored.pdf.id };
  await recordSigning(tx, deps, signing, record, stored, response);
  return response;
}
