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
import { faultPoint } from '../../lib/faults';
import { HttpError } from '../../lib/http-error';
import { findMethodsOnFile } from '../payments/payment-methods';
import { savePaymentMethod } from '../payments/payment-service';
import { readSignature, submitFormOnce } from './form-claims';
import { describePayment, resolveFormPayment } from './form-payment';
import { completeSignedForm, type FormDeps, type SignerContext, signerOf } from './signed-record';

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

  return submitFormOnce(deps, {
    clientId,
    form: 'consent',
    kind: 'consent',
    idempotencyKey: signer.idempotencyKey,
    body,
    alreadyCompleted: consentMessages.alreadyCompleted,
    completedOnRecord: client.clientConsentFormCompleted,
    work: async (run, claim) => {
      faultPoint('consent:after-claim');
      let paymentLine = describePayment(payment);
      if ('token' in payment && payment.keepOnFile) {
        await savePaymentMethod(deps, {
          clientId,
          source: PAYMENT_SOURCES.consentForm,
          idempotencyKey: `${signer.idempotencyKey}:method`,
          request: payment.token,
          chargeOverdue: false,
        });
        const kept = (await findMethodsOnFile(db, clientId))[payment.kind === 'card' ? 'card' : 'ach'];
        if (kept) paymentLine = describePayment(payment, kept);
      }

      const signerName = `${client.firstName} ${client.lastName}`;
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

      return completeSignedForm(
        deps,
        { claim, run, client, signer, now },
        {
          completedFlag: 'clientConsentFormCompleted',
          text: {
            title: consentAgreement.title,
            version: CONSENT_AGREEMENT_VERSION,
            subtitle: `Version ${CONSENT_AGREEMENT_VERSION}`,
            sections: consentAgreement.sections,
            signed: consentAgreementText(),
          },
          answers,
          answersJson: { ...body, Signature: undefined, token: undefined },
          signaturePng: png,
          fileStem: 'signed-consent-agreement',
          response: {
            success: true,
            TransactionId: claim.submissionId,
            page_name: 'Consent-form',
            message: consentMessages.submitted,
          },
          mail: {
            subject: 'Client Portal: your signed consent agreement',
            paragraphs: [
              `Thank you for signing the ${consentAgreement.title} (version ${CONSENT_AGREEMENT_VERSION}). A copy of the signed agreement is attached; you can also download it from Forms and Other Documents in the Client Portal.`,
              `Tissue type: ${body.sample_type}. Payment method for annual storage: ${paymentLine}. Nothing was charged today.`,
              'If you did not sign this agreement, please contact us right away.',
            ],
          },
        },
      );
    },
  });
}
