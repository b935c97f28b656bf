import { describe, expect, it } from 'vitest';
import { priceBookOf, SHIPPED_PRICE_AMOUNTS, SHIPPED_PRICE_BOOK } from './price-book';

const book = SHIPPED_PRICE_BOOK;

import {
  type AnnualStoragePlanId,
  bioInsuranceDiscountPercent,
  bioInsurancePerVial,
  bioInsurancePrice,
  extendPaidUntil,
  planChoiceProblem,
  priceStoragePlan,
  sendStoragePlanSchema,
} from './storage-plans';

describe('annual storage plans (spec 3 section 9)', () => {
  it.each([
    ['No Annual Storage', 0, 0, 0],
    ['5 Year', 5, 157_500, 10],
    ['10 Year', 10, 297_500, 15],
    ['18 Year', 18, 504_000, 20],
    ['25 Year', 25, 656_300, 25],
  ] as const)('%s: %i years for %i cents, %i%% prepaid discount', (id, years, cents, discount) => {
    const plan = book.annualStoragePlans.find((p) => p.id === id);
    expect(plan).toMatchObject({ years, cents, discountPercent: discount });
    // The price is the years at $350 less the discount, to the dollar (25 years: $6,562.50 -> $6,563).
    expect(
      Math.abs(cents - (years * book.storageYearListPrice * (100 - discount)) / 100),
    ).toBeLessThanOrEqual(50);
  });
});

describe('Bio-Insurance tiers, every count from 10 to 75 (DESIGN.md deviation 9)', () => {
  it.each([
    [10, 42_500, 425_000, 15],
    // DESIGN.md 8.23: 24 at $425 ($10,200) would cost more than 25 at $400: it costs $10,000.
    [24, 42_500, 1_000_000, 15],
    [47, 40_000, 1_875_000, 20],
    [49, 40_000, 1_875_000, 20],
    [25, 40_000, 1_000_000, 20],
    [50, 37_500, 1_875_000, 25],
    [75, 37_500, 2_812_500, 25],
  ])('%i vials: %i a vial, %i in all, %i%% off the $500 list price', (vials, each, total, discount) => {
    expect(bioInsurancePerVial(book, vials)).toBe(each);
    expect(bioInsurancePrice(book, vials)).toBe(total);
    expect(bioInsuranceDiscountPercent(book, vials)).toBe(discount);
  });

  it('never charges more for fewer vials, with the shipped book and with a book whose tiers cross later', () => {
    const crossing = priceBookOf({
      ...SHIPPED_PRICE_AMOUNTS,
      bioInsurance25to49: 39_000,
      bioInsurance50to75: 30_000,
    });
    for (const b of [book, crossing]) {
      for (let vials = 10; vials < 75; vials += 1) {
        expect(bioInsurancePrice(b, vials)).toBeLessThanOrEqual(bioInsurancePrice(b, vials + 1));
      }
    }
    // From 39 vials at $390 ($15,210) a count would cost more than 50 at $300 ($15,000): $15,000.
    expect(bioInsurancePrice(crossing, 40)).toBe(1_500_000);
    expect(bioInsurancePrice(crossing, 38)).toBe(1_482_000);
  });

  it('allows every count in range (the legacy dropdown omitted 24 and 47 to 49)', () => {
    for (let vials = 10; vials <= 75; vials += 1) expect(bioInsurancePrice(book, vials)).toBeGreaterThan(0);
    for (const vials of [24, 47, 48, 49]) expect(() => bioInsurancePrice(book, vials)).not.toThrow();
  });

  it.each([9, 76, 0, 10.5])('refuses %d vials', (vials) => {
    expect(() => bioInsurancePerVial(book, vials)).toThrow();
  });

  it('the named plans are the tier prices of 10, 25 and 50 vials', () => {
    expect(bioInsurancePrice(book, 10)).toBe(425_000);
    expect(bioInsurancePrice(book, 25)).toBe(1_000_000);
    expect(bioInsurancePrice(book, 50)).toBe(1_875_000);
  });
});

describe('priceStoragePlan', () => {
  it('the default order: Bio-Insurance 10 vials by card is $4,250.00 + $127.50 = $4,377.50', () => {
    const price = priceStoragePlan(book, {
      annualStoragePlan: 'No Annual Storage',
      plan: 'Bio-Insurance Plan',
      vials: 10,
      paymentMethod: 'card',
    });
    expect(price).toMatchObject({ amountCents: 425_000, processingFeeCents: 12_750, totalCents: 437_750 });
  });

  it.each(['ach', 'check'] as const)('no fee by %s', (paymentMethod) => {
    const price = priceStoragePlan(book, {
      annualStoragePlan: '5 Year',
      plan: 'Bio-Insurance Plan',
      vials: 25,
      paymentMethod,
    });
    expect(price).toMatchObject({ amountCents: 1_157_500, processingFeeCents: 0, totalCents: 1_157_500 });
  });

  it('5 years plus 25 vials by card: 3% of the whole order', () => {
    const price = priceStoragePlan(book, {
      annualStoragePlan: '5 Year',
      plan: 'Bio-Insurance Plan',
      vials: 25,
      paymentMethod: 'card',
    });
    expect(price).toMatchObject({
      storageYears: 5,
      storageCents: 157_500,
      bankingCents: 1_000_000,
      bioInsuranceVials: 25,
      longevityVials: 0,
      processingFeeCents: 34_725,
      totalCents: 1_192_225,
    });
  });

  it('the card fee is 3% to the cent: 25 years alone, $6,563.00 x 3% = $196.89 (whole-dollar prices never leave a half cent)', () => {
    const price = priceStoragePlan(book, {
      annualStoragePlan: '25 Year',
      plan: 'No additional Plan',
      paymentMethod: 'card',
    });
    expect(price.processingFeeCents).toBe(19_689);
    // 18 years with Longevity 100: (5,040 + 2,125) x 3% = 214.95.
    expect(
      priceStoragePlan(book, {
        annualStoragePlan: '18 Year',
        plan: 'Longevity Plan',
        longevityPlan: 'Longevity 100',
        paymentMethod: 'card',
      }).processingFeeCents,
    ).toBe(21_495);
    // 13 vials: $5,525.00 x 3% = $165.75.
    expect(
      priceStoragePlan(book, {
        annualStoragePlan: 'No Annual Storage',
        plan: 'Bio-Insurance Plan',
        vials: 13,
        paymentMethod: 'card',
      }).processingFeeCents,
    ).toBe(16_575);
  });

  // Spec 3 section 9: Longevity 100 = 2125 (10,000,000 cells), 250 = 5000 (25,000,000), 500 = 9375
  // (50,000,000); a Longevity vial holds 1 million cells (DESIGN.md 8.22).
  it.each([
    ['Longevity 100', 212_500, 10, 'Longevity 100 (10,000,000 cells, 10 vials of 1 million cells)'],
    ['Longevity 250', 500_000, 25, 'Longevity 250 (25,000,000 cells, 25 vials of 1 million cells)'],
    ['Longevity 500', 937_500, 50, 'Longevity 500 (50,000,000 cells, 50 vials of 1 million cells)'],
  ] as const)('%s costs %i cents and adds %i longevity vials', (name, cents, vials, label) => {
    const price = priceStoragePlan(book, {
      annualStoragePlan: 'No Annual Storage',
      plan: 'Longevity Plan',
      longevityPlan: name,
      paymentMethod: 'ach',
    });
    expect(price).toMatchObject({
      bankingCents: cents,
      bankingLabel: label,
      longevityVials: vials,
      bioInsuranceVials: 0,
      totalCents: cents,
    });
  });

  it('refuses an order of nothing', () => {
    expect(() =>
      priceStoragePlan(book, {
        annualStoragePlan: 'No Annual Storage',
        plan: 'No additional Plan',
        paymentMethod: 'card',
      }),
    ).toThrow('Please Select Any Annual Storage Plan');
    expect(planChoiceProblem('No Annual Storage', 'No additional Plan')).toBe(
      'Please Select Any Annual Storage Plan',
    );
    for (const id of ['5 Year', '10 Year'] as AnnualStoragePlanId[])
      expect(planChoiceProblem(id, 'No additional Plan')).toBeNull();
    expect(planChoiceProblem('No Annual Storage', 'Longevity Plan')).toBeNull();
  });
});

describe('extendPaidUntil', () => {
  it('counts from the current date when it is later than today', () => {
    expect(extendPaidUntil('2027-06-15', '2026-11-23', 5)).toBe('2032-06-15');
  });
  it('counts from today when the storage has lapsed or was never paid', () => {
    expect(extendPaidUntil('2025-01-01', '2026-11-23', 10)).toBe('2036-11-23');
    expect(extendPaidUntil(null, '2026-11-23', 18)).toBe('2044-11-23');
  });
  it('clamps Feb 29 to Feb 28', () => {
    expect(extendPaidUntil('2028-02-29', '2026-11-23', 5)).toBe('2033-02-28');
  });
});

describe('sendStoragePlanSchema', () => {
  const base = {
    Annual_Storage_Plan: 'No Annual Storage',
    Plan: 'Bio-Insurance Plan',
    Vials: 10,
    Tissue_Info: 'Adipose',
    PaymentMethod: 'Check',
  };
  it('takes the default order', () => {
    expect(sendStoragePlanSchema.safeParse(base).success).toBe(true);
  });
  it('refuses nothing chosen, with the spec message', () => {
    const parsed = sendStoragePlanSchema.safeParse({ ...base, Plan: 'No additional Plan' });
    expect(parsed.error?.issues.map((i) => i.message)).toContain('Please Select Any Annual Storage Plan');
  });
  it.each([9, 76, 12.5])('refuses %d vials', (Vials) => {
    expect(sendStoragePlanSchema.safeParse({ ...base, Vials }).success).toBe(false);
  });
  it('needs a sample type and a longevity plan name', () => {
    const parsed = sendStoragePlanSchema.safeParse({
      ...base,
      Tissue_Info: undefined,
      Plan: 'Longevity Plan',
    });
    const messages = parsed.error?.issues.map((i) => i.message);
    expect(messages).toContain('Please select sample type');
    expect(messages).toContain('Please select a Longevity plan');
  });
});
