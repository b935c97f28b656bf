import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { consentMessages } from '../../../domain/consent-form';
import { FORM_PAYMENT_METHODS } from '../../../domain/form-payment';
import type { PaymentInfo } from '../../../domain/payment-info';
import { AnnualStorageCommitment } from '../../features/forms/components/annual-storage-commitment';
import { annualFeeMethodOf } from '../../features/forms/lib/annual-fee-method';
import {
  initialPaymentChoice,
  type PaymentChoice,
  withSavedCardByDefault,
} from '../../lib/payment/payment-choice';
import { renderInPortal } from '../../testing/render';
import { FormPaymentChoice } from './form-payment-choice';

const checked = (element: HTMLElement) => (element as HTMLInputElement).checked;

const nothingOnFile = Object.fromEntries(
  [
    'Credit_Card_Number',
    'Credit_Card_Type',
    'Month_of_Expiry',
    'Year_of_Expiry',
    'Credit_Card_Holder_First_Name',
    'Credit_Card_Holder_Last_Name',
    'Credit_Card_Billing_Zip_Code',
    'Account_Number',
    'Name_On_Account',
    'ABA_Routing_Number',
    'Physician_ID',
    'Physician_First_Name',
    'Physician_Last_Name',
  ].map((field) => [field, null]),
) as unknown as PaymentInfo;

const visaOnFile = {
  ...nothingOnFile,
  Id: 'pm-1',
  Credit_Card_Number: '************1111',
  Credit_Card_Type: 'Visa',
  Month_of_Expiry: '12',
  Year_of_Expiry: '2029',
  Credit_Card_Holder_First_Name: 'John',
  Credit_Card_Holder_Last_Name: 'Roe',
} as PaymentInfo;

/** The consent's payment choice as the page holds it, with its annual fee note below. */
function ConsentPayment({ info }: { info: PaymentInfo }) {
  const [choice, setChoice] = useState<PaymentChoice>(
    withSavedCardByDefault(initialPaymentChoice(true), Boolean(info.Credit_Card_Number)),
  );
  return (
    <>
      <FormPaymentChoice
        methods={FORM_PAYMENT_METHODS}
        value={choice}
        onChange={setChoice}
        info={info}
        errors={{}}
        today="2026-11-23"
      />
      <AnnualStorageCommitment method={choice.method} feeMethod={annualFeeMethodOf(choice, info)} />
    </>
  );
}

describe('the saved / another card and ACH choice', () => {
  it('shows the card on file by default, and its fields only after "Use Another Credit Card"', async () => {
    const user = userEvent.setup();
    renderInPortal(<ConsentPayment info={visaOnFile} />);
    expect(checked(screen.getByRole('radio', { name: 'Credit Card' }))).toBe(true);
    expect(screen.getByText('Visa ************1111')).toBeDefined();
    expect(screen.queryByRole('textbox', { name: /Credit Card Number/ })).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'Use Another Credit Card' }));
    expect(screen.queryByText('Visa ************1111')).toBeNull();
    expect(screen.getByRole('textbox', { name: /Credit Card Number/ })).toBeDefined();
    expect(
      checked(screen.getByRole('checkbox', { name: 'Save this card on file for future payments' })),
    ).toBe(true);

    // Not kept: the Visa on file pays the annual fee, and the page says so, calmly.
    await user.click(screen.getByRole('checkbox', { name: 'Save this card on file for future payments' }));
    expect(
      screen.getByText(
        'This card is not kept on file: the annual storage fee will be charged to your Visa ending in 1111 on file.',
      ),
    ).toBeDefined();
    expect(screen.queryByTestId('annual-fee-problem')).toBeNull();
  });

  it('with nothing on file, asks for a card, and says in red that a card not kept could not pay the annual fee', async () => {
    const user = userEvent.setup();
    renderInPortal(<ConsentPayment info={nothingOnFile} />);
    expect(checked(screen.getByRole('radio', { name: 'Credit Card' }))).toBe(false);
    await user.click(screen.getByRole('radio', { name: 'Credit Card' }));
    expect(screen.getByText('No credit card is on file. Please enter the card to use.')).toBeDefined();
    expect(screen.getByRole('textbox', { name: /Credit Card Number/ })).toBeDefined();

    await user.click(screen.getByRole('checkbox', { name: 'Save this card on file for future payments' }));
    expect(screen.getByTestId('annual-fee-problem').textContent).toBe(
      consentMessages.annualFeeNeedsCardOnFile,
    );
    await user.click(screen.getByRole('checkbox', { name: 'Save this card on file for future payments' }));
    expect(screen.queryByTestId('annual-fee-problem')).toBeNull();
  });

  it('switching to ACH with no account on file offers "Use Another ACH", and back to the card keeps nothing typed', async () => {
    const user = userEvent.setup();
    renderInPortal(<ConsentPayment info={visaOnFile} />);
    await user.click(screen.getByRole('checkbox', { name: 'Use Another Credit Card' }));
    await user.type(screen.getByRole('textbox', { name: /Credit Card Number/ }), '4111111111111111');

    await user.click(screen.getByRole('radio', { name: 'ACH Payment' }));
    expect(screen.getByText('No bank account is on file.')).toBeDefined();
    await user.click(screen.getByRole('checkbox', { name: 'Use Another ACH' }));
    expect(screen.getByRole('textbox', { name: /Routing/ })).toBeDefined();

    await user.click(screen.getByRole('radio', { name: 'Credit Card' }));
    expect(screen.getByText('Visa ************1111')).toBeDefined();
    await user.click(screen.getByRole('checkbox', { name: 'Use Another Credit Card' }));
    expect((screen.getByRole('textbox', { name: /Credit Card Number/ }) as HTMLInputElement).value).toBe('');
  });
});
