import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import {
  type ClientAgreementResponse,
  centsToDollars,
  newbornAgreementMessages as m,
  monthlyPaymentCents,
  NEWBORN_AGREEMENT_TITLE,
  type NewbornAgreementFigures,
  newbornAgreementRows,
  newbornAgreementTerms,
} from '../../../domain/newborn-agreement';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { storeDocument } from '../../lib/document-store';
import { HttpError } from '../../lib/http-error';
import { createAgreementLinkToken, readAgreementLinkToken } from '../../lib/link-tokens';
import { sha256Hex } from '../../lib/secrets';
import { clientContact } from '../clients/client-directory';
import { readSignature } from '../forms/form-claims';
import { renderSignedPdf } from '../forms/signed-pdf';
import { newbornAgreements } from './schema';

const AGREEMENT_VERSION = 'newborn-finance-2026-11';

export const invalidAgreementLink = () =>
  new HttpError('NOT_FOUND', m.invalidClient, { ClientId: m.invalidClient });

type AgreementRow = typeof newbornAgreements.$inferSelect;

/**
 * A new agreement for a client and the link that opens it (valid 7 days). For the staff who send
 * agreements: the figures come from them; the main contact's e-mail, if not given, is the client's.
 */
export async function createNewbornAgreementLink(
  db: Database,
  linkSecret: Buffer,
  clientId: string,
  figures: NewbornAgreementFigures & { mainContactEmail?: string },
  now: Date,
): Promise<{ agreementId: string; token: string; path: string }> {
  const client = await clientContact(db, clientId);
  if (!client) throw new HttpError('NOT_FOUND', 'Not found');
  const [row] = await db
    .insert(newbornAgreements)
    .values({
      clientId,
      ...figures,
      mainContactEmail: figures.mainContactEmail ?? client.email,
      createdAt: now,
    })
    .returning({ id: newbornAgreements.id });
  if (!row) throw new Error('agreement was not created');
  const token = createAgreementLinkToken(linkSecret, row.id, now);
  return { agreementId: row.id, token, path: `/newbornfinanceagreement/${token}` };
}

function figuresOf(row: AgreementRow): NewbornAgreementFigures {
  return {
    mainContact: row.mainContact,
    patientId: row.patientId,
    annualBankingFeeCents: row.annualBankingFeeCents,
    bioInsuranceFeeCents: row.bioInsuranceFeeCents,
    downPaymentCents: row.downPaymentCents,
    initialProcessingFeeCents: row.initialProcessingFeeCents,
    interestRateBasisPoints: row.interestRateBasisPoints,
    installments: row.installments,
    totalFinancedCents: row.totalFinancedCents,
  };
}

/** The agreement a link opens, or 404 "Client id is not valid" (unknown, forged, altered, expired). */
export async function agreementOfLink(
  deps: Pick<AppDeps, 'db' | 'linkSecret'>,
  token: string | undefined,
  now: Date,
) {
  const id = token ? readAgreementLinkToken(deps.linkSecret, token, now) : null;
  if (!id) throw invalidAgreementLink();
  const [row] = await deps.db.select().from(newbornAgreements).where(eq(newbornAgreements.id, id)).limit(1);
  if (!row) throw invalidAgreementLink();
  return row;
}

export function agreementResponse(token: string, row: AgreementRow): ClientAgreementResponse {
  return {
    Id: token,
    Name: row.mainContact,
    Patient_ID__c: row.patientId,
    Annual_Banking_Fee_Amount__c: centsToDollars(row.annualBankingFeeCents),
    Bio_Insurance_Fee_Amount__c: centsToDollars(row.bioInsuranceFeeCents),
    Down_Payment__c: centsToDollars(row.downPaymentCents),
    Initial_Processing_Fee_Amount__c: centsToDollars(row.initialProcessingFeeCents),
    Interest_Rate__c: row.interestRateBasisPoints / 100,
    Number_Of_Installments__c: row.installments,
    Total_Amount_Financing__c: centsToDollars(row.totalFinancedCents),
    Total_Monthly_Payment_Amount__c: centsToDollars(
      monthlyPaymentCents(row.totalFinancedCents, row.interestRateBasisPoints, row.installments),
    ),
    NB_Finance_Agreement_Completed__c: row.signedAt !== null,
  };
}

const alreadySigned = () => new HttpError('ALREADY_COMPLETED', m.alreadySigned);

/**
 * Signs the agreement once: the signed PDF (figures, terms, signature, certificate page) is made
 * first, then in one transaction the agreement is marked signed (only if it was not: a second
 * signing, concurrent or later, finds it signed and changes nothing), the signature and the PDF
 * stored and the PDF's e-mail to the main contact put in the outbox. Nothing half done survives
 * a crash; the mailer delivers what was committed.
 */
export async function signNewbornAgreement(
  deps: Pick<AppDeps, 'db' | 'linkSecret' | 'documentsKey' | 'mailer'>,
  input: { token: string; signatureData: string; ip: string; userAgent: string; now: Date },
): Promise<void> {
  const { db, documentsKey, mailer } = deps;
  const { now } = input;
  const row = await agreementOfLink(deps, input.token, now);
  if (row.signedAt) throw alreadySigned();
  const png = await readSignature(input.signatureData);
  if (!png) throw new HttpError('VALIDATION', m.signature, { signatureData: m.signature });
  const client = await clientContact(db, row.clientId);
  if (!client) throw invalidAgreementLink();

  const figures = figuresOf(row);
  const rows = newbornAgreementRows(figures);
  const signedText = [
    NEWBORN_AGREEMENT_TITLE,
    AGREEMENT_VERSION,
    ...rows.map((r) => `${r.label}: ${r.value}`),
    ...newbornAgreementTerms,
  ].join('\n');
  const textSha256 = sha256Hex(signedText);
  const signatureSha256 = createHash('sha256').update(png).digest('hex');
  const pdf = await renderSignedPdf({
    title: NEWBORN_AGREEMENT_TITLE,
    subtitle: `Version ${AGREEMENT_VERSION}`,
    sections: [{ heading: 'Terms', paragraphs: [...newbornAgreementTerms] }],
    answers: rows,
    signaturePng: png,
    certificate: {
      signer: row.mainContact,
      clientActId: client.clientActId,
      signedAt: now,
      ip: input.ip,
      userAgent: input.userAgent,
      textSha256,
      signatureSha256,
      reference: row.id,
    },
  });
  const fileStem = `Newborn finance agreement ${client.clientActId}`;

  await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(newbornAgreements)
      .set({ signedAt: now, signerIp: input.ip, userAgent: input.userAgent })
      .where(and(eq(newbornAgreements.id, row.id), isNull(newbornAgreements.signedAt)))
      .returning({ id: newbornAgreements.id });
    if (!claimed) throw alreadySigned();
    const store = (
      kind: 'signature' | 'signed_agreement',
      fileName: string,
      contentType: string,
      content: Buffer,
    ) =>
      storeDocument(tx, documentsKey, {
        clientId: row.clientId,
        kind,
        fileName,
        contentType,
        content,
        now,
      });
    await store('signature', `${fileStem}-signature.png`, 'image/png', png);
    const document = await store('signed_agreement', `${fileStem}.pdf`, 'application/pdf', pdf);
    await tx
      .update(newbornAgreements)
      .set({ documentId: document.id })
      .where(eq(newbornAgreements.id, row.id));
    await mailer.enqueue(
      tx,
      {
        to: row.mainContactEmail,
        subject: 'Your signed Newborn Finance Agreement',
        text: [
          `Dear ${row.mainContact},`,
          'Thank you for signing your Newborn Finance Agreement. Your signed copy is attached.',
          `Reference ${row.id}.`,
        ].join('\n\n'),
        attachments: [
          { documentId: document.id, filename: `${fileStem}.pdf`, contentType: 'application/pdf' },
        ],
      },
      { dedupeKey: `newborn-agreement:${row.id}` },
    );
  });
  mailer.kick();
}
