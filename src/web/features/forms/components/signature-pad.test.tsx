import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { consentMessages } from '../../../../domain/consent-form';
import { diseaseMessages } from '../../../../domain/infectious-disease';
import { initialPaymentChoice } from '../../../lib/payment/payment-choice';
import { renderInPortal } from '../../../testing/render';
import { ConsentPageTwoFields } from './consent-page-two';
import { SignaturePadField } from './signature-pad';
import { WaiverSection } from './waiver-section';

// jsdom has no canvas to draw on: the pad is always empty, so confirming it is always refused.

beforeAll(() => {
  // The waiver's autosized Textarea listens for web fonts loading, which jsdom does not have.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => {}, removeEventListener: () => {} },
    });
  }
});

describe('confirming an empty signature pad names the button just clicked', () => {
  it('the pad shows the message and the label it is given', async () => {
    renderInPortal(
      <SignaturePadField
        value={null}
        onChange={() => {}}
        confirmLabel="Sign it"
        unsignedMessage="Draw, then Sign it."
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Sign it' }));
    expect(screen.getByRole('alert').textContent).toBe('Draw, then Sign it.');
  });

  it('the consent page: Accept, and the message names Accept', async () => {
    renderInPortal(
      <ConsentPageTwoFields
        variant="client"
        values={{ sampleType: '', payment: initialPaymentChoice(false), agree: false, signature: null }}
        onChange={() => {}}
        errors={{}}
        physician={{ id: 'p-1', lastName: 'Grey' }}
        clientInformation={null}
        paymentInfo={undefined}
        today="2025-01-15"
        disabled={false}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(screen.getByRole('alert').textContent).toBe('Please sign and click on Accept.');
    expect(consentMessages.signature).toBe('Please sign and click on Accept.');
  });

  it('the Waiver Submission: "Click to Confirm Signature", and the message names it', async () => {
    renderInPortal(
      <WaiverSection
        value={{ notice: '', signature: null, diseases: '' }}
        onChange={() => {}}
        errors={{}}
        disabled={false}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Click to Confirm Signature' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Please sign and click on "Click to Confirm Signature".',
    );
    expect(diseaseMessages.signature).toBe('Please sign and click on "Click to Confirm Signature".');
  });
});
