import { todayFor } from '../../../domain/client';
import {
  ADDENDUM_A_TITLE,
  CONSENT_AGREEMENT_TITLE,
  CONSENT_AGREEMENT_VERSION,
  consentAgreementOf,
  consentAgreementSections,
  consentAgreementText,
  RELEASE_TO_INDIVIDUAL,
} from '../../../domain/consent-agreement';
import {
  annualFeeMethod,
  annualStorageCommitment,
  consentMessages,
  type FormSubmissionResponse,
  MEDICATIONS_QUESTION,
  physicianConsentMessages,
  type SendConsentDataRequest,
  type SendPhysicianConsentDataRequest,
} from '../../../domain/consent-form';
import { usDateToIso } from '../../../domain/dates';
import { PAYMENT_SOURCES } from '../../../domain/payment-info';
import { orderNumber } from '../../../domain/site';
import { faultPoint } from '../../lib/faults';
import { HttpError, notFound } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { type ClientRow, saveConsentProfile } from '../clients/client-directory';
import { contactChanges, physicianContactRefusal } from '../clients/contact-changes';
import { findMethodsOnFile } from '../payments/payment-methods';
import { savePaymentMethod } from '../payments/payment-service';
import { findPhysician } from '../physicians/physician-repository';
import { priceBookInForce } from '../prices/price-book-repository';
import { readSignature, submitFormOnce } from './form-claims';
import { deleteSubmittedFormDrafts } from './form-drafts';
import { describePayment, resolveFormPayment } from './form-payment';
import { completeSignedForm, type FormDeps, type SignerContext, signerOf } from './signed-record';

/**
 * Who submits a consent: the client themselves (send_ConsentData), or a physician for the client
 * they act for, signing in the clinic (send_PhysicianConsentData), whose body also carries the
 * client's personal details.
 */
export type ConsentSubmission =
  | { variant: 'client'; body: SendConsentDataRequest }
  | { variant: 'physician'; body: SendPhysicianConsentDataRequest; physicianId: string };

/** The client's details the physician variant saves on the client's record. */
function detailsOf(body: SendPhysicianConsentDataRequest) {
  return {
    firstName: body.FirstName,
    lastName: body.LastName,
    dateOfBirth: usDateToIso(body.Dob) as string,
    email: body.Email,
    phone: body.PhoneNumber,
    street: body.Address,
    city: body.City,
    state: body.State,
    zip: body.zipcode,
    country: body.Country,
    enrollmentDate: usDateToIso(body.Enrollment_Date) as string,
  };
}

/** The physician who submits a physician-variant consent, as its PDF and e-mails name them. */
async function submittingPhysician(deps: FormDeps, physicianId: string) {
  const physician = await findPhysician(deps.db, physicianId);
  if (!physician) throw notFound();
  return { ...physician, name: `${physician.firstName} ${physician.lastName}` };
}

/**
 * send_ConsentData and send_PhysicianConsentData: checks everything again, claims the form,
 * keeps a new method on the client's file when asked (nothing is charged today), stores the
 * answers, the signature and the signed PDF (encrypted), sets the consent flag and e-mails the
 * PDF. The physician variant also saves the client's details, in the same transaction as the
 * signing, and the certificate names the physician in whose presence the client signed.
 */
export async function submitConsent(
  deps: FormDeps,
  signer: SignerContext,
  submission: ConsentSubmission,
): Promise<FormSubmissionResponse> {
  const { db, clock } = deps;
  const { clientId } = signer;
  const { body } = submission;
  const now = clock.now();
  const { client: onRecord, physician: clientPhysician } = await signerOf(deps, clientId);
  const submitter =
    submission.variant === 'physician' ? await submittingPhysician(deps, submission.physicianId) : null;
  const details = submission.variant === 'physician' ? detailsOf(submission.body) : null;
  // The PDF and the e-mail name the client as the details now read.
  const client: ClientRow = details ? { ...onRecord, ...details } : onRecord;
  const physician = submitter
    ? { first: submitter.firstName, last: submitter.lastName, actId: submitter.physicianActId }
    : clientPhysician;
  if (!client.initialProcessingFormCompleted) {
    throw new HttpError('INITIAL_PROCESSING_REQUIRED', consentMessages.initialProcessingFirst);
  }
  if (body.agreementVersion !== CONSENT_AGREEMENT_VERSION) {
    throw new HttpError('AGREEMENT_CHANGED', consentMessages.agreementChanged);
  }
  const png = await readSignature(body.Signature);
  if (!png) {
    throw new HttpError('VALIDATION', consentMessages.signature, {
      Signature: consentMessages.signature,
    });
  }
  // The client pays their own annual storage, in both variants: the method is the client's.
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
  // The agreement commits a method to the yearly fee: a new one not kept leaves it to one on file.
  let annualFeeNote: string | null = null;
  if ('token' in payment) {
    const methods = await findMethodsOnFile(db, clientId);
    const rule = annualFeeMethod(
      { kind: payment.kind, isNew: true, keep: payment.keepOnFile },
      {
        card: methods.card ? `${methods.card.brand ?? 'card'} ending in ${methods.card.last4}` : null,
        ach: methods.ach ? `bank account ending in ${methods.ach.last4}` : null,
      },
    );
    if (rule && 'problem' in rule) {
      throw new HttpError('VALIDATION', rule.problem, {
        [payment.kind === 'card' ? 'save_card' : 'save_ach']: rule.problem,
      });
    }
    if (rule) annualFeeNote = rule.note;
  }
  // The physician saves the client's details, but not how the client signs in and recovers the
  // account: a changed e-mail address or phone number is the client's or the bank's to make.
  if (details && !onRecord.clientConsentFormCompleted) {
    const refusal = physicianContactRefusal(contactChanges(onRecord, details), {
      email: 'Email',
      phone: 'PhoneNumber',
    });
    if (refusal) throw refusal;
  }

  const response = await submitFormOnce(deps, {
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
          source: submitter ? PAYMENT_SOURCES.physicianConsentForm : PAYMENT_SOURCES.consentForm,
          idempotencyKey: `${signer.idempotencyKey}:method`,
          request: payment.token,
          chargeOverdue: false,
        });
        const kept = (await findMethodsOnFile(db, clientId))[payment.kind === 'card' ? 'card' : 'ach'];
        if (kept) paymentLine = describePayment(payment, kept);
      }

      const annualFeeLine = annualFeeNote ? `${paymentLine}. ${annualFeeNote}` : paymentLine;
      const signerName = `${client.firstName} ${client.lastName}`;
      // The fees the agreement and its commitment quote: the price book in force at the signature.
      const { book } = await priceBookInForce(db, now);
      const agreement = consentAgreementOf(book);
      const commitment = annualStorageCommitment(book);
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
        ...(submission.variant === 'physician'
          ? [{ label: 'Enrollment Date', value: submission.body.Enrollment_Date }]
          : []),
        { label: 'Tissue type', value: body.sample_type },
        {
          label: 'Payment method for annual storage',
          value: annualFeeLine,
        },
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
            title: CONSENT_AGREEMENT_TITLE,
            version: CONSENT_AGREEMENT_VERSION,
            subtitle: `Version ${CONSENT_AGREEMENT_VERSION}`,
            // Addendum A is signed as page 1 shows it: its introduction and what each choice means.
            sections: consentAgreementSections(agreement),
            signed: consentAgreementText(agreement),
          },
          answers,
          answersJson: { ...body, Signature: undefined, token: undefined },
          signaturePng: png,
          fileStem: 'signed-consent-agreement',
          response: {
            success: true,
            TransactionId: claim.submissionId,
            page_name: submitter ? 'client-consent' : 'Consent-form',
            message: submitter ? physicianConsentMessages.submitted : consentMessages.submitted,
          },
          ...(submitter && {
            inPresenceOf: {
              physicianId: submitter.id,
              physicianActId: submitter.physicianActId,
              name: submitter.name,
            },
            alsoInTransaction: (tx: Transaction) =>
              physicianVariantEffects(deps, tx, {
                submissionId: claim.submissionId,
                client,
                submitter,
                details: details as ReturnType<typeof detailsOf>,
                now,
              }),
          }),
          mail: {
            subject: 'Client Portal: your signed consent agreement',
            paragraphs: [
              submitter
                ? `Thank you for signing the ${CONSENT_AGREEMENT_TITLE} (version ${CONSENT_AGREEMENT_VERSION}) in the presence of your physician, ${submitter.name}. A copy of the signed agreement is attached; you can also download it from Forms and Other Documents in the Client Portal.`
                : `Thank you for signing the ${CONSENT_AGREEMENT_TITLE} (version ${CONSENT_AGREEMENT_VERSION}). A copy of the signed agreement is attached; you can also download it from Forms and Other Documents in the Client Portal.`,
              `Tissue type: ${body.sample_type}. Payment method for annual storage: ${annualFeeLine}${annualFeeNote ? '' : '.'} Nothing was charged today.`,
              'If you did not sign this agreement, please contact us right away.',
            ],
          },
        },
      );
    },
  });
  // Signed: its drafts, the client's and any physician's, have nothing left to keep.
  await deleteSubmittedFormDrafts(db, 'consent', clientId);
  return response;
}

/**
 * What a physician-variant signing changes beside the signing itself, in its transaction: the
 * client's details saved on the record (never their e-mail address or phone number: refused before
 * the claim) and a notice to the physician.
 */
async function physicianVariantEffects(
  deps: FormDeps,
  tx: Transaction,
  input: {
    submissionId: string;
    client: ClientRow;
    submitter: { email: string; name: string; physicianActId: string };
    details: ReturnType<typeof detailsOf>;
    now: Date;
  },
) {
  const { submissionId, client, submitter, details, now } = input;
  // The e-mail address and phone number equal the record's (checked before the claim); they are not
  // written, so a change the client made meanwhile stands.
  const { email: _email, phone: _phone, ...profile } = details;
  await saveConsentProfile(tx, client.id, profile, now);
  const clientName = `${client.firstName} ${client.lastName}`;
  await deps.mailer.enqueue(
    tx,
    {
      to: submitter.email,
      subject: `Physician Portal: consent signed by ${clientName} (${client.clientActId})`,
      text: [
        `Dear ${submitter.name},`,
        `The ${CONSENT_AGREEMENT_TITLE} of ${clientName} (Client ID ${client.clientActId}), signed in your presence, was submitted from the Physician Portal. The signed agreement was e-mailed to the client at ${client.email}; you can download it from My Clients.`,
        "The client's details you entered are now on the client's record.",
        `Reference ${orderNumber('FS', submissionId)}.`,
      ].join('\n\n'),
    },
    { dedupeKey: `form:${submissionId}:physician` },
  );
}
