import { PDFDocument, type PDFPage, rgb } from 'pdf-lib';
import { PdfFonts, pdfText, textsIn } from '../../lib/pdf-fonts';

/**
 * A signed form as a PDF (DESIGN.md section 7): the text the client read, their answers, the
 * drawn signature, and a certificate page with who signed, when, from where and the SHA-256 of
 * the text signed. Letter size, Noto Sans (and Noto Sans SC for Chinese characters, see
 * lib/pdf-fonts.ts) so every name and answer prints as typed; text is wrapped and paged here.
 */

export interface SignedPdfInput {
  title: string;
  subtitle: string;
  sections: { heading: string; paragraphs: string[] }[];
  answers: { label: string; value: string }[];
  /** Tables printed after the answers (a payment schedule): a heading, the columns, the rows. */
  tables?: { heading: string; columns: string[]; rows: string[][]; note?: string }[];
  signaturePng: Buffer | null;
  certificate: {
    signer: string;
    clientActId: string;
    signedAt: Date;
    ip: string;
    userAgent: string;
    textSha256: string;
    signatureSha256: string | null;
    reference: string;
    /** The physician variants: the physician in whose presence the client signed, who submitted it. */
    inPresenceOf?: { physicianActId: string; name: string };
  };
}

const PAGE = { width: 612, height: 792, margin: 56 };
const BODY = 10;
const LEADING = 14;
const GREY = rgb(0.35, 0.35, 0.35);

class Writer {
  private page: PDFPage;
  private y: number;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: PdfFonts,
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  private room(height: number) {
    if (this.y - height < PAGE.margin) this.newPage();
  }

  text(value: string, options: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb> } = {}) {
    const size = options.size ?? BODY;
    const weight = options.bold ? 'bold' : 'regular';
    const widthOf = (text: string) => this.fonts.widthOf(text, size, weight);
    const width = PAGE.width - 2 * PAGE.margin;
    const lines: string[] = [];
    let line = '';
    for (const word of pdfText(value).split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (widthOf(next) <= width) {
        line = next;
        continue;
      }
      if (line) lines.push(line);
      // A word wider than the page (a long hash, a user agent, Chinese text without spaces) is
      // cut where it must be, between characters.
      let rest = Array.from(word);
      while (rest.length > 1 && widthOf(rest.join('')) > width) {
        let cut = 1;
        while (cut < rest.length - 1 && widthOf(rest.slice(0, cut + 1).join('')) <= width) cut++;
        lines.push(rest.slice(0, cut).join(''));
        rest = rest.slice(cut);
      }
      line = rest.join('');
    }
    if (line) lines.push(line);
    const leading = size + 4;
    for (const l of lines) {
      this.room(leading);
      this.fonts.draw(this.page, l, { x: PAGE.margin, y: this.y - size, size, weight, color: options.color });
      this.y -= leading;
    }
  }

  /**
   * One row of a table: the first column left-aligned, the others right-aligned (amounts), each
   * column an equal share of the page's width.
   */
  row(cells: string[], options: { bold?: boolean } = {}) {
    const size = 9;
    const weight = options.bold ? 'bold' : 'regular';
    const width = (PAGE.width - 2 * PAGE.margin) / cells.length;
    this.room(size + 6);
    cells.forEach((cell, i) => {
      const text = pdfText(cell);
      const x =
        i === 0 ? PAGE.margin : PAGE.margin + width * (i + 1) - this.fonts.widthOf(text, size, weight) - 4;
      this.fonts.draw(this.page, text, { x, y: this.y - size, size, weight });
    });
    this.y -= size + 6;
    if (options.bold) {
      this.page.drawLine({
        start: { x: PAGE.margin, y: this.y + 2 },
        end: { x: PAGE.width - PAGE.margin, y: this.y + 2 },
        thickness: 0.5,
        color: GREY,
      });
      this.y -= 2;
    }
  }

  gap(height = LEADING / 2) {
    this.y -= height;
  }

  async image(png: Buffer, width: number, height: number) {
    const image = await this.doc.embedPng(png);
    this.room(height + 8);
    this.page.drawRectangle({
      x: PAGE.margin,
      y: this.y - height - 4,
      width: width + 8,
      height: height + 8,
      borderColor: GREY,
      borderWidth: 0.5,
    });
    this.page.drawImage(image, { x: PAGE.margin + 4, y: this.y - height, width, height });
    this.y -= height + 12;
  }
}

export async function renderSignedPdf(input: SignedPdfInput): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const { certificate } = input;
  doc.setTitle(pdfText(input.title));
  doc.setSubject(pdfText(input.subtitle));
  doc.setAuthor(pdfText(certificate.signer));
  doc.setCreator('Client Portal');
  doc.setProducer('Client Portal');
  doc.setCreationDate(certificate.signedAt);
  doc.setModificationDate(certificate.signedAt);
  const tables = input.tables ?? [];
  const bold = [
    input.title,
    ...input.sections.map((s) => s.heading),
    ...input.answers.map((a) => a.label),
    ...tables.flatMap((t) => [t.heading, ...t.columns]),
  ];
  const fonts = await PdfFonts.embed(doc, { regular: textsIn(input), bold });
  const w = new Writer(doc, fonts);

  w.text(input.title, { size: 16, bold: true });
  w.text(input.subtitle, { color: GREY });
  w.gap(LEADING);
  for (const section of input.sections) {
    w.text(section.heading, { size: 11, bold: true });
    for (const paragraph of section.paragraphs) {
      w.text(paragraph);
      w.gap(4);
    }
    w.gap(6);
  }

  w.gap(LEADING);
  w.text('Answers', { size: 13, bold: true });
  w.gap(4);
  for (const answer of input.answers) {
    w.text(answer.label, { bold: true });
    w.text(answer.value || '-');
    w.gap(4);
  }
  for (const table of tables) {
    w.gap(LEADING);
    w.text(table.heading, { size: 13, bold: true });
    w.gap(4);
    w.row(table.columns, { bold: true });
    for (const row of table.rows) w.row(row);
    if (table.note) {
      w.gap(4);
      w.text(table.note, { color: GREY });
    }
  }
  if (input.signaturePng) {
    w.gap(LEADING);
    w.text('Signature', { size: 13, bold: true });
    w.gap(4);
    await w.image(input.signaturePng, 250, 50);
    w.text(`${certificate.signer}, ${certificate.signedAt.toISOString()}`, { color: GREY });
  }

  w.newPage();
  w.text('Certificate of signature', { size: 16, bold: true });
  w.gap(LEADING);
  const facts: [string, string][] = [
    ['Document', input.title],
    ['Version', input.subtitle],
    ['Reference', certificate.reference],
    ['Signer', `${certificate.signer} (Client ID ${certificate.clientActId})`],
    ...(certificate.inPresenceOf
      ? ([
          [
            'Signed in the presence of',
            `${certificate.inPresenceOf.name} (Physician ID ${certificate.inPresenceOf.physicianActId})`,
          ],
        ] as [string, string][])
      : []),
    ['Signed at (UTC)', certificate.signedAt.toISOString()],
    ['IP address', certificate.ip],
    ['User agent', certificate.userAgent || 'not given'],
    ['SHA-256 of the text signed', certificate.textSha256],
    ['SHA-256 of the signature image', certificate.signatureSha256 ?? 'no drawn signature'],
  ];
  for (const [label, value] of facts) {
    w.text(label, { bold: true });
    w.text(value);
    w.gap(4);
  }
  w.gap(LEADING);
  const how = certificate.inPresenceOf
    ? `The signature was drawn by the signer in the clinic, in the presence of the physician ${certificate.inPresenceOf.name} (Physician ID ${certificate.inPresenceOf.physicianActId}), and confirmed before submission; the physician submitted it in the Physician Portal after an authenticated sign-in.`
    : 'The signature was drawn by the signer in the Client Portal after an authenticated sign-in and confirmed by them before submission.';
  w.text(
    `${how} The bank keeps this document, the signature image and the answers encrypted, each with its SHA-256.`,
    { color: GREY },
  );
  await fonts.finish();
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
