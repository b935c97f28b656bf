import { execFileSync } from 'node:child_process';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderSignedPdf, type SignedPdfInput } from '../modules/forms/signed-pdf';
import { renderReceiptPdf } from '../modules/payments/receipt-pdf';
import { expectSeen, itLooks, readPdf } from '../testing/pdf-ocr';
import { pageText } from '../testing/pdf-reading';

const NAMES = ['Łukasz Wiśniewski', 'Nguyễn Thị Minh', '王芳'];
/** The OCR language each name is read with (each reads English too; mixed with English, tesseract misreads 王芳 and the Vietnamese marks). */
const LANGUAGES: Record<string, string[]> = {
  'Łukasz Wiśniewski': ['pol'],
  'Nguyễn Thị Minh': ['vie'],
  王芳: ['chi_sim'],
};

const consent = (signer: string, answers: SignedPdfInput['answers']): SignedPdfInput => ({
  title: 'Stem Cell Storage Agreement',
  subtitle: 'Version 2024-06',
  sections: [{ heading: 'Release', paragraphs: ['The client names who may receive the tissue.'] }],
  answers,
  signaturePng: null,
  certificate: {
    signer,
    clientActId: 'ACT10001',
    signedAt: new Date('2026-03-01T12:00:00Z'),
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0',
    textSha256: 'a'.repeat(64),
    signatureSha256: null,
    reference: 'SIG-1',
  },
});

const receipt = (clientName: string) => ({
  clientName,
  clientActId: 'ACT10002',
  paidOn: '03/01/2026',
  description: 'Initial sample processing',
  amountCents: 67962,
  feeCents: 2039,
  totalCents: 70001,
  method: 'Visa ending in 1111',
  transactionId: 'TX-1',
});

async function allText(pdf: Buffer): Promise<string> {
  const doc = await PDFDocument.load(pdf);
  return Array.from({ length: doc.getPageCount() }, (_, i) => pageText(doc, i)).join('\n');
}

/** What poppler, a reader independent of ours, extracts from the PDF. */
const popplerText = (pdf: Buffer) =>
  execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf }).toString();

async function fontNames(pdf: Buffer): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  const names = new Set<string>();
  for (const page of doc.getPages()) {
    const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const ref of fonts?.values() ?? []) {
      const font = doc.context.lookup(ref, PDFDict);
      names.add(String(font.get(PDFName.of('BaseFont'))).replace(/^\/[A-Z]{6}\+/, ''));
    }
  }
  return [...names].sort();
}

describe('text in the PDFs the server draws, in any script', () => {
  it('prints Polish, Vietnamese and Chinese names in a signed PDF and its certificate, as typed', async () => {
    const pdf = await renderSignedPdf(
      consent('Nguyễn Thị Minh', [
        { label: 'Release any Tissue to the following individual', value: 'Łukasz Wiśniewski' },
        { label: 'Second individual', value: '王芳' },
      ]),
    );
    const doc = await PDFDocument.load(pdf);
    const certificate = pageText(doc, doc.getPageCount() - 1);
    expect(certificate).toContain('Nguyễn Thị Minh (Client ID ACT10001)');
    const text = await allText(pdf);
    expect(text.split('\n')).toEqual(expect.arrayContaining(['Łukasz Wiśniewski', '王芳']));
    expect(text).not.toContain('?');
    const poppler = popplerText(pdf);
    for (const name of NAMES) expect(poppler).toContain(name);
    expect(poppler).toContain('Nguyễn Thị Minh (Client ID ACT10001)');
    expect(doc.getAuthor()).toBe('Nguyễn Thị Minh');
  });

  it('prints each name on a receipt, the Chinese one in its own font on the same line', async () => {
    for (const name of NAMES) {
      const pdf = await renderReceiptPdf(receipt(name), new Date('2026-03-01T12:00:00Z'));
      const line = `${name} (Client ID ACT10002)`;
      expect((await allText(pdf)).split('\n')).toContain(line);
      expect(popplerText(pdf)).toContain(line);
    }
  });

  it('embeds the Chinese font only in a document that has Chinese characters', async () => {
    const latin = await renderSignedPdf(
      consent('Łukasz Wiśniewski', [{ label: 'Name', value: 'Nguyễn Thị Minh' }]),
    );
    expect(await fontNames(latin)).toEqual(['NotoSans-Bold', 'NotoSans-Regular']);
    const chinese = await renderSignedPdf(consent('王芳', []));
    expect(await fontNames(chinese)).toEqual(['NotoSans-Bold', 'NotoSans-Regular', 'NotoSansSC-Regular']);
    // Subsets: a few glyphs each, not the 10 MB font (nor the 0.6 MB Latin ones).
    expect(chinese.length).toBeLessThan(100_000);
    expect((await renderReceiptPdf(receipt('王芳'), new Date('2026-03-01T12:00:00Z'))).length).toBeLessThan(
      100_000,
    );
  });

  it('keeps typographic punctuation as typed and wraps a long Chinese answer between characters', async () => {
    const long = '王芳'.repeat(200);
    const pdf = await renderSignedPdf(
      consent('Jane Doe', [
        { label: 'Quoted', value: 'She said “yes” — twice…' },
        { label: 'Long', value: long },
      ]),
    );
    const lines = (await allText(pdf)).split('\n');
    expect(lines).toContain('She said “yes” — twice…');
    const start = lines.indexOf('Long') + 1;
    const wrapped = lines.slice(start, start + 20).filter((l) => /^[王芳]+$/.test(l));
    expect(wrapped.length).toBeGreaterThan(3);
    expect(wrapped.join('')).toBe(long);
  });
});

describe('the PDFs as a person sees them (drawn by poppler, read by OCR)', () => {
  itLooks('reads each name, the date and the amounts on a receipt', async () => {
    await Promise.all(
      NAMES.map(async (name) => {
        const pdf = await renderReceiptPdf(receipt(name), new Date('2026-03-01T12:00:00Z'));
        const seen = await readPdf(pdf, { pages: [1], languages: LANGUAGES[name] as string[] });
        expectSeen(seen, [
          'Receipt',
          `${name} (Client ID ACT10002)`,
          'Date paid 03/01/2026',
          'Amount $679.62',
          'Card processing fee $20.39',
          'Total charged $700.01',
        ]);
      }),
    );
  });

  itLooks('reads each name and the date on the certificate page of a signed PDF', async () => {
    await Promise.all(
      NAMES.map(async (name) => {
        const pdf = await renderSignedPdf(consent(name, [{ label: 'Name', value: name }]));
        const seen = await readPdf(pdf, { pages: [-1], languages: LANGUAGES[name] as string[] });
        expectSeen(seen, [
          'Certificate of signature',
          `${name} (Client ID ACT10001)`,
          'Signed at (UTC) 2026-03-01',
        ]);
      }),
    );
  });
});
