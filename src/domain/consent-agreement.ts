import { formatUsd } from './money';
import { cardFeePercent } from './payments';
import type { PriceBook } from './price-book';

/**
 * The Client Consent and Service Agreement, written for the bank in our own words (spec 2,
 * sections 2 and 9). The text is versioned: a signed consent records the version and the SHA-256
 * of exactly the text shown, so a later change of wording never alters what a client signed.
 * Fees come from the price book version in force when it is shown and signed; the text hashed with
 * a signature holds them.
 */

export interface AgreementSection {
  heading: string;
  paragraphs: string[];
}

/**
 * The version of the text below. A change of any word makes a new version: a signature records
 * the version and the SHA-256 of the text it signed, so earlier signatures keep theirs. 2026-11-27:
 * Addendum A (its introduction and what each choice means, as page 1 shows them) became part of
 * the signed text, and the retention after death reads as spec 2 says it.
 */
export const CONSENT_AGREEMENT_VERSION = '2026-11-27';

const fee = (cents: number) => formatUsd(cents);

/** Addendum A's choices (spec 2, section 2), in the legacy Tissue_deliver values. */
export const TISSUE_DELIVER_OPTIONS = [
  'Destroy any Tissue',
  'Release any Tissue to the following individual',
  'Release any Tissue to Bank of Letters Testamentary',
] as const;
export type TissueDeliver = (typeof TISSUE_DELIVER_OPTIONS)[number];
export const RELEASE_TO_INDIVIDUAL: TissueDeliver = 'Release any Tissue to the following individual';

export const ADDENDUM_A_TITLE = 'Addendum A: In the event of my death';

/** Addendum A as the client reads it on page 1 and signs it: its introduction and each choice. */
export interface AddendumA {
  heading: string;
  intro: string;
  options: { option: TissueDeliver; explanation: string }[];
}

const addendumA: AddendumA = {
  heading: ADDENDUM_A_TITLE,
  intro:
    'Please choose what the bank is to do with your stored tissue and cells in the event of your death. Tissue is retained 120 days after death before destruction.',
  options: [
    {
      option: 'Destroy any Tissue',
      explanation: 'The bank destroys all my stored tissue and cells 120 days after death.',
    },
    {
      option: 'Release any Tissue to the following individual',
      explanation: 'The bank releases my stored tissue and cells to the person I name below.',
    },
    {
      option: 'Release any Tissue to Bank of Letters Testamentary',
      explanation:
        'The bank releases my stored tissue and cells to the executor of my estate on presentation of Letters Testamentary.',
    },
  ],
};

export interface ConsentAgreement {
  version: string;
  title: string;
  sections: AgreementSection[];
  addendumA: AddendumA;
}

export const CONSENT_AGREEMENT_TITLE = 'Client Consent and Service Agreement';

export function consentAgreementOf(book: PriceBook): ConsentAgreement {
  return {
    version: CONSENT_AGREEMENT_VERSION,
    title: CONSENT_AGREEMENT_TITLE,
    sections: [
      {
        heading: '1. Informed consent',
        paragraphs: [
          'I ask the bank to receive, process, test, cryopreserve and store the tissue my physician collects from me (adipose tissue or bone marrow) and the stem cells obtained from it.',
          'I understand that processing and storage are not medical treatment, that no particular number of cells, viability or future clinical use is promised, and that any future use of my cells is a decision for me and my treating physician under the law that applies at that time.',
          'I have been able to ask questions about the collection, processing, storage and release of my tissue, and I give this consent freely. I may withdraw it by written notice, subject to the fees already due under this Agreement.',
        ],
      },
      {
        heading: '2. Services and timelines',
        paragraphs: [
          'Cells are usually ready for storage about 6 to 10 weeks after the sample arrives at the laboratory.',
          'I may request a release of cells from three months after my Enrollment Date. A release needs 3 weeks notice when no cells are pre-paid and available for immediate use.',
          'My physician may request cells on my behalf unless I tell the bank in writing that they may not.',
        ],
      },
      {
        heading: '3. Fees',
        paragraphs: [
          `The up-front banking fee is ${fee(book.upFrontBankingFee.adipose)} for adipose tissue and ${fee(book.upFrontBankingFee.boneMarrow)} for bone marrow, and includes the first year of storage.`,
          `After the first year, the Annual Maintenance Fee is ${fee(book.annualMaintenanceFee)} a year, payable before each anniversary of the Enrollment Date. The amount quoted for future years is ${fee(book.annualMaintenanceFee)} by ACH and ${fee(book.annualFeeCardOrCheck)} by card or check. I authorize the bank to charge the payment method I keep on file on each anniversary.`,
          `Card payments carry a processing fee of ${cardFeePercent(book)} of the amount; ACH payments carry none.`,
          `The retrieval fee is ${fee(book.vialPrice)} per vial transferred, plus shipping.`,
        ],
      },
      {
        heading: '4. Term and termination',
        paragraphs: [
          'This Agreement continues year to year while storage fees are paid. The bank may end it with 60 days written notice. Fees already paid are not refunded when the Agreement ends.',
        ],
      },
      {
        heading: '5. In the event of my death (Addendum A)',
        paragraphs: [
          'I choose in Addendum A what happens to my tissue if I die: that it be destroyed, released to the individual I name, or released to the executor of my estate on presentation of Letters Testamentary.',
          'Tissue is retained 120 days after death before destruction.',
        ],
      },
      {
        heading: '6. Governing law and courts',
        paragraphs: [
          'This Agreement is governed by the laws of the State of Florida. Any dispute about it is to be heard only in the state or federal courts located in Miami-Dade County, Florida, and both parties accept the jurisdiction of those courts.',
          "In any action to enforce or interpret this Agreement, the prevailing party is entitled to recover its reasonable attorney's fees and costs.",
        ],
      },
      {
        heading: '7. General terms',
        paragraphs: [
          'Entire agreement. This Agreement, with its Addendum, is the whole agreement between the client and the bank about its subject and replaces any earlier understanding, written or spoken.',
          'Severability. If a court finds any part of this Agreement unenforceable, that part is limited to the extent needed and the rest remains in force.',
          'Survival. The terms that by their nature continue after the Agreement ends, including fees owed, the Addendum, governing law and attorney fees, survive its end.',
          'Headings. Headings are for convenience only and do not change the meaning of any term.',
          'Notices. Notices are given in writing to the addresses on file and take effect two business days after dispatch.',
          'Amendment. This Agreement can be changed only by a written amendment signed by the client and the bank.',
        ],
      },
    ],
    addendumA,
  };
}

/** Every section the client reads and signs, Addendum A last (the signed PDF prints these). */
export function consentAgreementSections(agreement: ConsentAgreement): AgreementSection[] {
  const { heading, intro, options } = agreement.addendumA;
  return [
    ...agreement.sections,
    { heading, paragraphs: [intro, ...options.map((o) => `${o.option}: ${o.explanation}`)] },
  ];
}

/** The exact text a client reads and signs; its SHA-256 is recorded with the signature. */
export function consentAgreementText(agreement: ConsentAgreement): string {
  return [
    agreement.title,
    `Version ${agreement.version}`,
    ...consentAgreementSections(agreement).flatMap((s) => [s.heading, ...s.paragraphs]),
  ].join('\n\n');
}
