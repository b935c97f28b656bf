import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { todayFor } from '../../../domain/client';
import {
  CONSENT_AGREEMENT_VERSION,
  consentAgreement,
  consentAgreementText,
} from '../../../domain/consent-agreement';
import {
  ADDENDUM_A_TITLE,
  annualStorageCommitment,
  consentMessages,
  type FormSubmissionResponse,
  MEDICATIONS_QUESTION,
  RELEASE_TO_INDIVIDUAL,
  type SendConsentDataRequest,
} from '../../../domain/consent-form';
import { PAYMENT_SOURCES } from '../../../domain/payment-info';
import { clients, formSubmissions, physicianClients, physicians } from '../../db/schema';
import { storeDocument } from '../../lib/document-store';
import { HttpError, notFound } from '../../lib/http-error';
import { findMethodsOnFile } from '../payments/payment-methods';
import { type PaymentDeps, savePaymentMethod } from '../payments/payment-service';
import { claimForm, readSignature, releaseClaim } from './form-claims';
import { describePayment, resolveFormPayment } from './form-payment';
import { renderSignedPdf } from './signed-pdf';

export interface FormDeps extends PaymentDeps {
  documentsKey: Buffer;
}

export interface SignerContext {
  clientId: string;
  idempotencyKey: string;
  ip: string;
  userAgent: string;
}

const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex');

/** The client and their physician, as the form and its PDF name them. */
export async function signerOf(deps: FormDeps, clientId: string) {
  const [client] = await deps.db.select().from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client) throw notFound();
  const [physician] = await deps.db
    .select({ first: physicians.firstName, last: physicians.lastName, actId: physicians.physicianActId })
    .from(physicianClients)
    .innerJoin(physicians, eq(physicians.id, physicianClients.physicianId))
    .where(eq(physicianClients.clientId, clientId))
    .limit(1);
  return { client, physician: physician ?? null };
}

/**
 * send_ConsentData: checks everything again, claims the form, keeps a new method on file when
 * asked (nothing is charged today), stores the answers, the signature and the signed PDF
 * (encrypted), sets the consent flag and e-mails the PDF.
 */
export async function submitConsent(
  deps: FormDeps,
  signer: SignerContext,
  body: SendConsentDataRequest,
): Promise<FormSubmissionResponse> {
  const { db, clock } = deps;
  const { clientId } = signer;
  const now = clock.now();
  const { client, physician } = await signerOf(deps, clientId);
  if (!client.initialProcessingFormCompleted) {
    throw new HttpError(409, 'INITIAL_PROCESSING_REQUIRED', consentMessages.initialProcessingFirst);
  }
  if (body.agreementVersion !== CONSENT_AGREEMENT_VERSION) {
    throw new HttpError(409, 'AGREEMENT_CHANGED', consentMessages.agreementChanged);
  }
  const png = await readSignature(body.Signature);
  if (!png) {
    throw new HttpError(400, 'VALIDATION', consentMessages.signature, {
      Signature: consentMessages.signature,
    });
  }
  const payment = await resolveFormPayment(
    db,
    clientId,
    body,
    {
      first: consentMessages.cardFirstName,
      last: consentMessages.cardLastName,
      month: consentMessages.empty,
      year: consentMessages.empty,
    },
    todayFor(now),
  );

  const claimed = await claimForm(db, {
    clientId,
    form: 'consent',
    idempotencyKey: signer.idempotencyKey,
    body,
    now,
    alreadyCompleted: consentMessages.alreadyCompleted,
    completedOnRecord: client.clientConsentFormCompleted,
  });
  if ('replay' in claimed) return claimed.replay;
  const { claim } = claimed;

  try {
    let paymentLine = describePayment(payment);
    if ('token' in payment && payment.keepOnFile) {
      await savePaymentMethod(deps, {
        clientId,
        source: PAYMENT_SOURCES.consentForm,
        idempotencyKey: signer.idempotencyKey,
        request: payment.token,
        chargeOverdue: false,
      });
      const kept = (await findMethodsOnFile(db, clientId))[payment.kind === 'card' ? 'card' : 'ach'];
      if (kept) paymentLine = describePayment(payment, kept);
    }

    const signerName = `${client.firstName} ${client.lastName}`;
    const agreementText = consentAgreementText();
    const textSha256 = sha256(agreementText);
    const commitment = annualStorageCommitment();
    const individual = body.Tissue_deliver === RELEASE_TO_INDIVIDUAL;
    const answers = [
      { label: `${ADDENDUM_A_TITLE}`, value: body.Tissue_deliver },
      ...(individual
        ? [
            { label: 'Individual: name', value: body.Addendum_name ?? '' },
            { label: 'Individual: date of birth', value: body.Addendum_dob ?? '' },
            { label: 'Individual: address', value: body.Addendum_address ?? '' },
            { label: 'Individual: phone', value: body.Addendum_phone ?? '' },
            { label: 'Individual: relationship', value: body.Relationship ?? '' },
          ]
        : []),
      { label: MEDICATIONS_QUESTION, value: body.Medications },
      ...(body.Medications === 'Yes'
        ? [{ label: 'Medications taken', value: body.Medications_taking ?? '' }]
        : []),
      {
        label: 'Physician',
        value: physician ? `${physician.first} ${physician.last} (${physician.actId})` : 'None on record',
      },
      {
        label: 'Client',
        value: `${signerName}, Client ID ${client.clientActId}, born ${client.dateOfBirth}, ${client.email}, ${client.phone}, ${[client.street, client.city, client.state, client.zip, client.country].filter(Boolean).join(', ')}`,
      },
      { label: 'Tissue type', value: body.sample_type },
      { label: 'Payment method for annual storage', value: paymentLine },
      {
        label: 'Annual storage',
        value: `Total owed today ${commitment.dueToday}. The first year of storage is included. After it, ${commitment.laterFee} a year by ACH, ${commitment.laterFeeCardOrCheck} by card or check, charged on each anniversary of tissue receipt.`,
      },
      { label: 'Agreement', value: 'I have read and agree to the Client Consent and Service Agreement.' },
    ];

    const signature = await storeDocument(db, deps.documentsKey, {
      clientId,
      kind: 'signature',
      fileName: 'consent-signature.png',
      contentType: 'image/png',
      content: png,
      now,
    });
    const answersDocument = await storeDocument(db, deps.documentsKey, {
      clientId,
      kind: 'form_answers',
      fileName: 'consent-answers.json',
      contentType: 'application/json',
      content: Buffer.from(JSON.stringify({ ...body, Signature: undefined, token: undefined })),
      now,
    });
    const pdf = await renderSignedPdf({
      title: consentAgreement.title,
      subtitle: `Version ${CONSENT_AGREEMENT_VERSION}`,
      sections: consentAgreement.sections,
      answers,
      signaturePng: png,
      certificate: {
        signer: signerName,
        clientActId: client.clientActId,
        signedAt: now,
        ip: signer.ip,
        userAgent: signer.userAgent,
        textSha256,
        signatureSha256: signature.sha256,
        reference: claim.id,
      },
    });
    const pdfDocument = await storeDocument(db, deps.documentsKey, {
      clientId,
      kind: 'signed_agreement',
      fileName: 'signed-consent-agreement.pdf',
      contentType: 'application/pdf',
      content: pdf,
      now,
    });
    const response: FormSubmissionResponse = {
      success: true,
      TransactionId: claim.id,
      page_name: 'Consent-form',
      message: consentMessages.submitted,
      documentId: pdfDocument.id,
    };
    await db.transaction(async (tx) => {
      await tx
        .update(formSubmissions)
        .set({
          status: 'completed',
          agreementVersion: CONSENT_AGREEMENT_VERSION,
          agreementSha256: textSha256,
          answersDocumentId: answersDocument.id,
          signatureDocumentId: signature.id,
          pdfDocumentId: pdfDocument.id,
          signerIp: signer.ip,
          userAgent: signer.userAgent,
          responseJson: JSON.stringify(response),
          completedAt: now,
        })
        .where(eq(formSubmissions.id, claim.id));
      await tx
        .update(clients)
        .set({ clientConsentFormCompleted: true, updatedAt: now })
        .where(eq(clients.id, clientId));
    });

    await deps.mailer
      .send({
        to: client.email,
        subject: 'Client Portal: your signed consent agreement',
        text: [
          `Dear ${signerName},`,
          `Thank you for signing the ${consentAgreement.title} (version ${CONSENT_AGREEMENT_VERSION}). A copy of the signed agreement is attached; you can also download it from Forms and Other Documents in the Client Portal.`,
          `Tissue type: ${body.sample_type}. Payment method for annual storage: ${paymentLine}. Nothing was charged today.`,
          `Reference ${claim.id}.`,
          'If you did not sign this agreement, please contact us right away.',
        ].join('\n\n'),
        attachments: [
          { filename: 'signed-consent-agreement.pdf', contentType: 'application/pdf', content: pdf },
        ],
      })
      .catch((error: unknown) => deps.log.warn({ err: error }, 'signed consent not e-mailed'));
    return response;
  } catch (error) {
    await releaseClaim(db, claim);
    throw error;
  }
}
