import { describe, expect, it } from 'vitest';
import { sendCellRequestSchema } from './cell-request';
import { sendStoreRequestSchema } from './store';

const card = {
  PaymentMethod: 'Credit Card',
  update_card: true,
  Credit_Card_Type: 'Visa',
  Month_of_Expiry: '12',
  Year_of_Expiry: '2030',
  Credit_Card_Holder_First_Name: 'Jane',
  Credit_Card_Holder_Last_Name: 'Doe',
};

const store = {
  stemskinserum: { quantity: 1 },
  ShipmentDate: '12/08/2026',
  FirstName: 'Jane',
  LastName: 'Doe',
  ShippingEmail: 'jane.doe@example.com',
  Phone: '3055550142',
  Street: '1200 Brickell Avenue',
  City: 'Miami',
  State: 'FL',
  Country: 'United States',
  ZipCode: '33131',
  ...card,
};

describe("the card fields by the spec's own names (DESIGN.md 8.4)", () => {
  it('reads Credit_Card_Billing_Email and Credit_Card_Holder_Zip as the billing e-mail and zip', () => {
    const parsed = sendStoreRequestSchema.parse({
      ...store,
      Credit_Card_Billing_Email: 'billing@example.com',
      Credit_Card_Holder_Zip: '33131',
    });
    expect(parsed).toMatchObject({
      Credit_Card_Biling_Email_Address: 'billing@example.com',
      Credit_Card_Billing_Zip_Code: '33131',
    });
    expect(parsed).not.toHaveProperty('Credit_Card_Billing_Email');
    expect(parsed).not.toHaveProperty('Credit_Card_Holder_Zip');
  });

  it("keeps the page's names when both come", () => {
    const parsed = sendStoreRequestSchema.parse({
      ...store,
      Credit_Card_Biling_Email_Address: 'page@example.com',
      Credit_Card_Billing_Email: 'spec@example.com',
    });
    expect(parsed.Credit_Card_Biling_Email_Address).toBe('page@example.com');
  });

  it('checks the value under either name with the same rule', () => {
    const parsed = sendCellRequestSchema.safeParse({ Credit_Card_Billing_Email: 'x'.repeat(300) });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path[0])).toContain('Credit_Card_Biling_Email_Address');
  });
});
