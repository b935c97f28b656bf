import { describe, expect, it } from 'vitest';
import { SHIPPED_PRICE_BOOK } from './price-book';
import { storageYearsCharge } from './storage-billing';

const book = SHIPPED_PRICE_BOOK;

import {
  fedexShippingCharge,
  prePaidVialUse,
  priceVialRequest,
  vialsWithPrePaidText,
} from './vial-request-price';

describe('FedEx shipping is max($50, net charge x 1.20), half up to the cent', () => {
  it.each([
    [0, 5_000, 'a free quote still costs the $50 minimum'],
    [4_166, 5_000, '$41.66 x 1.2 = $49.992, under the minimum'],
    [4_167, 5_000, '$41.67 x 1.2 = $50.004, rounds to exactly $50.00'],
    [4_168, 5_002, '$41.68 x 1.2 = $50.016, just over the minimum'],
    [9_180, 11_016, 'the offline zone 5 quote, $91.80'],
    [10_001, 12_001, '$100.01 x 1.2 = $120.012, rounds down'],
    [10_004, 12_005, '$100.04 x 1.2 = $120.048, rounds up'],
    [12_345, 14_814, '$123.45 x 1.2 = $148.14 exactly'],
  ])('%i cents net is %i cents (%s)', (net, charged) => {
    expect(fedexShippingCharge(book, net)).toBe(charged);
  });

  it.each([
    [10_002, 12_002, '$120.024 rounds down'],
    [10_003, 12_004, '$120.036 rounds up'],
  ])('%i cents net is %i cents (%s; x 1.2 of whole cents never ends in half a cent)', (net, charged) => {
    expect(fedexShippingCharge(book, net)).toBe(charged);
  });
});

describe('pre-paid vials are used first: Bio-Insurance one for one, then 10 Longevity vials per vial', () => {
  // [vials requested, available, Bio-Insurance vials taken, Longevity vials taken, vials covered by
  // Longevity, vials charged, every vial covered by Bio-Insurance]
  it.each([
    [3, { bioInsurance: 4, longevity: 2 }, 3, 0, 0, 0, true],
    [4, { bioInsurance: 4, longevity: 2 }, 4, 0, 0, 0, true],
    [5, { bioInsurance: 4, longevity: 2 }, 4, 0, 0, 1, false],
    [7, { bioInsurance: 4, longevity: 25 }, 4, 20, 2, 1, false],
    [6, { bioInsurance: 4, longevity: 25 }, 4, 20, 2, 0, false],
    [5, { bioInsurance: 4, longevity: 9 }, 4, 0, 0, 1, false],
    [5, { bioInsurance: 4, longevity: 10 }, 4, 10, 1, 0, false],
    [10, { bioInsurance: 0, longevity: 0 }, 0, 0, 0, 10, false],
    [1, { bioInsurance: -3, longevity: 0 }, 0, 0, 0, 1, false],
    [1, { bioInsurance: 0, longevity: -10 }, 0, 0, 0, 1, false],
  ])(
    '%i vials from %o: %i Bio-Insurance, %i Longevity (%i vials), %i charged',
    (vials, available, bio, longevity, byLongevity, payable, covered) => {
      expect(prePaidVialUse(vials, available)).toEqual({
        bioInsurance: bio,
        longevity,
        longevityCoveredVials: byLongevity,
        coveredVials: bio + byLongevity,
        payable,
        coveredByBioInsurance: covered,
      });
    },
  );

  it('a Longevity 100 (10 Longevity vials, $2,125.00) covers one $500.00 vial, not ten', () => {
    expect(prePaidVialUse(10, { bioInsurance: 0, longevity: 10 })).toMatchObject({
      longevity: 10,
      coveredVials: 1,
      payable: 9,
    });
  });

  it('Bio-Insurance vials first, then Longevity: 3 vials from 1 Bio-Insurance and 19 Longevity vials', () => {
    expect(prePaidVialUse(3, { bioInsurance: 1, longevity: 19 })).toEqual({
      bioInsurance: 1,
      longevity: 10,
      longevityCoveredVials: 1,
      coveredVials: 2,
      payable: 1,
      coveredByBioInsurance: false,
    });
  });
});

describe('the price of a vial request with Longevity vials, by the 10 million cells of a vial', () => {
  const vipByCard = { shipping: { method: 'ACT VIP' as const }, paymentMethod: 'card' as const };

  // 2 vials requested (20 million cells) with Longevity vials (1 million cells) alone, by card, no
  // CPP: [Longevity vials held, taken, vials covered, vials charged, vials cents, card fee cents
  // (3% of the vials charged; ACT VIP costs nothing now), total cents].
  it.each([
    [0, 0, 0, 2, 100_000, 3_000, 103_000, 'none: both vials charged, $1,000.00 + $30.00'],
    [5, 0, 0, 2, 100_000, 3_000, 103_000, '5 million cells cover no vial: both charged, the 5 kept'],
    [9, 0, 0, 2, 100_000, 3_000, 103_000, '9 million cells cover no vial: both charged, the 9 kept'],
    [10, 10, 1, 1, 50_000, 1_500, 51_500, '10 cover one vial, the other charged: $500.00 + $15.00'],
    [19, 10, 1, 1, 50_000, 1_500, 51_500, '19 cover one vial (10 taken, 9 kept), the other charged'],
    [20, 20, 2, 0, 0, 0, 0, '20 cover both'],
    [25, 20, 2, 0, 0, 0, 0, '25 cover both (20 taken, 5 kept)'],
  ])(
    '2 vials from %i Longevity vials: %i taken, %i covered, %i charged; vials %i, fee %i, total %i cents (%s)',
    (available, taken, covered, payable, vialsCents, processingFeeCents, totalCents) => {
      const prePaid = { bioInsurance: 0, longevity: available };
      expect(prePaidVialUse(2, prePaid)).toEqual({
        bioInsurance: 0,
        longevity: taken,
        longevityCoveredVials: covered,
        coveredVials: covered,
        payable,
        coveredByBioInsurance: false,
      });
      expect(priceVialRequest(book, { vials: 2, prePaid, cpp: false, ...vipByCard })).toMatchObject({
        vialsCents,
        cppCents: 0,
        processingFeeCents,
        totalCents,
      });
    },
  );

  it('3 vials with CPP from 1 Bio-Insurance and 15 Longevity vials: 1 + 1 covered, $500.00 + CPP $75.00 + 3% $17.25', () => {
    expect(
      priceVialRequest(book, {
        vials: 3,
        prePaid: { bioInsurance: 1, longevity: 15 },
        cpp: true,
        ...vipByCard,
      }),
    ).toMatchObject({
      prePaidVials: { bioInsurance: 1, longevity: 10, coveredVials: 2, payable: 1 },
      vialsCents: 50_000,
      cppCents: 7_500,
      processingFeeCents: 1_725,
      totalCents: 59_225,
    });
  });

  it('CPP is $25.00 a vial on Longevity-covered vials too: 2 vials from 20 Longevity vials, $50.00 + 3% $1.50', () => {
    expect(
      priceVialRequest(book, {
        vials: 2,
        prePaid: { bioInsurance: 0, longevity: 20 },
        cpp: true,
        ...vipByCard,
      }),
    ).toMatchObject({ vialsCents: 0, cppCents: 5_000, processingFeeCents: 150, totalCents: 5_150 });
  });
});

describe('the price of a vial request', () => {
  const none = { bioInsurance: 0, longevity: 0 };

  it('one vial by card, FedEx at the minimum, no CPP: $500 + $50 + 3% = $566.50', () => {
    expect(
      priceVialRequest(book, {
        vials: 1,
        prePaid: none,
        cpp: false,
        shipping: { method: 'FedEx', carrierNetChargeCents: 3_000 },
        paymentMethod: 'card',
      }),
    ).toMatchObject({
      vialsCents: 50_000,
      cppCents: 0,
      shippingCents: 5_000,
      processingFeeCents: 1_650,
      totalCents: 56_650,
      shippingConfirmedLater: false,
    });
  });

  it('ten vials by ACH with CPP: no processing fee', () => {
    expect(
      priceVialRequest(book, {
        vials: 10,
        prePaid: none,
        cpp: true,
        shipping: { method: 'FedEx', carrierNetChargeCents: 9_180 },
        paymentMethod: 'ach',
      }),
    ).toMatchObject({
      vialsCents: 500_000,
      cppCents: 25_000,
      shippingCents: 11_016,
      processingFeeCents: 0,
      totalCents: 536_016,
    });
  });

  it('CPP is charged on pre-paid vials too, and the card fee on CPP and shipping alone', () => {
    expect(
      priceVialRequest(book, {
        vials: 3,
        prePaid: { bioInsurance: 4, longevity: 0 },
        cpp: true,
        shipping: { method: 'FedEx', carrierNetChargeCents: 9_180 },
        paymentMethod: 'card',
      }),
    ).toMatchObject({
      vialsCents: 0,
      cppCents: 7_500,
      shippingCents: 11_016,
      // 3% of $185.16 = $5.5548 -> $5.55
      processingFeeCents: 555,
      totalCents: 19_071,
    });
  });

  it.each([
    [5_125, 6_150, 1_685, 57_835, '3% of $561.50 = $16.845, half a cent rounds up'],
    [5_124, 6_149, 1_684, 57_833, '3% of $561.49 = $16.8447, rounds down'],
  ])('a net charge of %i cents: shipping %i, card fee %i, total %i (%s)', (net, shipping, fee, total) => {
    const price = priceVialRequest(book, {
      vials: 1,
      prePaid: none,
      cpp: false,
      shipping: { method: 'FedEx', carrierNetChargeCents: net },
      paymentMethod: 'card',
    });
    expect(price).toMatchObject({ shippingCents: shipping, processingFeeCents: fee, totalCents: total });
  });

  it('ACT VIP costs nothing now, its price confirmed later by staff', () => {
    expect(
      priceVialRequest(book, {
        vials: 2,
        prePaid: { bioInsurance: 0, longevity: 20 },
        cpp: false,
        shipping: { method: 'ACT VIP' },
        paymentMethod: 'card',
      }),
    ).toMatchObject({
      vialsCents: 0,
      shippingCents: 0,
      shippingConfirmedLater: true,
      processingFeeCents: 0,
      totalCents: 0,
    });
  });
});

describe('overdue annual storage joins the order as one charge (DESIGN.md 8 item 30)', () => {
  const johnsOrder = {
    vials: 2,
    // 10 Longevity vials (10 million cells) cover one vial, the other is charged $500.00.
    prePaid: { bioInsurance: 0, longevity: 10 },
    cpp: true,
    // The offline carrier's $98.65 to New York: $118.38 charged.
    shipping: { method: 'FedEx' as const, carrierNetChargeCents: 9_865 },
  };

  // John's two years were billed before notices fixed their amounts: $339.81 each, a card adding 3%.
  const older = { amountCents: 33_981, achAmountCents: null };
  const johnsYears = [older, older];

  it('John by card: $688.43 of vials, plus two years of $339.81 with their own 3% ($20.39): $1,388.44', () => {
    expect(
      priceVialRequest(book, {
        ...johnsOrder,
        paymentMethod: 'card',
        overdueStorage: storageYearsCharge(book, johnsYears, 'card'),
      }),
    ).toMatchObject({
      vialsCents: 50_000,
      cppCents: 5_000,
      shippingCents: 11_838,
      overdueStorageCents: 67_962,
      overdueStorageFeeCents: 2_039,
      processingFeeCents: 4_044,
      totalCents: 138_844,
    });
  });

  it('by ACH the overdue years cost $679.62, no fee', () => {
    expect(
      priceVialRequest(book, {
        ...johnsOrder,
        paymentMethod: 'ach',
        overdueStorage: storageYearsCharge(book, johnsYears, 'ach'),
      }),
    ).toMatchObject({ overdueStorageFeeCents: 0, processingFeeCents: 0, totalCents: 66_838 + 67_962 });
  });

  it('one year by card costs $350.00, as on Payment Information', () => {
    const price = priceVialRequest(book, {
      vials: 1,
      prePaid: { bioInsurance: 1, longevity: 0 },
      cpp: false,
      shipping: { method: 'ACT VIP' },
      paymentMethod: 'card',
      overdueStorage: storageYearsCharge(book, [older], 'card'),
    });
    expect(price).toMatchObject({ vialsCents: 0, overdueStorageFeeCents: 1_019, totalCents: 35_000 });
  });

  it('years whose notices fixed $350.00 by card: $700.00 with no fee on them, 3% on the vials alone ($20.05)', () => {
    const noticed = { amountCents: 35_000, achAmountCents: 33_981 };
    expect(
      priceVialRequest(book, {
        ...johnsOrder,
        paymentMethod: 'card',
        overdueStorage: storageYearsCharge(book, [noticed, noticed], 'card'),
      }),
    ).toMatchObject({
      overdueStorageCents: 70_000,
      overdueStorageFeeCents: 0,
      processingFeeCents: 2_005,
      totalCents: 66_838 + 70_000 + 2_005,
    });
  });

  it('nothing overdue: the price is the vials alone', () => {
    expect(priceVialRequest(book, { ...johnsOrder, paymentMethod: 'card' })).toMatchObject({
      overdueStorageCents: 0,
      overdueStorageFeeCents: 0,
      totalCents: 68_843,
    });
  });
});

describe('a release reads with the pre-paid vials it took, by kind where Longevity vials are among them', () => {
  it.each([
    [2, { bioInsurance: 0, longevity: 0, coveredVials: 0 }, '2 (0 pre-paid)'],
    [3, { bioInsurance: 1, longevity: 0, coveredVials: 1 }, '3 (1 pre-paid)'],
    [
      2,
      { bioInsurance: 0, longevity: 10, coveredVials: 1 },
      '2 (1 pre-paid: 10 Longevity vials of 1 million cells)',
    ],
    [
      4,
      { bioInsurance: 1, longevity: 20, coveredVials: 3 },
      '4 (3 pre-paid: 1 Bio-Insurance vial, 20 Longevity vials of 1 million cells)',
    ],
  ])('%i vials, %o: "%s"', (vials, used, text) => {
    expect(vialsWithPrePaidText(vials, used)).toBe(text);
  });
});
