import { describe, expect, it } from 'vitest';
import { paymentPurposeLabel, type Receipt, receiptLines } from './receipt';

const receipt: Receipt = {
  clientName: 'John Smith',
  clientActId: 'ACT10002',
  paidOn: '11/22/2026',
  description: 'Annual storage fees (overdue years)',
  amountCents: 67962,
  feeCents: 2039,
  totalCents: 70001,
  method: 'Visa ending in 4242',
  transactionId: 'sandbox-txn-1',
};

describe('receiptLines', () => {
  it('lists the amount, the card fee and the total to the cent', () => {
    expect(receiptLines(receipt)).toEqual([
      { label: 'Client', value: 'John Smith (Client ID ACT10002)' },
      { label: 'Date paid', value: '11/22/2026' },
      { label: 'For', value: 'Annual storage fees (overdue years)' },
      { label: 'Amount', value: '$679.62' },
      { label: 'Card processing fee', value: '$20.39' },
      { label: 'Total charged', value: '$700.01' },
      { label: 'Paid with', value: 'Visa ending in 4242' },
      { label: 'Transaction number', value: 'sandbox-txn-1' },
    ]);
  });

  it('leaves the fee line out of a payment without one (ACH)', () => {
    const lines = receiptLines({ ...receipt, feeCents: 0, totalCents: 67962 });
    expect(lines.map((l) => l.label)).not.toContain('Card processing fee');
    expect(lines.find((l) => l.label === 'Total charged')?.value).toBe('$679.62');
  });
});

describe('paymentPurposeLabel', () => {
  it.each([
    ['annual_storage_overdue', 'Annual storage fees (overdue years)'],
    ['white_glove_lab', 'White Glove Labs infectious disease screening'],
    ['initial_processing', 'Initial sample processing'],
    ['vial_request', 'Stem cell vials shipped to a clinic'],
    ['something_new', 'Payment'],
  ])('names %j as %j', (purpose, label) => {
    expect(paymentPurposeLabel(purpose)).toBe(label);
  });
});
