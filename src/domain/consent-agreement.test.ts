import { describe, expect, it } from 'vitest';
import { CONSENT_AGREEMENT_VERSION, consentAgreementOf, consentAgreementText } from './consent-agreement';
import { priceBookOf, SHIPPED_PRICE_AMOUNTS, SHIPPED_PRICE_BOOK } from './price-book';

const consentAgreement = consentAgreementOf(SHIPPED_PRICE_BOOK);

describe('the consent agreement', () => {
  const text = consentAgreementText(consentAgreement);

  it.each([
    ['informed consent', /informed consent/i],
    ['Florida law', /laws of the State of Florida/],
    ['Miami-Dade County courts', /Miami-Dade County/],
    [
      'prevailing-party attorney fees',
      /prevailing party is entitled to recover its reasonable attorney's fees/,
    ],
    ['entire agreement', /Entire agreement\./],
    ['severability', /Severability\./],
    ['survival', /Survival\./],
    ['headings', /Headings\./],
    ['notices two business days after dispatch', /two business days after dispatch/],
    ['amendment in writing', /changed only by a written amendment/],
    ['the annual maintenance fee from the price book', /\$339\.81 a year/],
    ['the later card or check amount', /\$350\.00 by card or check/],
    ['the retrieval fee', /\$500\.00 per vial/],
    ['the up-front fees', /\$2,500\.00 for adipose tissue and \$3,000\.00 for bone marrow/],
    ['the 3% card fee', /3% of the amount/],
    ['cells ready in 6 to 10 weeks', /6 to 10 weeks/],
    ['3 weeks notice for a release', /3 weeks notice/],
    ['releases from three months after enrollment', /three months after my Enrollment Date/],
    ['60 days notice of termination and no refunds', /60 days written notice.*not refunded/s],
    ['120 days of retention after death', /Tissue is retained 120 days after death before destruction\./],
  ])('covers %s', (_term, pattern) => {
    expect(text).toMatch(pattern);
  });

  it('states the retrieval fee as the price a vial request charges, so a new vial price changes both', () => {
    const dearer = consentAgreementOf(priceBookOf({ ...SHIPPED_PRICE_AMOUNTS, vialPrice: 52_000 }));
    expect(consentAgreementText(dearer)).toContain(
      'The retrieval fee is $520.00 per vial transferred, plus shipping.',
    );
  });

  it('signs Addendum A as page 1 shows it: its introduction and what each choice means', () => {
    expect(text).toContain(
      [
        'Addendum A: In the event of my death',
        'Please choose what the bank is to do with your stored tissue and cells in the event of your death. Tissue is retained 120 days after death before destruction.',
        'Destroy any Tissue: The bank destroys all my stored tissue and cells 120 days after death.',
        'Release any Tissue to the following individual: The bank releases my stored tissue and cells to the person I name below.',
        'Release any Tissue to Bank of Letters Testamentary: The bank releases my stored tissue and cells to the executor of my estate on presentation of Letters Testamentary.',
      ].join('\n\n'),
    );
  });

  it('speaks of the retention as spec 2 does, and adds no term of its own to the choices', () => {
    expect(text).not.toMatch(/learns of my death|at their request and cost/);
  });

  it('changes its text when an explanation of Addendum A changes', () => {
    const altered = structuredClone(consentAgreement);
    (altered.addendumA.options[1] as { explanation: string }).explanation += ' At their cost.';
    expect(consentAgreementText(altered)).not.toBe(text);
  });

  it('names its version in the text that is signed', () => {
    expect(text).toContain(`Version ${CONSENT_AGREEMENT_VERSION}`);
  });

  it('changes its text when any word changes, so the recorded hash proves what was signed', () => {
    const altered = structuredClone(consentAgreement);
    (altered.sections[0] as { paragraphs: string[] }).paragraphs[0] += ' ';
    expect(consentAgreementText(altered)).not.toBe(text);
  });
});
