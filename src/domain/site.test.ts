import { describe, expect, it } from 'vitest';
import { bankPhoneText, checkInstructions, orderNumber, planCheckMemo } from './site';

const bank = {
  name: 'ACT',
  phone: '3055550100',
  payee: 'Stem Cell Bank',
  remitTo: ['Attn: Accounts Receivable', '1450 Brickell Avenue, Suite 1900', 'Miami, FL 33131'],
  privacyUrl: 'https://www.stemcellbank.example.com/privacy',
};

describe("the bank's details as people read them", () => {
  it('say how to pay by check: the amount, the payee, the memo and the address', () => {
    expect(checkInstructions(bank, 1_157_500, 'ACT10008 order SP-6F1C2B9E')).toBe(
      'Please make your check for $11,575.00 payable to Stem Cell Bank, write "ACT10008 order SP-6F1C2B9E" on it, and mail it to Stem Cell Bank, Attn: Accounts Receivable, 1450 Brickell Avenue, Suite 1900, Miami, FL 33131.',
    );
  });

  it('number an order with its kind and its first eight characters, never the whole id', () => {
    expect(orderNumber('SP', '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f70')).toBe('SP-6F1C2B9E');
    expect(orderNumber('FS', 'a3b4c5d6-0a4d-4c1e-9d1a-2b3c4d5e6f70')).toBe('FS-A3B4C5D6');
    expect(orderNumber('NA', '6e3b0f7a-2c41-4d8e-9a5b-1f0c7d2e8a10')).toBe('NA-6E3B0F7A');
    expect(planCheckMemo('ACT10008', '6f1c2b9e-0a4d-4c1e-9d1a-2b3c4d5e6f70')).toBe(
      'ACT10008 order SP-6F1C2B9E',
    );
  });

  it("show the bank's phone formatted", () => {
    expect(bankPhoneText(bank)).toBe('(305) 555-0100');
  });
});
