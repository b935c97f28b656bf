import { describe, expect, it } from 'vitest';
import { formPaymentProblems } from './form-payment';
import { setPaymentInfoRequestSchema } from './payment-info';
import { paymentMessages as m } from './payments';

const cardRequest = {
  Payment_Type: 'CC',
  token: { descriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', value: 'opaque' },
  Credit_Card_Type: 'Visa',
  Month_of_Expiry: '12',
  Year_of_Expiry: '2030',
  Credit_Card_Holder_First_Name: 'Jane',
  Credit_Card_Holder_Last_Name: 'Doe',
  Credit_Card_Biling_Email_Address: 'jane.doe@example.com',
  Country: 'United States',
  Credit_Card_Billing_Street: '1200 Ocean Drive',
  Credit_Card_Billing_City: 'Miami Beach',
  Credit_Card_Billing_State: 'FL',
  Credit_Card_Billing_Zip_Code: '33139',
};

function problemsOf(body: Record<string, unknown>): Record<string, string> {
  const parsed = setPaymentInfoRequestSchema.safeParse(body);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('set_PaymentInfo: the card billing address (a deviation from spec 1 the gateway needs)', () => {
  it('accepts a card with its billing street, city and state', () => {
    expect(problemsOf(cardRequest)).toEqual({});
  });

  it.each([['Credit_Card_Billing_Street'], ['Credit_Card_Billing_City'], ['Credit_Card_Billing_State']])(
    'refuses a card without %s with "Field can\'t be empty"',
    (field) => {
      expect(problemsOf({ ...cardRequest, [field]: undefined })).toEqual({ [field]: m.fieldRequired });
      expect(problemsOf({ ...cardRequest, [field]: '   ' })).toEqual({ [field]: m.fieldRequired });
    },
  );

  it('does not ask a bank account for a billing address', () => {
    const { Credit_Card_Billing_Street, Credit_Card_Billing_City, Credit_Card_Billing_State, ...rest } =
      cardRequest;
    expect(
      problemsOf({
        ...rest,
        Payment_Type: 'ACH',
        Name_On_Account: 'Jane Doe',
        ABA_Routing_Number: '110000000',
      }),
    ).toEqual({});
  });

  it.each([
    ['Credit_Card_Billing_Street', 61],
    ['Credit_Card_Billing_City', 41],
    ['Credit_Card_Billing_State', 41],
  ])('refuses %s longer than Authorize.Net takes (%i characters)', (field, length) => {
    expect(problemsOf({ ...cardRequest, [field]: 'x'.repeat(length) })).toHaveProperty(field);
  });
});

describe('form payment: a new card needs its billing address too', () => {
  const names = { first: 'first', last: 'last', month: 'month', year: 'year' };
  const newCard = {
    PaymentMethod: 'Credit Card' as const,
    update_card: true,
    update_ach: false,
    token: { descriptor: 'x', value: 'y' },
    Credit_Card_Type: 'Visa',
    Month_of_Expiry: '12',
    Year_of_Expiry: '2030',
    Credit_Card_Holder_First_Name: 'Jane',
    Credit_Card_Holder_Last_Name: 'Doe',
    Credit_Card_Biling_Email_Address: 'jane.doe@example.com',
    Credit_Card_Billing_Street: '1200 Ocean Drive',
    Credit_Card_Billing_City: 'Miami Beach',
    Credit_Card_Billing_State: 'FL',
  };
  const onFile = { card: false, ach: false };

  it('accepts a new card with its billing address', () => {
    expect(formPaymentProblems(newCard, onFile, names)).toEqual({});
  });

  it('names each missing part of the billing address', () => {
    expect(
      formPaymentProblems(
        {
          ...newCard,
          Credit_Card_Billing_Street: '',
          Credit_Card_Billing_City: undefined,
          Credit_Card_Billing_State: '',
        },
        onFile,
        names,
      ),
    ).toEqual({
      Credit_Card_Billing_Street: m.fieldRequired,
      Credit_Card_Billing_City: m.fieldRequired,
      Credit_Card_Billing_State: m.fieldRequired,
    });
  });

  it.each([
    ['no billing e-mail', undefined, 'Please enter billing email'],
    ['a blank billing e-mail', '   ', 'Please enter billing email'],
    ['a billing e-mail that is not one', 'jane.doe@', 'Invalid email.'],
  ])("refuses a new card with %s: '%s'", (_what, email, message) => {
    expect(
      formPaymentProblems({ ...newCard, Credit_Card_Biling_Email_Address: email }, onFile, {
        ...names,
        email: 'Please enter billing email',
      }),
    ).toEqual({ Credit_Card_Biling_Email_Address: message });
  });

  it("says 'Cannot be empty' for a missing billing e-mail where a form has no words of its own", () => {
    expect(formPaymentProblems({ ...newCard, Credit_Card_Biling_Email_Address: '' }, onFile, names)).toEqual({
      Credit_Card_Biling_Email_Address: 'Cannot be empty',
    });
  });

  it('does not ask for an address when the card on file is used', () => {
    expect(
      formPaymentProblems(
        { PaymentMethod: 'Credit Card', update_card: false, update_ach: false },
        { card: true, ach: false },
        names,
      ),
    ).toEqual({});
  });
});
