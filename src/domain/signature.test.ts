import { describe, expect, it } from 'vitest';
import { consentMessages, sendConsentDataRequestSchema } from './consent-form';
import { diseaseMessages, setDiseaseDataRequestSchema } from './infectious-disease';
import { newbornAgreementMessages, setClientAgreementRequestSchema } from './newborn-agreement';
import { ACCEPT_SIGNATURE_LABEL, CONFIRM_SIGNATURE_LABEL } from './signature';

/** The message the schema gives for the field, or undefined. */
function messageOn(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  field: string,
) {
  return result.error?.issues.find((issue) => issue.path[0] === field)?.message;
}

describe('a missing signature names the button of its own form', () => {
  it('the consent forms (client and physician): their pad confirms with Accept', () => {
    expect(consentMessages.acceptSignature).toBe(ACCEPT_SIGNATURE_LABEL);
    expect(consentMessages.signature).toBe('Please sign and click on Accept.');
    expect(consentMessages.signature).toContain(consentMessages.acceptSignature);
    expect(consentMessages.signature).not.toContain('check button');
  });

  it('the Waiver Submission: its pad confirms with "Click to Confirm Signature"', () => {
    expect(diseaseMessages.confirmSignature).toBe(CONFIRM_SIGNATURE_LABEL);
    expect(diseaseMessages.signature).toBe('Please sign and click on "Click to Confirm Signature".');
    expect(diseaseMessages.signature).toContain(`"${diseaseMessages.confirmSignature}"`);
    expect(diseaseMessages.signature).not.toContain(ACCEPT_SIGNATURE_LABEL);
  });

  it('the newborn finance agreement: its pad confirms with "Click to Confirm Signature"', () => {
    expect(newbornAgreementMessages.confirmSignature).toBe(CONFIRM_SIGNATURE_LABEL);
    expect(newbornAgreementMessages.signature).toBe('Please sign and click on "Click to Confirm Signature".');
    expect(newbornAgreementMessages.signature).toContain(`"${newbornAgreementMessages.confirmSignature}"`);
  });

  it('the schemas the server checks with give each form its own message', () => {
    for (const Signature of [undefined, '', 'data:image/jpeg;base64,AAAA']) {
      expect(messageOn(sendConsentDataRequestSchema.safeParse({ Signature }), 'Signature')).toBe(
        consentMessages.signature,
      );
      expect(
        messageOn(
          setDiseaseDataRequestSchema.safeParse({
            submissionOption: 'Waiver Submission',
            WaiverNotice: 'negative',
            agree: true,
            Signature,
          }),
          'Signature',
        ),
      ).toBe(diseaseMessages.signature);
      expect(
        messageOn(
          setClientAgreementRequestSchema.safeParse({
            ClientId: 'token',
            signatureData: Signature,
            NBAgreementCompleted: true,
          }),
          'signatureData',
        ),
      ).toBe(newbornAgreementMessages.signature);
    }
  });
});
