import { describe, expect, it } from 'vitest';
import { annualStoragePaidUntilLabel } from './client-basics';
import { firstYearPaidUntil, sampleReceiptProblems, storageAnniversary } from './storage-year';

describe('storage anniversaries', () => {
  it.each([
    ['2026-06-14', 1, '2027-06-14'],
    ['2026-06-14', 3, '2029-06-14'],
    ['2026-12-31', 1, '2027-12-31'],
    ['2028-02-29', 1, '2029-02-28'],
    ['2028-02-29', 3, '2031-02-28'],
    ['2028-02-29', 4, '2032-02-29'],
    ['2027-02-28', 1, '2028-02-28'],
    ['2027-03-01', 1, '2028-03-01'],
  ])('banked %s: anniversary %i is %s', (banked, n, due) => {
    expect(storageAnniversary(banked, n)).toBe(due);
  });

  it('a sample received today is paid until its first anniversary', () => {
    expect(firstYearPaidUntil('2026-11-26')).toBe('2027-11-26');
  });
});

describe('the arrival entry', () => {
  const context = { today: '2026-11-26', submittedOn: '2026-11-20' };
  it.each([
    [{ receivedOn: '', vialsBanked: '4' }, { receivedOn: 'Please enter the date the sample arrived' }],
    [{ receivedOn: '02/30/2026', vialsBanked: '4' }, { receivedOn: 'Please enter the date as MM/DD/YYYY' }],
    [
      { receivedOn: '11/27/2026', vialsBanked: '4' },
      { receivedOn: 'The arrival date cannot be in the future' },
    ],
    [
      { receivedOn: '11/19/2026', vialsBanked: '4' },
      { receivedOn: 'The arrival date cannot be before the sample form was sent' },
    ],
    [
      { receivedOn: '11/26/2026', vialsBanked: '' },
      { vialsBanked: 'Please enter the number of vials banked' },
    ],
    [
      { receivedOn: '11/26/2026', vialsBanked: '0' },
      { vialsBanked: 'Please enter a whole number of vials from 1 to 99' },
    ],
    [
      { receivedOn: '11/26/2026', vialsBanked: '100' },
      { vialsBanked: 'Please enter a whole number of vials from 1 to 99' },
    ],
    [
      { receivedOn: '11/26/2026', vialsBanked: '2.5' },
      { vialsBanked: 'Please enter a whole number of vials from 1 to 99' },
    ],
    [{ receivedOn: '11/20/2026', vialsBanked: '1' }, {}],
    [{ receivedOn: '11/26/2026', vialsBanked: '99' }, {}],
  ])('%j → %j', (entry, problems) => {
    expect(sampleReceiptProblems(entry, context)).toEqual(problems);
  });
});

describe('Annual Storage Paid Until', () => {
  it('a client whose tissue has not arrived sees the first year included, never Overdue', () => {
    expect(annualStoragePaidUntilLabel(null, '2026-11-26', null)).toBe(
      'First year included: billing starts when your sample is received',
    );
  });
  it('after receipt: the date, or Overdue once it is past', () => {
    expect(annualStoragePaidUntilLabel('2027-11-26', '2026-11-26', '2026-11-26')).toBe('2027-11-26');
    expect(annualStoragePaidUntilLabel('2026-11-25', '2026-11-26', '2025-11-25')).toBe('Overdue');
    expect(annualStoragePaidUntilLabel(null, '2026-11-26', '2025-11-25')).toBe('Overdue');
  });
});
